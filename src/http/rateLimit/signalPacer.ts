/**
 * Pacing from what the API says about its budget (signals.ts), with nothing configured.
 *
 * The latest statement (from the most recently *sent* request that carried one) gives the limit
 * L, the remaining budget R and the time to reset; every request sent after that one is counted
 * against R (some of them may already be in R: the count errs on the safe side). While more
 * than a reserve (20 % of L, at least 2) is left, requests go at once. Below it, requests are spaced:
 *
 * - with a known window W (RateLimit-Policy `w`), at the policy's rate L/W, stretched up to
 *   twice as the remaining budget falls towards zero (so a budget that refills, like a token
 *   bucket, settles near the reserve instead of running dry);
 * - without one, the remaining budget is spread evenly over the time left to the reset, and
 *   once it is spent nothing is sent before the reset.
 *
 * A 429 or 503 with Retry-After holds the host until then.
 */
import type { RateSignal } from './signals.ts';

const RESERVE_FRACTION = 0.2;

/** Budget kept back: a fifth of the limit, at least 2 (jitter between our count and the server's). */
function reserveOf(limit: number): number {
  return Math.max(2, Math.ceil(limit * RESERVE_FRACTION));
}
/** The longest an API's statement may hold a host (a Retry-After or reset of days is a mistake, not a plan). */
export const MAX_HOLD_MS = 3600_000;

interface Statement {
  limit: number;
  remaining: number;
  /** Absolute ms of the reset, when known. */
  resetAt: number | undefined;
  windowMs: number | undefined;
  /** Send sequence number of the request whose answer said it. */
  seq: number;
}

export class SignalPacer {
  private statement: Statement | undefined;
  /** Requests sent so far (the sequence number of the last one). */
  private sent = 0;
  /** Earliest time of the next paced request. */
  private nextAt = 0;
  /** Nothing before this time (Retry-After). */
  private blockedUntil = 0;
  /** When pacing first slowed a request down (for the INFO line), and the budget it read. */
  engagedWith: string | undefined;

  /** A request is going out now; returns its sequence number. */
  onSend(now: number, paced: boolean): number {
    if (paced) this.nextAt = Math.max(this.nextAt, now) + this.interval(now);
    return ++this.sent;
  }

  /** The answer to request `seq` carried `signal`. */
  observe(seq: number, signal: RateSignal, now: number): void {
    if (signal.retryAfterMs !== undefined)
      this.blockedUntil = Math.max(this.blockedUntil, now + Math.min(signal.retryAfterMs, MAX_HOLD_MS));
    if (signal.limit === undefined || signal.remaining === undefined) return;
    if (this.statement !== undefined && seq < this.statement.seq) return; // an older statement arriving late
    this.statement = {
      limit: Math.max(1, signal.limit),
      remaining: signal.remaining,
      resetAt: signal.resetMs === undefined ? undefined : now + Math.min(signal.resetMs, MAX_HOLD_MS),
      windowMs: signal.windowMs ?? this.statement?.windowMs,
      seq,
    };
  }

  /** Budget left by the latest statement, requests sent since counted against it. */
  private available(): number {
    const s = this.statement!;
    return s.remaining - (this.sent - s.seq);
  }

  /**
   * Past the stated reset the window starts afresh: the full limit, counted from the requests
   * sent from now on (not unlimited: the burst after a reset must not overrun the new window).
   */
  private roll(now: number): void {
    const s = this.statement;
    if (s === undefined || s.resetAt === undefined || now < s.resetAt) return;
    this.statement = {
      ...s,
      remaining: s.limit,
      resetAt: s.windowMs === undefined ? undefined : s.resetAt + s.windowMs,
      seq: this.sent,
    };
  }

  /** Whether the next request is below the reserve (and so spaced). */
  private low(now: number): boolean {
    this.roll(now);
    const s = this.statement;
    if (s === undefined) return false;
    return this.available() <= reserveOf(s.limit);
  }

  /** Spacing of paced requests at `now`. */
  private interval(now: number): number {
    const s = this.statement;
    if (s === undefined || !this.low(now)) return 0;
    const reserve = reserveOf(s.limit);
    const available = this.available();
    if (s.windowMs !== undefined) {
      // Stretch from ×1 at the reserve to ×2 at none left.
      const shortfall = Math.min(1, Math.max(0, (reserve - available) / reserve));
      return (s.windowMs / s.limit) * (1 + shortfall);
    }
    const toReset = s.resetAt === undefined ? 1000 : Math.max(0, s.resetAt - now);
    return available <= 0 ? toReset : toReset / available;
  }

  /** Earliest time the next request may go; `now` or later. */
  earliest(now: number): number {
    let at = Math.max(now, this.blockedUntil);
    const s = this.statement;
    if (s !== undefined && this.low(now)) {
      if (s.windowMs === undefined && this.available() <= 0 && s.resetAt !== undefined) at = Math.max(at, s.resetAt);
      else at = Math.max(at, this.nextAt);
      if (at > now && this.engagedWith === undefined) {
        this.engagedWith = s.windowMs !== undefined ? `${s.limit} per ${s.windowMs / 1000} s` : `${s.remaining} left of ${s.limit}`;
      }
    }
    return at;
  }

  /** Whether the next request would be spaced (used to advance the schedule only then). */
  paced(now: number): boolean {
    return this.low(now);
  }
}
