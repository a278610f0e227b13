/**
 * The output worker as the automatic parser's output offload: when a parser gets one
 * (EX_GENERIC_OUTPUT_WORKER) and how it is started. The composition root builds it once per run
 * (src/component/runContext.ts) and hands it to each parser (`createAutoParser`'s `outputOffload`), which knows only the
 * interface (src/mapping/auto/outputOffload.ts).
 */
import os from 'node:os';
import type { OutputOffloadStarter } from '../mapping/auto/outputOffload.ts';
import { OutputWorkerClient, type OutputWorkerStart } from './client.ts';

/**
 * When the output phase runs on a worker thread (EX_GENERIC_OUTPUT_WORKER):
 * - `auto` (default): once a parser's spool holds START_FROM_BYTES, on a machine with two or more
 *   CPUs, at a write of the spool while this thread is busy (`busySinceLastAsked`) — small runs and
 *   runs that mostly wait for their API do not pay for a thread (~17 MB of RSS);
 * - `always`: from the first batch (the spool writes every batch at once) — for tests;
 * - `off` (`0`): never.
 */
export type OutputWorkerMode = 'auto' | 'always' | 'off';

export function outputWorkerMode(env: NodeJS.ProcessEnv): OutputWorkerMode {
  const v = (env['EX_GENERIC_OUTPUT_WORKER'] ?? '').trim().toLowerCase();
  if (v === 'off' || v === '0' || v === 'false') return 'off';
  if (v === 'always') return 'always';
  return os.availableParallelism() >= 2 ? 'auto' : 'off';
}

/** The parser's offload for `mode`: none when `off`. */
export function outputWorkerOffload(mode: OutputWorkerMode, how: OutputWorkerStart): OutputOffloadStarter | undefined {
  if (mode === 'off') return undefined;
  return {
    fromFirstBatch: mode === 'always',
    ...(mode === 'auto' ? { ready: workerPays() } : {}),
    start: (spoolFile, spoolDir, onError) => OutputWorkerClient.start(how, spoolFile, spoolDir, onError),
  };
}

/**
 * Spool bytes from which an output worker may start. Rendering a MiB of spool (~4,000 records of
 * P1's shape) at the end takes the main thread ~50 ms; a worker costs ~17 MB of RSS for as long as
 * the run lasts. P5 with prefetch (200 pages of 20 records, busy while the pages pour in) spools
 * between 1 and 2 MiB: from its first MiB a worker started for the last few pages and the run
 * peaked at 100 MB instead of 87, no faster. P1 and P2 spool tens of MiB; from their second MiB
 * the worker starts a few pages later than from the first, and P1 measured no slower
 * (docs/performance.md, memory round three).
 */
const START_FROM_BYTES = 2 * 1024 * 1024;

/** `auto`'s answer at a spool write: enough spooled, and this thread busy since the last write. */
function workerPays(): (spooled: number) => boolean {
  const busy = busySinceLastAsked();
  return (spooled) => {
    // Asked at every write, so that "busy" covers the time since the last one.
    const isBusy = busy();
    return spooled >= START_FROM_BYTES && isBusy;
  };
}

/**
 * This thread's event-loop utilisation from which an output worker pays. The worker takes the
 * output phase off a thread that has no time for it; a run that waits for its API most of the
 * time (P5: 200 pages × 20 ms, utilisation ~0.15) renders its tables at the end in a fraction of
 * what it waited, and a worker would only add its heap, arena and stack (~17 MB). P1 and P2 are
 * busy (~0.9) from their first spool write on.
 */
const BUSY_FROM = 0.5;

/** Whether this thread's event loop was busy for BUSY_FROM of the time since the last call (the first: since this one). */
export function busySinceLastAsked(): () => boolean {
  const { performance } = process.getBuiltinModule('node:perf_hooks');
  let last = performance.eventLoopUtilization();
  return () => {
    const now = performance.eventLoopUtilization();
    const busy = performance.eventLoopUtilization(now, last).utilization >= BUSY_FROM;
    last = now;
    return busy;
  };
}
