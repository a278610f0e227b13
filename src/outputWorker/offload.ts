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
 * - `auto` (default): once a parser's spool outgrows its first MiB, on a machine with two or more
 *   CPUs — small runs do not pay for a thread;
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
    start: (spoolFile, spoolDir, onError) => OutputWorkerClient.start(how, spoolFile, spoolDir, onError),
  };
}
