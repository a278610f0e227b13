/**
 * Pages fetched ahead (opt-in `prefetch: N`, per job or in `api.pagination`; docs/rate-limits.md,
 * "Pages fetched ahead"). With offset and pagenum pagination the next requests are known before the
 * current page is in, if the pages stay full: while page p is fetched and processed, pages
 * p+1 … p+N are requested. Nothing else changes: the scroller still computes each next request
 * after the page (its stop conditions decide), and a page fetched ahead is used only when it is
 * exactly that request; otherwise, and for every page past the end, it is dropped unparsed.
 *
 * A page fetched ahead is tried once: an answer that would be retried (429, 5xx, a network
 * error) is dropped and the page is sent again at its turn, with the usual retries. Its log
 * lines are held and written at its turn, so a run reads like a sequential one.
 */
import { CurlError } from '../errors/CurlError.ts';
import { UserError } from '../errors/UserError.ts';
import type { ClientResponse, HttpClient } from '../http/client.ts';
import type { PreparedRequest } from '../http/prepared.ts';
import { shouldRetry } from '../http/retry.ts';
import { sameValue } from '../php/equality.ts';
import { member, type PhpArray, PhpFloat, type Value } from '../php/value.ts';
import type { Logger } from '../logging/logger.ts';
import { prefetchOption } from '../pagination/index.ts';
import { MAX_CONCURRENCY } from './concurrency.ts';
import { DeferredLogger } from './deferredLogger.ts';

/** `prefetch` of the job (`own`, as configured), else of `api.pagination`; 0 = off. */
export function prefetchCount(own: Value | undefined, pagination: Value | undefined, jobPath: string): number {
  const [value, path] =
    own !== undefined && own !== null
      ? [own, `${jobPath}.prefetch`]
      : [member(pagination, 'prefetch'), 'parameters.api.pagination.prefetch'];
  if (value === undefined || value === null) return prefetchOption.default;
  const n = typeof value === 'number' ? value : typeof value === 'bigint' ? Number(value) : value instanceof PhpFloat ? value.value : NaN;
  if (!Number.isInteger(n) || n < 0) {
    throw new UserError("The 'prefetch' option must be a whole number of pages, 0 or more.", { configPath: path });
  }
  return Math.min(n, MAX_CONCURRENCY);
}

type Outcome = { ok: true; response: ClientResponse } | { ok: false; error: unknown };

interface Ahead {
  description: PhpArray;
  logs: DeferredLogger;
  outcome: Promise<Outcome>;
  stop: AbortController;
}

export interface PageSource {
  /** The request `ahead` pages after the current one, or null (scroller.peek). */
  peek: (ahead: number) => PhpArray | null;
  build: (description: PhpArray) => PreparedRequest;
  /** Sequential position of page `page` of the instance. */
  order: (page: number) => readonly number[];
  /** Pages an instance may fetch at most (a test read, --max-pages): nothing is requested beyond. */
  maxPages?: number;
}

/** The pages of one job instance requested ahead of their turn. */
export class PagesAhead {
  private readonly client: HttpClient;
  private readonly logger: Logger;
  private readonly count: number;
  private readonly source: PageSource;
  /** Page number → the request sent for it. */
  private readonly pages = new Map<number, Ahead>();

  constructor(client: HttpClient, logger: Logger, count: number, source: PageSource) {
    this.client = client;
    this.logger = logger;
    this.count = count;
    this.source = source;
  }

  /** Page `current` was just requested: request the next `count` pages not yet requested. */
  fill(current: number): void {
    for (let k = 1; k <= this.count; k++) {
      const page = current + k;
      if (this.source.maxPages !== undefined && page >= this.source.maxPages) return;
      if (this.pages.has(page)) continue;
      let description: PhpArray | null;
      let prepared: PreparedRequest;
      try {
        description = this.source.peek(k);
        if (description === null) return;
        prepared = this.source.build(description);
      } catch {
        return; // the real request fails the same way at its turn
      }
      const logs = new DeferredLogger(this.logger);
      const stop = new AbortController();
      const outcome = this.client
        .send(prepared, true, { logger: logs, order: this.source.order(page), signal: stop.signal, retry: false })
        .then(
          (response): Outcome => ({ ok: true, response }),
          (error: unknown): Outcome => ({ ok: false, error }),
        );
      this.pages.set(page, { description, logs, outcome, stop });
    }
  }

  /**
   * The answer to page `page` if it was requested ahead as exactly `description` and needs no
   * retry; undefined otherwise (the caller sends it). A mismatch drops every page ahead.
   */
  async take(page: number, description: PhpArray): Promise<ClientResponse | undefined> {
    const ahead = this.pages.get(page);
    if (ahead === undefined) return undefined;
    this.pages.delete(page);
    if (!sameValue(ahead.description, description)) {
      this.discard();
      return undefined;
    }
    const outcome = await ahead.outcome;
    const policy = this.client.options.retry;
    const retriable = outcome.ok
      ? shouldRetry(policy, 0, { status: outcome.response.status, headers: outcome.response.headers })
      : outcome.error instanceof CurlError && shouldRetry(policy, 0, { curlCode: outcome.error.curlCode });
    if (retriable) return undefined;
    ahead.logs.replay();
    if (!outcome.ok) throw outcome.error;
    return outcome.response;
  }

  /** The job instance ended: pages still ahead are dropped (not yet sent: never sent). Returns how many. */
  discard(): number {
    const n = this.pages.size;
    for (const ahead of this.pages.values()) ahead.stop.abort();
    this.pages.clear();
    return n;
  }
}
