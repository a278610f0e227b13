/**
 * The configured budget (`api.http.rateLimit`): at most N requests in any window of W ms, per
 * host, counted when a request is sent. A sliding log of send times (not a token bucket, which
 * lets twice its rate through a window that starts with a full bucket) makes "never more than
 * N per window" hold for every window, wherever it starts; a small margin absorbs the jitter
 * between our clock and the server's (the server counts arrivals, not sends).
 */
export interface BudgetOptions {
  requestsPerSecond?: number;
  requestsPerMinute?: number;
}

/** Extra wait per window, for the jitter between sending and the server's arrival clock. */
const MARGIN_FRACTION = 0.02;
const MIN_MARGIN_MS = 10;

export class SlidingWindow {
  readonly count: number;
  readonly windowMs: number;
  private readonly margin: number;
  /** Send times of the last `count` requests, a ring. */
  private readonly times: number[] = [];
  private next = 0;

  /** `rate` requests per `periodMs` (a fraction allowed: 0.5 per second = 1 per 2 s). */
  constructor(rate: number, periodMs: number) {
    this.count = Math.max(1, Math.floor(rate));
    this.windowMs = (periodMs * this.count) / rate;
    this.margin = Math.max(MIN_MARGIN_MS, this.windowMs * MARGIN_FRACTION);
  }

  /** Earliest time (ms) the next request may be sent. */
  earliest(now: number): number {
    if (this.times.length < this.count) return now;
    return Math.max(now, this.times[this.next]! + this.windowMs + this.margin);
  }

  record(at: number): void {
    if (this.times.length < this.count) this.times.push(at);
    else this.times[this.next] = at;
    this.next = (this.next + 1) % this.count;
  }

  describe(): string {
    return this.windowMs === 1000
      ? `${this.count}/s`
      : this.windowMs === 60_000
        ? `${this.count}/min`
        : `${this.count} per ${this.windowMs} ms`;
  }
}

/** The windows a configured budget enforces, all at once. */
export class ConfiguredBudget {
  private readonly windows: SlidingWindow[];

  constructor(options: BudgetOptions) {
    this.windows = [];
    if (options.requestsPerSecond !== undefined) this.windows.push(new SlidingWindow(options.requestsPerSecond, 1000));
    if (options.requestsPerMinute !== undefined) this.windows.push(new SlidingWindow(options.requestsPerMinute, 60_000));
  }

  get empty(): boolean {
    return this.windows.length === 0;
  }

  earliest(now: number): number {
    let at = now;
    for (const w of this.windows) at = Math.max(at, w.earliest(now));
    return at;
  }

  record(at: number): void {
    for (const w of this.windows) w.record(at);
  }

  describe(): string {
    return this.windows.map((w) => w.describe()).join(' and ');
  }
}
