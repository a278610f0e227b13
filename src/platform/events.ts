/** Storage events of a job: its log lines (06 §6). */
import type { PlatformClient } from './client.ts';
import { isObject, oneLine } from './transport.ts';
import type { EventRecord } from './types.ts';

export interface EventQuery {
  /** Only events after this one (`sinceId`), for tailing. */
  sinceId?: string;
  /** Default 100 (the API's default), at most 10000. */
  limit?: number;
}

/**
 * `GET {storage}/v2/storage/events?runId=⟨job id⟩&sortOrder=asc`: the job's events, oldest first
 * (`runId` matches the job id, 06 §6), after `sinceId` when given.
 */
export async function jobEvents(client: PlatformClient, jobId: string, query: EventQuery = {}): Promise<EventRecord[]> {
  const params = new URLSearchParams({ runId: jobId, sortOrder: 'asc', limit: String(query.limit ?? 100) });
  if (query.sinceId !== undefined) params.set('sinceId', query.sinceId);
  const url = client.storageApiUrl(`/events?${params}`);
  const data = await client.request('GET', url, { service: 'Storage API', withToken: true, retry: true });
  if (!Array.isArray(data) || !data.every((e) => isObject(e) && typeof e['uuid'] === 'string'))
    throw client.unexpected('Storage API', 'GET', url, data, 'not a list of events');
  return data as EventRecord[];
}

/** Every event of the job after `sinceId`, page by page. */
export async function allJobEvents(client: PlatformClient, jobId: string, sinceId?: string): Promise<EventRecord[]> {
  const events: EventRecord[] = [];
  let after = sinceId;
  for (;;) {
    const page = await jobEvents(client, jobId, { ...(after !== undefined ? { sinceId: after } : {}), limit: 1000 });
    events.push(...page);
    if (page.length < 1000) return events;
    after = page.at(-1)!.uuid;
  }
}

/** One event as a log line: `2024-05-01T10:00:01+00:00 info  message`. */
export function eventLine(event: EventRecord): string {
  return `${event.created} ${event.type.padEnd(7)} ${oneLine(String(event.message), 2000)}`;
}
