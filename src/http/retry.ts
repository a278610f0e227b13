/**
 * Retry timing and decisions (spec 01 §3.11), kept in one module so the policy can be read
 * and tested on its own. How `api.retryConfig` is read: retryOptions.ts; the sync actions'
 * timing (Python `requests`, spec 05 §4.3): helperRetryTiming.ts.
 */
import { phpIntval } from '../php/intval.ts';

export interface RetryPolicy {
  maxRetries: number;
  retryHeader: string;
  httpCodes: readonly number[];
  curlCodes: readonly number[];
  /**
   * No retry wait may end after this moment: the last response or network failure is then
   * final, exactly as when the retries run out. Sync actions set it so their answer reaches the
   * UI before the platform gives up (docs/sync-actions.md); extractions leave it unset.
   */
  deadline?: RetryDeadline;
  /** How long to wait before each retry; absent: the extractor's (EXTRACTOR_TIMING). */
  timing?: RetryTiming;
  /**
   * Statuses retried, though not among `httpCodes`, when the response carries a non-empty retry
   * header (urllib3's `RETRY_AFTER_STATUS_CODES` for the sync actions); absent: none.
   */
  retriedWithHeader?: readonly number[];
}

/**
 * How long to wait before a retry. A policy carries its timing, so the client that waits never
 * knows whose rules they are.
 */
export interface RetryTiming {
  /**
   * Delay in ms before retry number `retry` (1-based). `headerValue` is the retry header of the
   * last response when this timing reads it for that response's status; `nowSeconds` is integer
   * Unix time. Negative means "immediately".
   */
  delayMs(retry: number, headerValue: string | undefined, nowSeconds: number): number;
}

export interface RetryDeadline {
  /** Epoch ms on the client's clock (`nowMs`). */
  atMs: number;
  /** Why retries end there, for the line that says they stopped. */
  reason: string;
}

export const DEFAULT_RETRY: RetryPolicy = {
  maxRetries: 10,
  retryHeader: 'Retry-After',
  httpCodes: [500, 502, 503, 504, 408, 420, 429],
  curlCodes: [28, 6, 7, 35, 52, 56],
};

/** The extractor's timing (spec 01 §3.11): the retry header of any response, else 1, 2, 4 … s. */
export const EXTRACTOR_TIMING: RetryTiming = { delayMs: retryDelayMs };

/** The retry header's value in a response (several values joined by `, `). */
export function retryHeaderValue(raw: string | readonly string[] | undefined): string | undefined {
  if (raw === undefined) return undefined;
  return typeof raw === 'string' ? raw : raw.join(', ');
}

export type Outcome = { status: number; headers: Record<string, string | string[] | undefined> } | { curlCode: number };

/** Whether attempt `n` (retries already done) should be retried. */
export function shouldRetry(policy: RetryPolicy, retriesDone: number, outcome: Outcome): boolean {
  if (retriesDone >= policy.maxRetries) return false;
  if ('status' in outcome) {
    if (policy.httpCodes.includes(outcome.status)) return true;
    if (!policy.retriedWithHeader?.includes(outcome.status)) return false;
    return Boolean(retryHeaderValue(outcome.headers[policy.retryHeader.toLowerCase()]));
  }
  return policy.curlCodes.includes(outcome.curlCode);
}

/** Whether a retry wait of `delayMs` starting at `nowMs` ends by the policy's deadline (always, without one). */
export function waitEndsInTime(policy: RetryPolicy, nowMs: number, delayMs: number): boolean {
  return policy.deadline === undefined || nowMs + Math.max(0, delayMs) <= policy.deadline.atMs;
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const DAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];

/** RFC 1123 date as PHP reads it (weekday mismatch moves forward to that weekday). */
export function parseHttpDate(text: string): number | undefined {
  const m = /^\s*([A-Za-z]{3}),\s+(\d{1,2})\s+([A-Za-z]{3})\s+(\d{4})\s+(\d{1,2}):(\d{2}):(\d{2})\s*([A-Za-z]+|[+-]\d{2}:?\d{2})?\s*$/.exec(
    text,
  );
  if (!m) return undefined;
  const month = MONTHS.indexOf(m[3]!.toLowerCase());
  const dow = DAYS.indexOf(m[1]!.toLowerCase());
  if (month < 0 || dow < 0) return undefined;
  let offset = 0;
  const zone = m[8];
  if (zone && /^[+-]/.test(zone)) {
    const digits = zone.replace(':', '');
    offset = (Number(digits.slice(1, 3)) * 60 + Number(digits.slice(3, 5))) * 60 * (zone[0] === '-' ? -1 : 1);
  }
  let ms = Date.UTC(Number(m[4]), month, Number(m[2]), Number(m[5]), Number(m[6]), Number(m[7]));
  const actualDow = new Date(ms).getUTCDay();
  if (actualDow !== dow) ms += ((dow - actualDow + 7) % 7 || 7) * 86400_000;
  return Math.floor(ms / 1000) - offset;
}

/**
 * Delay in ms before retry number `r` (1-based). `headerValue` is the retry header of the
 * last response, if any; `nowSeconds` is integer Unix time. Negative means "immediately".
 */
export function retryDelayMs(r: number, headerValue: string | undefined, nowSeconds: number): number {
  let delay: number | undefined;
  if (headerValue !== undefined) {
    if (/^\s*[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?\s*$/.test(headerValue)) {
      const v = phpIntval(headerValue);
      delay = v < nowSeconds - 86400 ? v * 1000 : (v - nowSeconds) * 1000;
    } else {
      const ts = parseHttpDate(headerValue);
      if (ts !== undefined) delay = (ts - nowSeconds) * 1000;
    }
  }
  if (delay === undefined || delay === 0) delay = 1000 * 2 ** (r - 1);
  return delay;
}
