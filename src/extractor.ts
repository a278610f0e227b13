/**
 * The extractor behind the command (src/cli.ts): `validate`, `plan`, or `run` — which, as on the
 * platform, is a sync action when config.json's `action` names one, else an extraction with the
 * command's heap settings. The build bundles this file and all it imports into one CommonJS
 * script (scripts/bundle.ts, dist/extractor.cjs). Importing it starts nothing:
 * `cli.js --fill-compile-cache` loads it and calls `run` on a sample of its own
 * (src/runtime/cacheFill.ts).
 */
import path from 'node:path';
import { runSyncAction } from './actions/index.ts';
import type { Command } from './commandLine.ts';
import { plan, validate } from './component/dryRun.ts';
import { readConfigFile, resolveDataDir } from './component/files.ts';
import { type AbruptEnd, type AbruptEndWatch, type Lifecycle, underLifecycle } from './component/lifecycle.ts';
import { runComponent } from './component/run.ts';
import type { RunOptions } from './component/runContext.ts';
import { UserError } from './errors/UserError.ts';
import { createLogger } from './logging/logger.ts';
import { member, phpType, type Value } from './php/value.ts';
import { tuneHeap } from './runtime/heapTuning.ts';
import { guardMemory, type MemoryLimits, readMemoryLimits, workerResourceLimits } from './runtime/memoryLimits.ts';

export interface MainOptions {
  /** The module an output worker's thread loads (the command's entry, src/cli.ts). */
  outputWorkerScript: string | URL;
  /** What the command line asked for; a plain run when absent. */
  command?: Extract<Command, { kind: 'run' | 'validate' | 'plan' }>;
}

/**
 * The command; resolves to the exit code. A run gets the command's heap settings
 * (src/runtime/heapTuning.ts; EX_GENERIC_HEAP_TUNING=0: V8's defaults), and the output worker
 * the script and the heap flags' handle through the run's options, down to where it is started.
 */
export async function main(options: MainOptions): Promise<number> {
  const command = options.command ?? { kind: 'run', strict: undefined, limits: undefined };
  const strict = command.strict !== undefined ? { strict: command.strict } : {};
  // An argument is the nearer intent: --data wins over KBC_DATADIR.
  const env = command.dataDir !== undefined ? { ...process.env, KBC_DATADIR: command.dataDir } : process.env;
  if (command.kind !== 'run') return (command.kind === 'plan' ? plan : validate)({ ...strict, env });
  const heap = env['EX_GENERIC_HEAP_TUNING'] !== '0' ? tuneHeap() : undefined;
  const memory = readMemoryLimits();
  const exitCode = await run(
    {
      env,
      outputWorker: { script: options.outputWorkerScript, resourceLimits: workerResourceLimits(memory), ...(heap ? { heap } : {}) },
      endsProcess: true,
      ...strict,
      ...(command.limits !== undefined ? { limits: command.limits } : {}),
    },
    [watchMemory(memory)],
  );
  // The run is over: V8's flags back to their defaults, which the code cache the command may
  // write now must carry (src/runtime/scriptCache.ts).
  heap?.suspend();
  return exitCode;
}

/**
 * Memory about to run out (src/runtime/memoryLimits.ts) ends the run as a signal does, while
 * JavaScript still runs — V8's own end would be a fatal error without a line — with the guard's
 * line (the limit, and what to do) and exit 2.
 */
function watchMemory(limits: MemoryLimits): AbruptEndWatch {
  return (end) => guardMemory(limits, (message) => end(outOfMemory(message)));
}

function outOfMemory(message: string): AbruptEnd {
  return {
    extraction: `${message} No tables or state were written.`,
    syncAction: (name) => `The sync action "${name}" ran out of memory before it answered; nothing was printed. ${message}`,
    exitCode: 2,
  };
}

/**
 * `run`: config.json's `action` decides. Any action other than "run" (even "") is a sync action
 * (spec 05 §1.1): nothing else runs, out/ is untouched. Both under the run's lifecycle, so a
 * missing or broken config.json is logged and exits alike.
 */
export function run(options: RunOptions = {}, watches: readonly AbruptEndWatch[] = []): Promise<number> {
  const logger = createLogger(options.write ? { write: options.write } : {});
  const dataDir = resolveDataDir(options.env ?? process.env);
  return underLifecycle(
    logger,
    async (lifecycle) => {
      const root = readConfigFile(dataDir);
      logger.secrets.collectFrom(root);
      const action = member(root, 'action');
      if (action === undefined || action === null || action === 'run') return runComponent(lifecycle, { dataDir, root }, options);
      return syncAction(action, path.join(dataDir, 'config.json'), lifecycle, options);
    },
    watches,
  );
}

/**
 * A sync action, refused with the options of a run: the limits, and --strict (EX_GENERIC_STRICT
 * is not read here: a setting of the environment meant for runs must not break the UI's actions,
 * docs/running.md "The command line").
 */
function syncAction(action: Value, configFile: string, lifecycle: Lifecycle, options: RunOptions): Promise<number> {
  if (options.limits !== undefined) throw limitsOnSyncAction(action);
  if (options.strict === true) throw strictOnSyncAction(action);
  // "" runs test_request (spec 05 §1.1): the line names what ran.
  const name = action === '' ? 'test_request' : typeof action === 'string' ? action : JSON.stringify(action);
  const underWay = { name, answering: false };
  lifecycle.syncAction = underWay;
  const onAnswer = (): void => {
    underWay.answering = true;
  };
  const { logger } = lifecycle;
  return runSyncAction({ action, configFile, logger, onAnswer, ...(options.nowMs ? { nowMs: options.nowMs } : {}) });
}

function actionName(action: Value): string {
  return typeof action === 'string' ? JSON.stringify(action) : `of type ${phpType(action)}`;
}

/** A test read asked for a sync action: rather than ignore the limits silently, the command is refused. */
function limitsOnSyncAction(action: Value): UserError {
  return new UserError(
    `--max-pages and --max-records apply to a run, not to the sync action ${actionName(action)} set by "action" in config.json: remove them, or set "action" to "run".`,
    { configPath: 'action' },
  );
}

/**
 * Strict mode asked for a sync action: an action answers the UI with the helper's JSON (spec 05),
 * which has no place for the configuration warnings, so they are not checked; refused, not ignored.
 */
function strictOnSyncAction(action: Value): UserError {
  return new UserError(
    `--strict applies to a run (and to validate and plan), not to the sync action ${actionName(action)} set by "action" in config.json: remove it, or set "action" to "run".`,
    { configPath: 'action' },
  );
}
