/** Waiting for a job while printing its log lines as they come (06 §5.5 polling, 06 §6 tailing). */
import type { PlatformClient } from './client.ts';
import { allJobEvents, eventLine } from './events.ts';
import type { JobRecord, WaitOptions } from './types.ts';

export interface FollowOptions extends Omit<WaitOptions, 'onPoll'> {
  /** Print the job's events (log lines) as they appear. */
  printLine: (line: string) => void;
}

/**
 * The client's polling loop (`pollJob`) reading the job's new events after each read of the job,
 * so the lines written before the job finished are all printed before this returns. The longest
 * pause is 5 s by default (a log should not lag; 10 s otherwise, 01 §5.6).
 */
export function followJob(client: PlatformClient, first: JobRecord, options: FollowOptions): Promise<JobRecord> {
  const { printLine, ...wait } = options;
  let lastEvent: string | undefined;
  return client.pollJob(first, {
    maxIntervalMs: 5000,
    ...wait,
    onPoll: async (job) => {
      const events = await allJobEvents(client, job.id, lastEvent);
      for (const event of events) printLine(eventLine(event));
      lastEvent = events.at(-1)?.uuid ?? lastEvent;
    },
  });
}
