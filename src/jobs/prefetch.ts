/**
 * Sending ahead (docs/design.md "Concurrent requests, sequential effects"): while the runner takes the
 * child job instances of a page one at a time, the first requests of the next ones are already
 * sent. Nothing a prefetch produces (setup errors, log lines, the response or the error) is
 * observable before the instance's turn, so the run reads exactly as a sequential one.
 */
import type { ClientResponse, HttpClient } from '../http/client.ts';
import type { PreparedRequest } from '../http/prepared.ts';
import { sameValue } from '../php/equality.ts';
import { isEmpty, PhpArray, type Value } from '../php/value.ts';
import type { Logger } from '../logging/logger.ts';
import { DeferredLogger } from './deferredLogger.ts';

/** An upcoming child job instance, as much of it as sending its first request ahead needs. */
export interface Speculation<S> {
  /** What the instance computes once before its first request (may throw). */
  setup: () => S;
  /** Its first request, from a fresh scroller copy (the real one is shared by the record's combinations). */
  firstRequest: (setup: S) => PhpArray | null;
  /** The request as sent (may throw: the errors of the sequential run's buildRequest). */
  build: (description: PhpArray) => PreparedRequest;
  /** Position of the first request in the sequential order. */
  order: readonly number[];
  /** Not the first binding combination of its record (its scroller may carry state, §5.5). */
  later: boolean;
}

type Outcome = { ok: true; response: ClientResponse } | { ok: false; error: unknown };

type Kept<S> = { ok: true; value: S } | { ok: false; error: unknown };

/** What was sent ahead. */
type Sent =
  | {
      /** The speculated first request. */
      description: PhpArray;
      /** buildRequest failed for the speculated request. */
      buildError: { error: unknown };
    }
  | { description: PhpArray; logs: DeferredLogger; outcome: Promise<Outcome> };

/**
 * The first request of an upcoming child job instance, sent ahead of its turn. Everything it
 * produces (setup errors, log lines, the response or the error) is applied only at its turn.
 */
export class Prefetch<S> {
  private readonly kept: Kept<S>;
  /** Undefined when no request was sent. */
  private readonly sent: Sent | undefined;

  constructor(setup: Kept<S>, sent?: Sent) {
    this.kept = setup;
    this.sent = sent;
  }

  /** The instance's setup at its turn; a setup error is thrown now. */
  setup(): S {
    if (this.kept.ok) return this.kept.value;
    throw this.kept.error;
  }

  /** Whether `request` (the real first request, at the turn) is the one sent ahead. */
  sentAs(request: PhpArray | null): boolean {
    return this.sent !== undefined && request !== null && sameValue(this.sent.description, request);
  }

  /** The prefetched response at its turn: its log lines first, then the response or its error. */
  take(): Promise<ClientResponse> {
    // Not async: a build error is thrown at once, as the sequential run's buildRequest throws it.
    const sent = this.sent!;
    if ('buildError' in sent) throw sent.buildError.error;
    return arrival(sent);
  }
}

async function arrival(sent: { logs: DeferredLogger; outcome: Promise<Outcome> }): Promise<ClientResponse> {
  sent.logs.goLive();
  const outcome = await sent.outcome;
  if (!outcome.ok) throw outcome.error;
  return outcome.response;
}

type Queued<T, S> = { step: T; prefetch?: Prefetch<S> } | { error: unknown };

export class Prefetcher {
  private readonly client: HttpClient;
  private readonly logger: Logger;
  /** Child steps looked at ahead of the current one (0 = sequential, no prefetching). */
  private readonly lookahead: number;
  /** No pagination method: every first request is the job request, whatever the scroller went through. */
  private readonly statelessFirstRequests: boolean;
  /** Aborted when the run ends: prefetches not yet on the wire are dropped. */
  private readonly stop = new AbortController();

  /** `pagination` is the raw `parameters.api.pagination`. */
  constructor(client: HttpClient, logger: Logger, pagination: Value | undefined) {
    this.client = client;
    this.logger = logger;
    const limit = client.concurrency;
    // Twice the wire limit: responses waiting for their turn keep the wire busy meanwhile.
    this.lookahead = limit > 1 ? 2 * limit : 0;
    this.statelessFirstRequests = !(pagination instanceof PhpArray) || pagination.size === 0 || isEmpty(pagination.get('method'));
  }

  /** The run has ended: prefetches not yet on the wire are dropped. */
  end(): void {
    this.stop.abort();
  }

  /**
   * The steps in sequential order, each with its prefetch if one was started. With concurrency,
   * the steps ahead of the current one are generated early (errors met doing so are kept as a
   * step of their own, thrown at its turn) and the first requests of those `speculate` describes
   * are sent; the caller takes each step in turn.
   */
  *ahead<T, S>(
    steps: Iterator<T>,
    speculate: (step: T) => Speculation<S> | undefined,
  ): Generator<[step: T, prefetch: Prefetch<S> | undefined]> {
    const queue: Queued<T, S>[] = [];
    let done = false;
    const pull = (): boolean => {
      if (done) return false;
      try {
        const next = steps.next();
        if (next.done) {
          done = true;
          return false;
        }
        const step = next.value;
        const item: Queued<T, S> = { step };
        const speculation = this.lookahead > 0 ? speculate(step) : undefined;
        // A later binding combination of a record shares the scroller of the earlier ones and may
        // start from their leftover state (§5.5): its first request is known in advance only
        // without pagination. No request is ever sent that the sequential run would not send.
        if (speculation !== undefined && (!speculation.later || this.statelessFirstRequests)) item.prefetch = this.start(speculation);
        queue.push(item);
      } catch (error) {
        done = true;
        queue.push({ error });
      }
      return true;
    };
    for (;;) {
      while (queue.length <= this.lookahead && pull());
      const item = queue.shift();
      if (item === undefined) return;
      if ('error' in item) throw item.error;
      yield [item.step, item.prefetch];
    }
  }

  /**
   * Sends the first request of an upcoming child instance. Nothing observable happens here:
   * errors are kept for the instance's turn, log lines go to a deferred logger.
   */
  private start<S>(speculation: Speculation<S>): Prefetch<S> {
    let setup: S;
    try {
      setup = speculation.setup();
    } catch (error) {
      return new Prefetch<S>({ ok: false, error });
    }
    const kept: Kept<S> = { ok: true, value: setup };
    let description: PhpArray | null;
    try {
      description = speculation.firstRequest(setup);
    } catch {
      return new Prefetch(kept); // the real scroller will fail the same way at the turn
    }
    if (description === null) return new Prefetch(kept);
    let prepared: PreparedRequest;
    try {
      prepared = speculation.build(description);
    } catch (error) {
      return new Prefetch(kept, { description, buildError: { error } });
    }
    const logs = new DeferredLogger(this.logger);
    const outcome = this.client.send(prepared, true, { logger: logs, order: speculation.order, signal: this.stop.signal }).then(
      (response): Outcome => ({ ok: true, response }),
      (error: unknown): Outcome => ({ ok: false, error }),
    );
    return new Prefetch(kept, { description, logs, outcome });
  }
}
