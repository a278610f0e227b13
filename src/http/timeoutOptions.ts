/**
 * `api.http.connectTimeout` / `requestTimeout` read as the reference reads them (spec 01 §3.9):
 * seconds, used only when not PHP-empty and numeric (PHP's `is_numeric`), else the default. The
 * reader also says what a value not used as written counts as: the configuration check prints
 * that note (config/schemaHttp.ts), so the warning and the behaviour come from one place.
 */
import { isNumericString } from '../php/isNumeric.ts';
import { isEmpty, PhpFloat, type Value } from '../php/value.ts';
import { type Reading, shownValue } from './retryOptions.ts';
import { MAX_TIMER_MS } from './waits.ts';

/** The longest timeout a timer can hold, in whole seconds (2^31−1 ms, about 24.8 days). */
const LONGEST_SECONDS = Math.floor(MAX_TIMER_MS / 1000);

function seconds(v: Value): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'bigint') return Number(v);
  if (v instanceof PhpFloat) return v.value;
  return typeof v === 'string' && isNumericString(v) ? Number(v) : Number.NaN;
}

/**
 * The timeout in milliseconds: `v` seconds when that is a positive number, else `defaultSeconds`.
 * More than a timer can hold (Node would turn it into 1 ms) is the longest timer: users write
 * such numbers (`1e7`) to mean "no timeout", and the reference accepts them.
 */
export function readTimeout(v: Value | undefined, defaultSeconds: number): Reading<number> {
  const fallback = { value: defaultSeconds * 1000 };
  if (v === undefined || v === null) return fallback;
  const n = isEmpty(v) && !Array.isArray(v) && !(v instanceof Map) ? 0 : seconds(v);
  if (n * 1000 > MAX_TIMER_MS) {
    return {
      value: LONGEST_SECONDS * 1000,
      note: `${shownValue(v)} seconds is longer than the longest timeout possible: ${LONGEST_SECONDS} seconds (about 24.8 days) are used instead.`,
    };
  }
  if (n > 0) return { value: n * 1000 };
  const why = Number.isNaN(n) ? 'is not a number' : n === 0 ? 'does not turn the timeout off' : 'is not a positive number';
  return { ...fallback, note: `${shownValue(v)} ${why}: it counts as the default of ${defaultSeconds} seconds.` };
}
