/**
 * The extraction (spec 01 §1.6): configurations → jobs → tables, manifests and state, under the
 * command's lifecycle (lifecycle.ts). Nothing reaches `out/` unless the whole run succeeds.
 */
import type { RunLimits } from '../jobs/runner.ts';
import { BucketOutputs } from './bucketOutputs.ts';
import { runConfiguration } from './configurationRun.ts';
import type { Lifecycle } from './lifecycle.ts';
import { type RunContext, type RunInput, type RunOptions, startRun } from './runContext.ts';
import { RunState } from './state.ts';

/** Extracts what `input`'s configuration asks for; resolves to the exit code 0 (a failure throws). */
export async function runComponent(lifecycle: Lifecycle, input: RunInput, options: RunOptions): Promise<number> {
  const { run, configurations } = startRun(lifecycle, input, options);
  const outputs = new BucketOutputs(run);
  lifecycle.closeAtEnd(() => outputs.close());
  for (const configuration of configurations) await runConfiguration(configuration, run, outputs);
  await outputs.finish(configurations);
  commit(run, lifecycle);
  return 0;
}

/**
 * The state, then the tables into `out/tables`, then the run's summary. The state goes first
 * because it is the step that fails (a full disk, `state.json` a directory): a failure there
 * leaves the tables unpublished, and a table move that fails after it takes the state back.
 * A test read writes no state.
 */
function commit(run: RunContext, lifecycle: Lifecycle): void {
  const { logger, staging, limits } = run;
  const stateText = RunState.encode(run.state.finish());
  const counts = staging.rowCounts();
  const state = limits === undefined ? RunState.publish(run.dataDir, stateText) : undefined;
  let how: 'rename' | 'copy';
  try {
    how = staging.commit();
  } catch (error) {
    state?.takeBack();
    throw error;
  }
  lifecycle.staging = undefined;
  if (how === 'copy') logger.debug('out/tables is on another file system than out/: the tables were copied into place.');
  if (limits !== undefined)
    logger.warning(
      `Test read (${describeLimits(limits)}): the tables hold a sample of the data, not all of it; out/state.json was not written.`,
    );
  logger.flushRepeats();
  const summary = run.stats.summary(counts, run.nowMs());
  logger.info(summary.message, summary.context);
  logger.info('Extractor finished successfully.');
}

function describeLimits(limits: RunLimits): string {
  const parts: string[] = [];
  if (limits.maxPages !== undefined) parts.push(`at most ${limits.maxPages} page(s) per job`);
  if (limits.maxRecords !== undefined) parts.push(`at most ${limits.maxRecords} record(s) per job`);
  return parts.join(', ');
}
