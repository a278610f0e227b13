/**
 * What the command's process or thread is, besides an extraction: the automatic parser's output
 * worker, or the image build's cache fill. src/cli.ts asks here before it loads the extractor.
 *
 * An output worker's thread runs the command's own entry (src/cli.ts) with `OUTPUT_WORKER_ARG`
 * in its argv (src/outputWorker/client.ts starts it so; a test runs a worker) and loads the
 * output phase's own small bundle only (src/outputWorker/entry.ts). The marker is checked
 * before anything is loaded: a plain run pays nothing for it.
 */
import { OUTPUT_WORKER_ARG } from '../outputWorker/protocol.ts';

/**
 * The image build runs the command with this argument: it loads the extractor (and runs a sample
 * extraction, src/runtime/cacheFill.ts) and the output worker's code, so that every job's fresh
 * container starts with a filled compile cache (src/runtime/compileCache.ts).
 */
export const FILL_COMPILE_CACHE_ARG = '--fill-compile-cache';

/** Whether the command was started to fill the compile cache (`FILL_COMPILE_CACHE_ARG`). */
export function isCacheFill(argv: readonly string[] = process.argv): boolean {
  return argv[2] === FILL_COMPILE_CACHE_ARG;
}

/** Loads the output worker's code without starting it (the cache fill's part of the worker). */
export async function loadOutputWorker(): Promise<void> {
  await import('../outputWorker/entry.ts');
}

/**
 * Starts the output worker when this thread was started as one; true if it did (the command
 * then does nothing else: the worker runs on its messages). `beforeLoad` runs first (src/cli.ts
 * turns Node's compile cache on there for the worker's code).
 */
export async function startOutputWorkerIfAsked(beforeLoad: () => void, argv: readonly string[] = process.argv): Promise<boolean> {
  if (!argv.includes(OUTPUT_WORKER_ARG)) return false;
  beforeLoad();
  const { startIfOutputWorker } = await import('../outputWorker/entry.ts');
  return startIfOutputWorker();
}
