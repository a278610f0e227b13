/** `run` (one job), `job`, `job log`, `job kill` and `jobs`: the queue, one job at a time (06 §5, §6). */
import { isJobFinished } from './client.ts';
import type { CliContext } from './cliContext.ts';
import { jobId, positiveInteger, required, seconds } from './cliContext.ts';
import { PROGRAM } from './commandTable.ts';
import { CommandLineUsageError } from './errors/CommandLineUsageError.ts';
import { allJobEvents, eventLine } from './events.ts';
import { followJob } from './follow.ts';
import type { CreateJobArgs, JobMode, JobRecord, WaitOptions } from './types.ts';
import { isObject } from './transport.ts';

export function jobLine(job: JobRecord): string {
  return `job ${job.id}: ${job.status}${typeof job.url === 'string' && job.url !== '' ? ` ${job.url}` : ''}`;
}

/** `result.message` of a finished job, when it has one. */
export function resultMessage(job: JobRecord): string | undefined {
  const result = job['result'];
  const message = typeof result === 'object' && result !== null ? (result as Record<string, unknown>)['message'] : undefined;
  return typeof message === 'string' ? message.replace(/\s*\n\s*/g, ' ') : undefined;
}

export function succeeded(job: JobRecord): boolean {
  return job.status === 'success' || job.status === 'warning';
}

function jobArgs(ctx: CliContext): CreateJobArgs {
  const { values } = ctx;
  const mode = (values.mode ?? (values.force ? 'forceRun' : 'run')) as JobMode;
  if (!['run', 'forceRun', 'debug'].includes(mode)) throw new CommandLineUsageError(`--mode must be run, forceRun or debug, not "${mode}"`);
  const extra: Record<string, unknown> = {};
  if (values['config-data'] !== undefined) extra['configData'] = configDataOption(values['config-data']);
  if (values.row !== undefined) extra['configRowIds'] = values.row;
  if (values.branch !== undefined) extra['branchId'] = values.branch;
  if (values.tag !== undefined) extra['tag'] = values.tag;
  const args: CreateJobArgs = {
    component: required(values.component, 'component'),
    config: required(values.config, 'config'),
    mode,
    extra,
  };
  if (values['parent-run-id'] !== undefined) args.parentRunId = values['parent-run-id'];
  return args;
}

function configDataOption(text: string): Record<string, unknown> {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw new CommandLineUsageError('--config-data must be a JSON object');
  }
  if (!isObject(data)) throw new CommandLineUsageError('--config-data must be a JSON object');
  return data;
}

/** Waits for the job (printing its log lines in text mode), prints the final record; exit 0 only on success or warning. */
async function waitAndReport(ctx: CliContext, job: JobRecord, printLog: boolean): Promise<number> {
  const timeoutMs = seconds(ctx.values.timeout);
  const wait: WaitOptions = {
    intervalMs: ctx.pollIntervalMs,
    ...(timeoutMs !== undefined ? { timeoutMs } : {}),
    onStatus: (polled) => {
      if (!ctx.values.json && !isJobFinished(polled)) ctx.out(jobLine(polled));
    },
  };
  const client = ctx.client();
  const final =
    printLog && !ctx.values.json
      ? await followJob(client, job, { ...wait, printLine: (line) => ctx.out(`  ${line}`) })
      : await client.pollJob(job, wait);
  ctx.out(ctx.values.json ? JSON.stringify(final, null, 2) : jobLine(final));
  if (succeeded(final)) return 0;
  const message = resultMessage(final);
  ctx.err(`${PROGRAM}: job ${final.id} ended with status "${final.status}"${message ? `: ${message}` : ''}`);
  return 1;
}

export async function runOneJob(ctx: CliContext): Promise<number> {
  if (ctx.values.timeout !== undefined && !ctx.values.wait) throw new CommandLineUsageError('--timeout needs --wait');
  const job = await ctx.client().createJob(jobArgs(ctx));
  if (!ctx.values.wait) {
    ctx.out(ctx.values.json ? JSON.stringify(job, null, 2) : jobLine(job));
    return 0;
  }
  if (!ctx.values.json) ctx.out(jobLine(job));
  return waitAndReport(ctx, job, true);
}

export async function showJob(ctx: CliContext): Promise<number> {
  if (ctx.values.timeout !== undefined && !ctx.values.wait) throw new CommandLineUsageError('--timeout needs --wait');
  const job = await ctx.client().getJob(jobId(ctx));
  if (!ctx.values.wait || isJobFinished(job)) {
    ctx.out(ctx.values.json ? JSON.stringify(job, null, 2) : jobDetail(job));
    return isJobFinished(job) && !succeeded(job) ? 1 : 0;
  }
  if (!ctx.values.json) ctx.out(jobLine(job));
  return waitAndReport(ctx, job, false);
}

function jobDetail(job: JobRecord): string {
  const lines = [jobLine(job)];
  for (const key of ['component', 'config', 'mode', 'createdTime', 'startTime', 'endTime', 'durationSeconds']) {
    const value = job[key];
    if (value !== null && value !== undefined && value !== '') lines.push(`  ${key}: ${String(value)}`);
  }
  const message = resultMessage(job);
  if (message) lines.push(`  message: ${message}`);
  return lines.join('\n');
}

export async function jobLog(ctx: CliContext): Promise<number> {
  const client = ctx.client();
  const id = jobId(ctx);
  if (!ctx.values.follow) {
    const events = await allJobEvents(client, id);
    ctx.out(ctx.values.json ? JSON.stringify(events, null, 2) : events.map(eventLine).join('\n') || `job ${id}: no log lines yet`);
    return 0;
  }
  if (ctx.values.json) throw new CommandLineUsageError('--follow prints log lines: it does not go with --json');
  const final = await followJob(client, await client.getJob(id), {
    intervalMs: ctx.pollIntervalMs,
    printLine: (line) => ctx.out(line),
    ...(ctx.interrupt ? { signal: ctx.interrupt } : {}),
  });
  return isJobFinished(final) && !succeeded(final) ? 1 : 0;
}

/**
 * Reads the job first: a finished job is not sent a kill (the answer to that is undocumented,
 * 06 §8), and the user learns how it ended.
 */
export async function killJob(ctx: CliContext): Promise<number> {
  const client = ctx.client();
  const current = await client.getJob(jobId(ctx));
  if (isJobFinished(current)) {
    ctx.out(ctx.values.json ? JSON.stringify(current, null, 2) : `${jobLine(current)} (already finished: nothing to kill)`);
    return 0;
  }
  const killed = await client.killJob(current.id);
  ctx.out(
    ctx.values.json
      ? JSON.stringify(killed, null, 2)
      : `job ${killed.id}: kill requested (${String(killed['desiredStatus'] ?? killed.status)})`,
  );
  return 0;
}

export async function listJobs(ctx: CliContext): Promise<number> {
  const { values } = ctx;
  const jobs = await ctx.client().searchJobs({
    ...(values.component !== undefined ? { componentId: values.component } : {}),
    ...(values.config !== undefined ? { configId: values.config } : {}),
    ...(values.status !== undefined ? { status: values.status } : {}),
    limit: positiveInteger(values.limit, 'limit', 20),
  });
  if (values.json) ctx.out(JSON.stringify(jobs, null, 2));
  else if (jobs.length === 0) ctx.out('no jobs');
  else for (const job of jobs) ctx.out(listLine(job));
  return 0;
}

function listLine(job: JobRecord): string {
  const duration = typeof job['durationSeconds'] === 'number' ? `${job['durationSeconds']} s` : '-';
  return [
    job.id,
    job.status.padEnd(11),
    String(job['component'] ?? ''),
    String(job['config'] ?? '-'),
    String(job['createdTime'] ?? ''),
    duration,
  ].join('\t');
}
