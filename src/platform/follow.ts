/** Waiting for a job while printing its log lines as they come (06 §5.5 polling, 06 §6 tailing). */
import type { PlatformClient } from './client.ts';
import { isJobFinished } from './client.ts';
import { allJobEvents, eventLine } from './events.ts';
import { JobWaitTimeoutError } from './JobWaitTimeoutError.ts';
import type { JobRecord } from './types.ts';

export interface FollowOptions {
  /** Print the job's events (log lines) as they appear. */
  printLine?: (line: string) => void;
  /** Called when the job's status changes. */
  onStatus?: (job: JobRecord) => void;
  sleep: (ms: number) => Promise<void>;
  /** First pause (doubles each time, at most `maxIntervalMs`). */
  intervalMs: number;
  /** Longest pause: 5 s while printing log lines (a log should not lag), 10 s otherwise (01 §5.6). */
  maxIntervalMs?: number;
  timeoutMs?: number;
  nowMs?: () => number;
  /** Stop early (Ctrl-C): returns the last record read. */
  signal?: AbortSignal;
}

/**
 * Polls `GET /jobs/{id}` until the job is final. The events are read after each job read, so the
 * lines written before the job finished are all printed before this returns.
 */
export async function followJob(client: PlatformClient, first: JobRecord, options: FollowOptions): Promise<JobRecord> {
  const now = options.nowMs ?? Date.now;
  const deadline = options.timeoutMs === undefined ? undefined : now() + options.timeoutMs;
  let interval = options.intervalMs;
  const maxInterval = Math.max(interval, options.maxIntervalMs ?? (options.printLine ? 5000 : 10_000));
  let lastEvent: string | undefined;
  let job = first;
  for (;;) {
    if (options.printLine) {
      const events = await allJobEvents(client, job.id, lastEvent);
      for (const event of events) options.printLine(eventLine(event));
      lastEvent = events.at(-1)?.uuid ?? lastEvent;
    }
    if (isJobFinished(job) || options.signal?.aborted) return job;
    let pause = interval;
    if (deadline !== undefined) {
      const remaining = deadline - now();
      if (remaining <= 0) throw new JobWaitTimeoutError(job, options.timeoutMs!);
      pause = Math.min(pause, remaining);
    }
    await options.sleep(pause);
    interval = Math.min(interval * 2, maxInterval);
    const next = await client.getJob(job.id);
    if (next.status !== job.status) options.onStatus?.(next);
    job = next;
  }
}
