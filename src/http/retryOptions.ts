/**
 * `api.retryConfig` read as the reference reads it (spec 01 §3.11), one reader per key. Each
 * reader returns the value the run uses and, when a value is not written as documented, a note
 * saying what it counts as: the configuration check prints that note (config/schemaHttp.ts), so
 * a warning cannot promise one thing while the run does another (issue 27).
 */
import { phpIntval } from '../php/intval.ts';
import { phpString } from '../php/stringConversion.ts';
import { isEmpty, isInt, isMap, member, type Value } from '../php/value.ts';
import { DEFAULT_RETRY, type RetryPolicy } from './retry.ts';

/** A configured value as the run reads it. */
export interface Reading<T> {
  value: T;
  /** What a value not written as documented counts as, in words; undefined when it reads as written. */
  note?: string;
}

/** A configured value in a note: text quoted, numbers as PHP writes them, lists by their emptiness. */
export function shownValue(v: Value): string {
  return typeof v === 'string'
    ? JSON.stringify(v)
    : isMap(v) || Array.isArray(v)
      ? isEmpty(v)
        ? 'an empty list'
        : 'a list'
      : phpString(v);
}

/**
 * `maxRetries`: PHP's integer conversion — 2.9 → 2, "3" → 3, "1e1" → 10, text that does not start
 * with a number ("three") → 0, true → 1, a list → 0 or 1. Zero or a negative number: no retry.
 * Absent or null: the default 10 (null is undetermined in the spec; "not set" is what a user means).
 */
export function readMaxRetries(v: Value | undefined): Reading<number> {
  if (v === undefined || v === null) return { value: DEFAULT_RETRY.maxRetries };
  const value = phpIntval(v);
  if (isInt(v) && value >= 0) return { value };
  if (value <= 0) return { value, note: `${shownValue(v)} counts as 0, so no request is retried (a failing request is sent once).` };
  return { value, note: `${shownValue(v)} counts as ${value}, so a failing request is sent at most ${value + 1} times.` };
}

/**
 * One entry of `http.codes` / `httpCodes`: the status it matches. The reference compares exactly,
 * so only a JSON integer matches a status; text ("503") or a float (503.0) matches none.
 */
export function readStatusCode(v: Value): Reading<number | undefined> {
  if (typeof v === 'number') return { value: v };
  return { value: undefined, note: `${shownValue(v)} is not a whole number, so it never matches a status and nothing is retried for it.` };
}

/** A list of status codes (`http.codes`, `httpCodes`); null: the defaults; not a list: the defaults (undetermined: the reference fails). */
function statusCodes(v: Value | undefined): readonly number[] {
  if (!Array.isArray(v) && !isMap(v)) return DEFAULT_RETRY.httpCodes;
  const items = Array.isArray(v) ? v : [...v.values()];
  return items.map((item) => readStatusCode(item).value).filter((code): code is number => code !== undefined);
}

/** A list of curl error numbers (`curl.codes`, `curlCodes`), compared exactly as the statuses are. */
function curlCodes(v: Value | undefined): readonly number[] {
  if (!Array.isArray(v) && !isMap(v)) return DEFAULT_RETRY.curlCodes;
  const items = Array.isArray(v) ? v : [...v.values()];
  return items.filter((code): code is number => typeof code === 'number');
}

/** The retry header's name: a non-empty string, else `Retry-After`. */
function retryHeader(v: Value | undefined): string {
  return typeof v === 'string' && v !== '' ? v : DEFAULT_RETRY.retryHeader;
}

/**
 * Reads `api.retryConfig`; used only when it is a non-empty object. The legacy `headerName` /
 * `httpCodes`, when either is present, replace the whole `http` object; `curlCodes` replaces `curl`.
 */
export function retryPolicyFrom(config: Value | undefined): RetryPolicy {
  if (!isMap(config) || isEmpty(config)) return DEFAULT_RETRY;
  const legacy = member(config, 'headerName') !== undefined || member(config, 'httpCodes') !== undefined;
  const header = legacy ? member(config, 'headerName') : member(member(config, 'http'), 'retryHeader');
  const codes = legacy ? member(config, 'httpCodes') : member(member(config, 'http'), 'codes');
  const curl = member(config, 'curlCodes') !== undefined ? member(config, 'curlCodes') : member(member(config, 'curl'), 'codes');
  return {
    maxRetries: readMaxRetries(member(config, 'maxRetries')).value,
    retryHeader: retryHeader(header),
    httpCodes: codes === null || codes === undefined ? DEFAULT_RETRY.httpCodes : statusCodes(codes),
    curlCodes: curl === null || curl === undefined ? DEFAULT_RETRY.curlCodes : curlCodes(curl),
  };
}
