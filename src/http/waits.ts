/**
 * Waits that are never shorter than asked (issue 19 #3). Node's timers hold at most 2^31−1 ms:
 * a longer delay becomes 1 ms (with a TimeoutOverflowWarning), so a retry wait of 35 days turned
 * into a hot loop. Configured durations beyond that are user errors (config/api.ts); a server
 * asking for more than MAX_SERVER_WAIT_MS fails the run with a clear message; and every sleep
 * is cut into timer-sized steps and checked against a monotonic clock, so it never ends early.
 */
import { UserError } from '../errors/UserError.ts';

/** The longest delay a Node timer holds (about 24.8 days). */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * The longest retry wait honoured (6 hours): an API asking for longer (Retry-After, or an
 * exponential back-off grown that far) is better answered by failing with a clear message than by
 * a job that sleeps for days.
 */
export const MAX_SERVER_WAIT_MS = 6 * 3600 * 1000;

/** Sleeps at least `ms` milliseconds, whatever their number (`now`: a monotonic clock, injectable for tests). */
export async function sleepAtLeast(ms: number, now: () => number = () => performance.now()): Promise<void> {
  if (!(ms > 0)) return;
  const until = now() + ms;
  for (;;) {
    const left = until - now();
    if (left <= 0) return;
    await new Promise<void>((resolve) => setTimeout(resolve, Math.min(Math.ceil(left), MAX_TIMER_MS)));
  }
}

function human(ms: number): string {
  const s = ms / 1000;
  if (s < 120) return `${s.toFixed(0)} s`;
  if (s < 7200) return `${(s / 60).toFixed(1)} min`;
  if (s < 172800) return `${(s / 3600).toFixed(1)} h`;
  return `${(s / 86400).toFixed(1)} days`;
}

export interface WaitOrigin {
  /** `GET https://…` of the attempt that is to be retried. */
  request: string;
  /** The retry header and its value, when the wait came from it. */
  header?: { name: string; value: string };
  /** Retry number (1-based). */
  retry: number;
}

/**
 * The retry wait `ms`, or a user error when it is longer than MAX_SERVER_WAIT_MS (or not a
 * finite number): the run stops instead of waiting days or spinning.
 */
export function checkedRetryWait(ms: number, origin: WaitOrigin): number {
  if (Number.isFinite(ms) && ms <= MAX_SERVER_WAIT_MS) return ms;
  const limit = human(MAX_SERVER_WAIT_MS);
  const asked = Number.isFinite(ms) ? human(ms) : 'forever';
  if (origin.header) {
    throw new UserError(
      `The API asked to wait ${asked} before retry ${origin.retry} of ${origin.request} (${origin.header.name}: ${origin.header.value}); the longest wait honoured is ${limit}. Run the job again once the API accepts requests.`,
      { configPath: 'parameters.api.retryConfig' },
    );
  }
  throw new UserError(
    `Retry ${origin.retry} of ${origin.request} would wait ${asked} (exponential back-off); the longest wait honoured is ${limit}. Lower parameters.api.retryConfig.maxRetries (at most 15 retries keep every wait under ${limit}).`,
    { configPath: 'parameters.api.retryConfig.maxRetries' },
  );
}
