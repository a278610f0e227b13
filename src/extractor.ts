/**
 * The extractor behind the command (src/cli.ts): heap settings, then one run of the component,
 * or its offline checks (`validate`, `plan`). The build bundles this file and all it imports into
 * one module (scripts/bundle.ts). Importing it starts nothing: `cli.js --fill-compile-cache` loads
 * it without running it.
 */
import type { Command } from './commandLine.ts';
import { dryRun } from './component/dryRun.ts';
import { runComponent } from './component/run.ts';
import { tuneHeap } from './runtime/heapTuning.ts';

export interface MainOptions {
  /** The module an output worker's thread loads (the command's entry, src/cli.ts). */
  outputWorkerScript: string | URL;
  /** What the command line asked for; a plain run when absent. */
  command?: Extract<Command, { kind: 'run' | 'validate' | 'plan' }>;
}

/**
 * One run with the command's heap settings (src/runtime/heapTuning.ts; EX_GENERIC_HEAP_TUNING=0:
 * V8's defaults); resolves to the exit code. The output worker gets the script and the heap
 * flags' handle through the run's options, down to where it is started.
 */
export async function main(options: MainOptions): Promise<number> {
  const command = options.command ?? { kind: 'run', strict: undefined, limits: undefined };
  if (command.kind !== 'run') return dryRun(command.kind === 'plan', command.strict !== undefined ? { strict: command.strict } : {});
  const heap = process.env['EX_GENERIC_HEAP_TUNING'] !== '0' ? tuneHeap() : undefined;
  return runComponent({
    outputWorker: { script: options.outputWorkerScript, ...(heap ? { heap } : {}) },
    ...(command.strict !== undefined ? { strict: command.strict } : {}),
    ...(command.limits !== undefined ? { limits: command.limits } : {}),
  });
}
