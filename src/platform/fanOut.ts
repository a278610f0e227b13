/**
 * `run --fan-out rows|iterations` (06 §7): creates the planned jobs with at most N creations in
 * flight (a create is never retried: a retried create can start a second job), waits for each on
 * its own `GET /jobs/{id}`, and reports one line per job and a summary. On Ctrl-C, or on the
 * first failure with --fail-fast, it stops creating and kills the jobs that have not finished.
 * Progress goes to stderr as it happens; the report goes to stdout, in plan order.
 */
import type { PlatformClient } from './client.ts';
import { isJobFinished } from './client.ts';
import { type CliContext, positiveInteger, required, seconds } from './cliContext.ts';
import { jobLine, resultMessage, succeeded } from './commandsJobs.ts';
import { PROGRAM } from './commandTable.ts';
import { getConfiguration } from './configurations.ts';
import { CommandLineUsageError } from './errors/CommandLineUsageError.ts';
import { planIterations, planRows, type PlannedJob } from './fanOutPlan.ts';
import type { JobRecord } from './types.ts';

interface Entry extends PlannedJob {
  job?: JobRecord;
  /** Why the job could not be created or followed. */
  failure?: string;
}

const NOT_WITH_FAN_OUT = ['row', 'config-data', 'parent-run-id', 'mode'] as const;

function checkOptions(ctx: CliContext): 'rows' | 'iterations' {
  const { values } = ctx;
  const by = values['fan-out'];
  if (by !== 'rows' && by !== 'iterations') throw new CommandLineUsageError(`--fan-out must be rows or iterations, not "${by}"`);
  for (const name of NOT_WITH_FAN_OUT)
    if (values[name] !== undefined)
      throw new CommandLineUsageError(`--${name} does not go with --fan-out (the plan sets each job's rows or data)`);
  if (values.native && by !== 'rows') throw new CommandLineUsageError('--native goes with --fan-out rows');
  if (values.slices !== undefined && by !== 'iterations' && !values.native)
    throw new CommandLineUsageError('--slices goes with --fan-out iterations (or rows --native)');
  return by;
}

/** Plan, limits, creation, waiting, report. */
export async function runFanOut(ctx: CliContext): Promise<number> {
  const by = checkOptions(ctx);
  const { values } = ctx;
  const client = ctx.client();
  const component = required(values.component, 'component');
  const config = required(values.config, 'config');
  const record = await getConfiguration(client, { component, configId: config, ...(values.branch ? { branch: values.branch } : {}) });
  const request = { component, record, force: values.force === true, ...(values.branch ? { branch: values.branch } : {}) };
  const slices = positiveInteger(values.slices, 'slices', by === 'iterations' ? 4 : (record.rows ?? []).length || 1);
  const plan =
    by === 'iterations' ? planIterations(request, slices) : planRows(request, values.native ? { parallelism: String(slices) } : undefined);
  await printLimits(ctx, client, plan.length);
  const stop = new AbortController();
  const onInterrupt = () => stop.abort('interrupted');
  ctx.interrupt?.addEventListener('abort', onInterrupt);
  try {
    const entries: Entry[] = plan.map((p) => ({ ...p }));
    await createAndWait(ctx, client, entries, stop);
    if (stop.signal.aborted) await killUnfinished(ctx, client, entries, String(stop.signal.reason));
    return report(ctx, entries, stop.signal.aborted ? String(stop.signal.reason) : undefined);
  } finally {
    ctx.interrupt?.removeEventListener('abort', onInterrupt);
  }
}

/** The platform limits that apply to this many jobs (06 §7), printed before anything starts. */
async function printLimits(ctx: CliContext, client: PlatformClient, jobs: number): Promise<void> {
  const { jobsParallelism } = await client.verifyToken();
  const limit = jobsParallelism ?? 10;
  ctx.err(
    `fan-out: ${jobs} job${jobs === 1 ? '' : 's'}; the project runs at most ${limit} jobs at once${jobs > limit ? ` (${jobs - limit} will wait in the queue)` : ''}`,
  );
  if (jobs > 1)
    ctx.err(
      'note: the queue may run jobs of one configuration one at a time (its configuration lock is undocumented); if they stay "waiting", that is why',
    );
}

/** A pause that ends early when the fan-out stops. */
function stoppable(ctx: CliContext, signal: AbortSignal): (ms: number) => Promise<void> {
  return (ms) =>
    new Promise<void>((resolve) => {
      if (signal.aborted) return resolve();
      const done = () => {
        signal.removeEventListener('abort', done);
        resolve();
      };
      signal.addEventListener('abort', done);
      void ctx.sleep(ms).then(done);
    });
}

async function createAndWait(ctx: CliContext, client: PlatformClient, entries: Entry[], stop: AbortController): Promise<void> {
  const concurrency = positiveInteger(ctx.values.concurrency, 'concurrency', 4);
  const timeoutMs = seconds(ctx.values.timeout);
  const waits: Promise<void>[] = [];
  let next = 0;
  let createFailed = false;
  const wait = async (entry: Entry): Promise<void> => {
    try {
      entry.job = await client.pollJob(entry.job!, {
        sleep: stoppable(ctx, stop.signal),
        intervalMs: ctx.pollIntervalMs,
        signal: stop.signal,
        ...(timeoutMs !== undefined ? { timeoutMs } : {}),
      });
    } catch (e) {
      entry.failure = (e as Error).message;
    }
    if (entry.job && isJobFinished(entry.job)) ctx.err(`finished ${entry.label}: ${jobLine(entry.job)}`);
    if ((entry.failure || (entry.job && isJobFinished(entry.job) && !succeeded(entry.job))) && ctx.values['fail-fast'])
      stop.abort('fail-fast');
  };
  const worker = async (): Promise<void> => {
    while (!stop.signal.aborted && !createFailed && next < entries.length) {
      const entry = entries[next++]!;
      try {
        entry.job = await client.createJob(entry.args);
      } catch (e) {
        // Never retried, and nothing more is created: the report shows what was.
        entry.failure = `not created: ${(e as Error).message}`;
        createFailed = true;
        continue;
      }
      ctx.err(`created ${entry.label}: job ${entry.job.id}`);
      waits.push(wait(entry));
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, entries.length) }, worker));
  await Promise.all(waits);
}

/** Kills every created job that has not finished, then waits for each to end (cancelled or terminated). */
async function killUnfinished(ctx: CliContext, client: PlatformClient, entries: Entry[], reason: string): Promise<void> {
  const running = entries.filter((e) => e.job && !isJobFinished(e.job));
  if (running.length > 0)
    ctx.err(
      `${reason === 'interrupted' ? 'interrupted' : 'a job failed (--fail-fast)'}: killing ${running.length} unfinished job${running.length === 1 ? '' : 's'}`,
    );
  await Promise.all(
    running.map(async (entry) => {
      try {
        // Read first: a job that finished meanwhile is not sent a kill (that answer is undocumented, 06 §8).
        entry.job = await client.getJob(entry.job!.id);
        if (isJobFinished(entry.job)) return;
        await client.killJob(entry.job.id).catch(async (e: unknown) => {
          // It may have finished between the read and the kill: then its own ending is the answer.
          if (!isJobFinished(await client.getJob(entry.job!.id))) throw e;
        });
        entry.job = await client.waitForJob(entry.job.id, { intervalMs: ctx.pollIntervalMs });
      } catch (e) {
        entry.failure = `kill failed: ${(e as Error).message}`;
      }
    }),
  );
}

function reportLine(entry: Entry, width: number): string {
  const job = entry.job;
  const duration = typeof job?.['durationSeconds'] === 'number' ? `${job['durationSeconds']} s` : '-';
  const message = entry.failure ?? (job ? (resultMessage(job) ?? '') : '');
  return [
    entry.label.padEnd(width),
    job ? `job ${job.id}` : 'no job',
    (job?.status ?? 'not created').padEnd(10),
    duration.padStart(7),
    message,
  ]
    .join('  ')
    .trimEnd();
}

function report(ctx: CliContext, entries: Entry[], stoppedBy: string | undefined): number {
  const width = Math.max(...entries.map((e) => e.label.length));
  const created = entries.filter((e) => e.job || e.failure);
  for (const entry of created) ctx.out(reportLine(entry, width));
  const counts = new Map<string, number>();
  for (const e of created) {
    const status = e.job?.status ?? 'not created';
    counts.set(status, (counts.get(status) ?? 0) + 1);
  }
  const skipped = entries.length - created.length;
  ctx.out(
    `${created.length} job${created.length === 1 ? '' : 's'}: ${[...counts].map(([s, n]) => `${n} ${s}`).join(', ')}${skipped ? `; ${skipped} not started` : ''}`,
  );
  const failed = entries.filter((e) => e.failure || !e.job || !succeeded(e.job));
  if (failed.length === 0) return 0;
  const first = failed.find((e) => e.job || e.failure) ?? failed[0]!;
  const what = first.job ? `job ${first.job.id} ${first.job.status}` : 'not started';
  const why = first.failure ?? (first.job ? resultMessage(first.job) : undefined);
  const intro = stoppedBy === 'interrupted' ? 'interrupted; ' : '';
  ctx.err(
    `${PROGRAM}: ${intro}${failed.length} of ${entries.length} job${entries.length === 1 ? '' : 's'} did not succeed, first ${first.label}: ${what}${why ? `: ${why}` : ''}`,
  );
  return 1;
}
