/**
 * PHP 7.4 `strtotime()` in UTC (spec 02 §11.7): a port of timelib's scanner (parse_date.re) —
 * the same token formats, longest match with rule order breaking ties — and of its
 * `fill_holes` / `update_ts` steps (relative units, weekday moves, `first/last day of`,
 * normalisation of overflowing fields).
 *
 * patterns.ts holds the token formats, rules.ts the rule per format with its action (reading the
 * token with tokenReaders.ts, relativeUnits.ts and zones.ts into parsed.ts's Parsed), scanner.ts
 * the longest-match loop, resolve.ts the application to the base time.
 */
import type { Parsed } from './parsed.ts';
import { StrtotimeParseError } from '../../errors/StrtotimeParseError.ts';
import { resolve } from './resolve.ts';
import { scan } from './scanner.ts';

/** PHP `strtotime(str, base)` in UTC: Unix seconds, or `false` when the text does not parse or the time does not fit. */
export function phpStrtotime(input: string, base: bigint): bigint | false {
  const trimmed = input.replace(/^[ \t\n\v\f\r]+/, '').replace(/[ \t\n\v\f\r]+$/, '');
  if (trimmed === '') return false;
  let parsed: Parsed;
  try {
    parsed = scan(trimmed);
  } catch (e) {
    if (e instanceof StrtotimeParseError) return false;
    throw e;
  }
  const seconds = resolve(parsed, base);
  // PHP's integers are 64-bit: a time past their range is no answer (C would wrap it into garbage).
  return seconds < INT64_MIN || seconds > INT64_MAX ? false : seconds;
}

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
