/**
 * The sync actions' retry timing: that of the reference's helper program, whose HTTP client is
 * Python `requests` over urllib3 with a back-off factor of 0.3 s (spec 05 §4.3). The UI waits
 * the same 25 s for both programs (docs/sync-actions.md), so the same waits give the same number
 * of retries within it, and an API that recovers after five retries gets the same answer.
 */
import type { RetryTiming } from './retry.ts';

/** urllib3's back-off factor as the helper sets it. */
const BACKOFF_FACTOR_MS = 300;

/** urllib3's longest back-off (`DEFAULT_BACKOFF_MAX`, 120 s). */
const BACKOFF_MAX_MS = 120_000;

/** Before retry 1 nothing, then 0.6, 1.2, 2.4 … s, at most 120 s. */
export function helperBackoffMs(retry: number): number {
  if (retry <= 1) return 0;
  return Math.min(BACKOFF_MAX_MS, BACKOFF_FACTOR_MS * 2 ** (retry - 1));
}

/**
 * `Retry-After` as urllib3 reads it: whole seconds, or an HTTP date (the time left until then,
 * never negative). Anything else, e.g. `1.5`, is undefined: urllib3 raises `InvalidHeader` there,
 * a crash of the helper that we answer with the back-off instead.
 */
export function helperRetryAfterMs(value: string, nowSeconds: number): number | undefined {
  if (/^\s*[0-9]+\s*$/.test(value)) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - nowSeconds * 1000);
}

/**
 * The helper's timing: `Retry-After` replaces the back-off on every retried response, whatever
 * its status (urllib3's `Retry.sleep` reads it without looking at the status); a zero or
 * unusable value falls back to the back-off, as urllib3 does with a falsy wait.
 */
export const HELPER_RETRY_TIMING: RetryTiming = {
  delayMs(retry, headerValue, nowSeconds) {
    const asked = headerValue === undefined ? undefined : helperRetryAfterMs(headerValue, nowSeconds);
    return asked === undefined || asked === 0 ? helperBackoffMs(retry) : asked;
  },
};

/**
 * Statuses urllib3 retries when they carry `Retry-After`, though not in `codes`
 * (`Retry.RETRY_AFTER_STATUS_CODES`, its `is_retry`). Spec 05 §4.3 names these three beside the
 * header; urllib3's source (`Retry.sleep`, `Retry.is_retry`, the same in 1.26 and 2.x) says the
 * three decide *whether* such a response is retried and the header sets the wait for any status.
 */
export const HELPER_RETRIED_WITH_HEADER: readonly number[] = [413, 429, 503];
