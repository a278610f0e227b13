/**
 * Request budgets per host (docs/rate-limits.md): `api.http.rateLimit` read and checked here,
 * one gate per host (hostGate.ts), and the closing INFO line with the effective rate.
 */
import { UserError } from '../../errors/UserError.ts';
import { isEmpty, isMap, member, PhpFloat, type Value } from '../../php/value.ts';
import { ConfiguredBudget, type BudgetOptions } from './budget.ts';
import { systemClock, type Clock } from './clock.ts';
import { HostGate, type AcquireOptions, type Permit } from './hostGate.ts';

export type { AcquireOptions, AttemptOutcome, Permit } from './hostGate.ts';
export { compareOrder } from './hostGate.ts';
export { systemClock, type Clock } from './clock.ts';

export interface RateLimitOptions extends BudgetOptions {
  /** Pace by the API's rate-limit headers and Retry-After (default true). */
  followHeaders: boolean;
}

export const RATE_LIMIT_PATH = 'parameters.api.http.rateLimit';

function positiveNumber(v: Value | undefined, key: string): number | undefined {
  if (v === undefined || v === null) return undefined;
  const n = typeof v === 'number' ? v : typeof v === 'bigint' ? Number(v) : v instanceof PhpFloat ? v.value : NaN;
  if (!(n > 0) || !Number.isFinite(n)) {
    throw new UserError(
      `The '${key}' option of 'rateLimit' must be a number greater than 0 (requests per ${key.endsWith('Minute') ? 'minute' : 'second'}).`,
      {
        configPath: `${RATE_LIMIT_PATH}.${key}`,
      },
    );
  }
  return n;
}

/** Reads `parameters.api.http.rateLimit` (`api` is the raw `parameters.api`). */
export function rateLimitOptions(api: Value | undefined): RateLimitOptions {
  const config = member(member(api, 'http'), 'rateLimit');
  if (config === undefined || isEmpty(config)) return { followHeaders: true };
  if (!isMap(config)) {
    throw new UserError('The \'rateLimit\' option must be an object such as {"requestsPerSecond": 10}.', { configPath: RATE_LIMIT_PATH });
  }
  const options: RateLimitOptions = { followHeaders: true };
  const perSecond = positiveNumber(member(config, 'requestsPerSecond'), 'requestsPerSecond');
  const perMinute = positiveNumber(member(config, 'requestsPerMinute'), 'requestsPerMinute');
  if (perSecond !== undefined) options.requestsPerSecond = perSecond;
  if (perMinute !== undefined) options.requestsPerMinute = perMinute;
  const follow = member(config, 'followHeaders');
  if (follow !== undefined && follow !== null) {
    if (typeof follow !== 'boolean') {
      throw new UserError("The 'followHeaders' option of 'rateLimit' must be true or false.", {
        configPath: `${RATE_LIMIT_PATH}.followHeaders`,
      });
    }
    options.followHeaders = follow;
  }
  return options;
}

export class RateLimiter {
  private readonly options: RateLimitOptions;
  private readonly concurrency: number;
  private readonly clock: Clock;
  private readonly notify: (message: string) => void;
  private readonly gates = new Map<string, HostGate>();
  /** Time the run's own sleeps vouch for (an injected sleep may return before the clock moved). */
  private readonly slept = { until: -Infinity };

  constructor(options: RateLimitOptions, concurrency: number, notify: (message: string) => void, clock: Clock = systemClock) {
    this.options = options;
    this.concurrency = concurrency;
    this.notify = notify;
    this.clock = clock;
  }

  private gate(host: string): HostGate {
    let gate = this.gates.get(host);
    if (gate === undefined) {
      const budget = new ConfiguredBudget(this.options);
      gate = new HostGate({
        name: host,
        concurrency: this.concurrency,
        budget: budget.empty ? undefined : budget,
        followSignals: this.options.followHeaders,
        clock: this.clock,
        notify: this.notify,
        slept: this.slept,
      });
      this.gates.set(host, gate);
    }
    return gate;
  }

  /**
   * Sleeps `ms` with the run's sleep (a retry's delay) and counts that time as passed: a hold
   * the delay already waited out is not waited again, whatever the sleep really did.
   */
  async sleep(ms: number, sleep: (ms: number) => Promise<void>): Promise<void> {
    // From the time already vouched for: consecutive sleeps add up even when the clock stands still.
    const from = Math.max(this.clock.now(), this.slept.until);
    await sleep(ms);
    this.slept.until = Math.max(this.slept.until, from + ms);
  }

  /** Waits for the host's permit (order, concurrency slot, budget, the API's signals). */
  acquire(host: string, options: AcquireOptions): Promise<Permit> {
    return this.gate(host).acquire(options);
  }

  /** One INFO line per host whose requests were paced or answered 429: the effective rate. */
  summary(): string[] {
    const lines: string[] = [];
    for (const [host, gate] of this.gates) {
      const s = gate.stats;
      if (s.paced === 0 && s.tooMany === 0) continue;
      const seconds = s.firstAt !== undefined && s.lastAt !== undefined ? Math.max(0.001, (s.lastAt - s.firstAt) / 1000) : 0;
      const rate = seconds > 0 ? (s.requests / seconds).toFixed(1) : String(s.requests);
      lines.push(
        `Rate limit: ${s.requests} requests to ${host} in ${seconds.toFixed(1)} s (${rate} requests/s); ${s.paced} paced, ${s.tooMany} answered 429, concurrency ended at ${s.concurrency}.`,
      );
    }
    return lines;
  }
}
