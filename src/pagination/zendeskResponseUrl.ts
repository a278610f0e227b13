/**
 * `zendesk.response.url` pagination (spec 03 §5.3.8, undocumented in the reference): like
 * `response.url` (delimiter always `.`), but a link whose `start_time` query parameter lies
 * within the last 6 minutes is not followed.
 */
import { parseQueryRebuild } from '../php/guzzleQuery.ts';
import { phpParseUrl } from '../php/parseUrl.ts';
import { lookup } from '../php/pathLookup.ts';
import { phpString } from '../php/stringConversion.ts';
import { isEmpty, type Value } from '../php/value.ts';
import type { Logger } from '../logging/logger.ts';
import { OptionReader } from './options.ts';
import { registerPaginationMethod } from './registry.ts';
import { followLink, LINK_OPTIONS, responseUrlOptions, type ResponseUrlOptions } from './responseUrl.ts';
import { requestWithParams, type JobInstance, type Scroller } from './scroller.ts';

const NEXT_PAGE_FILTER_MS = 6 * 60 * 1000;

/** `Y-m-d H:i:s` in UTC. */
function formatTime(seconds: bigint): string {
  const d = new Date(Number(seconds) * 1000);
  return Number.isNaN(d.getTime()) ? String(seconds) : d.toISOString().slice(0, 19).replace('T', ' ');
}

function startTimeOf(link: string): bigint | null {
  const query = phpParseUrl(link, true)?.query;
  if (query === undefined || query === '') return null;
  const value = parseQueryRebuild(query).get('start_time');
  if (typeof value !== 'string' || !/^[+-]?\d+$/.test(value)) return null;
  return BigInt(value);
}

export class ZendeskResponseUrlScroller implements Scroller {
  private readonly options: ResponseUrlOptions;
  private readonly logger: Logger;
  private readonly nowMs: () => number;

  constructor(options: ResponseUrlOptions, logger: Logger, nowMs: () => number) {
    this.options = options;
    this.logger = logger;
    this.nowMs = nowMs;
  }

  firstRequest(job: JobInstance) {
    return requestWithParams(job, job.params);
  }

  nextRequest(job: JobInstance, response: Value) {
    const link = lookup(this.options.urlKey, response, '.');
    if (isEmpty(link)) {
      this.logger.info('No more pages to scroll.');
      return null;
    }
    const start = typeof link === 'string' || typeof link === 'number' ? startTimeOf(phpString(link)) : null;
    if (start !== null && Number(start) * 1000 > this.nowMs() - NEXT_PAGE_FILTER_MS) {
      this.logger.info(`Next page start_time "${formatTime(start)}" is too recent, skipping...`);
      return null;
    }
    return followLink(this.options, job, link);
  }

  reset(): void {}

  forChild(): Scroller {
    return new ZendeskResponseUrlScroller(this.options, this.logger, this.nowMs);
  }
}

registerPaginationMethod({
  method: 'zendesk.response.url',
  description:
    'Like response.url (delimiter always "."), but stops at a link whose start_time is less than 6 minutes ago (Zendesk incremental exports).',
  options: LINK_OPTIONS,
  example: {
    pagination: { method: 'zendesk.response.url', urlKey: 'next_page' },
    sends:
      '`incremental/tickets.json?start_time=0`, then the URL at `next_page` until it is empty, or until its `start_time` is less than 6 minutes ago.',
  },
  create: ({ config, logger, path, nowMs }) =>
    new ZendeskResponseUrlScroller(responseUrlOptions(new OptionReader(config, path), false), logger, nowMs),
});
