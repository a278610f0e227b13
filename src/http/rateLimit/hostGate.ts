/**
 * The gate of one host (scheme, host, port): every attempt to it passes here. It hands out
 * permits earliest sequential position first (the job runner's order, so requests sent ahead
 * never delay the ones a sequential run would send first), keeps at most the adaptive
 * concurrency on the wire (aimd.ts), and spaces permits by the configured budget (budget.ts)
 * and the API's own signals (signalPacer.ts). Login requests pass without a concurrency slot
 * (the attempt waiting for the login holds one) but are paced like any other.
 */
import { Aimd } from './aimd.ts';
import type { ConfiguredBudget } from './budget.ts';
import type { Clock } from './clock.ts';
import { SignalPacer } from './signalPacer.ts';
import { readSignals, type Headers } from './signals.ts';

export interface AcquireOptions {
  /** Position in the sequential order (lexicographic; a prefix comes first). */
  order: readonly number[];
  /** Takes a concurrency slot (false: login requests). */
  slot: boolean;
  /** Aborted before the permit: the wait is dropped and the promise rejects. */
  signal?: AbortSignal | undefined;
}

/** The answer to an attempt: status and headers, or nothing (a network error). */
export type AttemptOutcome = { status: number; headers: Headers } | undefined;

export interface Permit {
  /** Call exactly once, when the attempt's answer (or failure) is in. */
  done(outcome: AttemptOutcome): void;
}

export interface HostStats {
  requests: number;
  tooMany: number;
  /** Requests that waited for the budget or the API's signals. */
  paced: number;
  firstAt: number | undefined;
  lastAt: number | undefined;
  concurrencyCuts: number;
  concurrency: number;
}

interface Waiter {
  order: readonly number[];
  slot: boolean;
  grant: (permit: Permit) => void;
  fail: (reason: unknown) => void;
  /** Held back by the budget or the API's signals at least once. */
  paced: boolean;
  /** Detaches the abort listener. */
  detach: () => void;
}

export function compareOrder(a: readonly number[], b: readonly number[]): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return a.length - b.length;
}

export interface HostGateOptions {
  /** The host as shown in log lines. */
  name: string;
  concurrency: number;
  budget?: ConfiguredBudget | undefined;
  /** Pace by the API's RateLimit headers and Retry-After (default true). */
  followSignals: boolean;
  clock: Clock;
  /** Time the run's sleeps vouch for (RateLimiter.sleep), shared by the gates of a client. */
  slept?: { until: number };
  /** INFO lines: pacing engaged, concurrency cut. */
  notify: (message: string) => void;
}

export class HostGate {
  private readonly options: HostGateOptions;
  private readonly aimd: Aimd;
  private readonly pacer = new SignalPacer();
  private readonly waiting: Waiter[] = [];
  private active = 0;
  private timerAt = Infinity;
  /** Time a fired timer vouches for (a test clock may fire before it moved). */
  private passed = -Infinity;
  private cancelTimer: (() => void) | undefined;
  private budgetNoticed = false;
  private signalNoticed = false;
  readonly stats: HostStats;

  constructor(options: HostGateOptions) {
    this.options = options;
    this.aimd = new Aimd(options.concurrency);
    this.stats = {
      requests: 0,
      tooMany: 0,
      paced: 0,
      firstAt: undefined,
      lastAt: undefined,
      concurrencyCuts: 0,
      concurrency: this.aimd.limit,
    };
  }

  acquire(options: AcquireOptions): Promise<Permit> {
    options.signal?.throwIfAborted();
    return new Promise<Permit>((grant, fail) => {
      const waiter: Waiter = { order: options.order, slot: options.slot, grant, fail, paced: false, detach: () => {} };
      const signal = options.signal;
      if (signal) {
        const onAbort = (): void => {
          const i = this.waiting.indexOf(waiter);
          if (i >= 0) this.waiting.splice(i, 1);
          fail(signal.reason);
          this.pump();
        };
        signal.addEventListener('abort', onAbort, { once: true });
        waiter.detach = () => signal.removeEventListener('abort', onAbort);
      }
      this.waiting.push(waiter);
      this.pump();
    });
  }

  /** The earliest eligible waiter: a login always, a slot-taker while the window has room. */
  private best(): number {
    let best = -1;
    const room = this.active < this.aimd.limit;
    for (let i = 0; i < this.waiting.length; i++) {
      const w = this.waiting[i]!;
      if (w.slot && !room) continue;
      if (best < 0 || compareOrder(w.order, this.waiting[best]!.order) < 0) best = i;
    }
    return best;
  }

  private pump(): void {
    for (;;) {
      const index = this.best();
      if (index < 0) {
        // Nobody waits (e.g. the waits were aborted): no timer may keep the process alive.
        if (this.waiting.length === 0) this.sleep();
        return;
      }
      const now = this.now();
      const budgetAt = this.options.budget?.earliest(now) ?? now;
      const signalAt = this.options.followSignals ? this.pacer.earliest(now) : now;
      const at = Math.max(budgetAt, signalAt);
      if (at > now) {
        this.waiting[index]!.paced = true;
        this.noticePacing(budgetAt > now, signalAt > now);
        this.wake(at);
        return;
      }
      const [waiter] = this.waiting.splice(index, 1);
      waiter!.detach();
      if (waiter!.slot) this.active++;
      this.options.budget?.record(now);
      const seq = this.pacer.onSend(now, this.options.followSignals && this.pacer.paced(now));
      if (waiter!.paced) this.stats.paced++;
      this.stats.requests++;
      this.stats.firstAt ??= now;
      waiter!.grant(this.permit(seq, waiter!.slot));
    }
  }

  private sleep(): void {
    this.cancelTimer?.();
    this.cancelTimer = undefined;
    this.timerAt = Infinity;
  }

  private wake(at: number): void {
    if (at >= this.timerAt) return;
    this.cancelTimer?.();
    this.timerAt = at;
    this.cancelTimer = this.options.clock.timer(() => {
      this.passed = Math.max(this.passed, at);
      this.timerAt = Infinity;
      this.cancelTimer = undefined;
      this.pump();
    }, at - this.now());
  }

  private now(): number {
    return Math.max(this.options.clock.now(), this.passed, this.options.slept?.until ?? -Infinity);
  }

  private permit(seq: number, slot: boolean): Permit {
    let open = true;
    return {
      done: (outcome) => {
        if (!open) return;
        open = false;
        if (slot) this.active--;
        this.answered(seq, outcome);
        this.pump();
      },
    };
  }

  private answered(seq: number, outcome: AttemptOutcome): void {
    const now = this.now();
    this.stats.lastAt = now;
    if (outcome === undefined) return;
    if (this.options.followSignals) {
      const signal = readSignals(outcome.status, outcome.headers, now);
      if (signal !== undefined) this.pacer.observe(seq, signal, now);
    }
    if (outcome.status === 429) {
      this.stats.tooMany++;
      const before = this.aimd.limit;
      if (this.aimd.congestion(seq, this.stats.requests)) this.stats.concurrencyCuts++;
      if (this.stats.tooMany === 1) {
        const after = this.aimd.limit;
        this.options.notify(
          after < before
            ? `Rate limit: ${this.options.name} answered 429 Too Many Requests; requests on the wire cut from ${before} to ${after}, growing back by one per round of successful answers.`
            : `Rate limit: ${this.options.name} answered 429 Too Many Requests.`,
        );
      }
    } else if (outcome.status < 500) {
      this.aimd.success();
    }
    this.stats.concurrency = this.aimd.limit;
  }

  private noticePacing(byBudget: boolean, bySignals: boolean): void {
    if (byBudget && !this.budgetNoticed) {
      this.budgetNoticed = true;
      this.options.notify(
        `Rate limit: pacing requests to ${this.options.name} at the configured budget (${this.options.budget!.describe()}).`,
      );
    }
    if (bySignals && !this.signalNoticed) {
      this.signalNoticed = true;
      const why = this.pacer.engagedWith;
      this.options.notify(
        why === undefined
          ? `Rate limit: ${this.options.name} asked to wait (Retry-After); holding its requests until then.`
          : `Rate limit: pacing requests to ${this.options.name} by its rate-limit headers (${why}).`,
      );
    }
  }
}
