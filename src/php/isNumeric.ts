/**
 * PHP 7.4's numeric strings (`_is_numeric_string_ex`): optional leading whitespace, a sign,
 * digits with an optional fraction and exponent. `is_numeric` wants nothing after the number
 * (trailing whitespace is not allowed before PHP 8); the integer conversion (intval.ts) reads
 * the leading number and ignores the rest.
 */
import { PhpFloat, type Value } from './value.ts';

export const INT64_MIN = -(2n ** 63n);
export const INT64_MAX = 2n ** 63n - 1n;

/** The number at the start of a string, as PHP's scan reads it. */
export interface NumericString {
  /** `int` when the text is a whole number within signed 64 bits; anything else is a float. */
  kind: 'int' | 'float';
  /** The value when `kind` is `int` (0 otherwise). */
  int: bigint;
  /** The value as a double (`zend_strtod`); ±Infinity when the exponent is too large. */
  float: number;
  /** Characters after the number (PHP: "A non well formed numeric value" notice). */
  trailing: boolean;
}

const NUMERIC_PREFIX = /^[ \t\n\r\v\f]*([+-]?)(?:(\d+)(\.\d*)?|(\.\d+))([eE][+-]?\d+)?/;

/** The leading number of `s`, or `undefined` when `s` does not start with one (`"abc"`, `"0x"` reads 0). */
export function numericString(s: string): NumericString | undefined {
  const m = NUMERIC_PREFIX.exec(s);
  if (!m) return undefined;
  const trailing = m[0].length < s.length;
  if (m[3] === undefined && m[4] === undefined && m[5] === undefined) {
    const n = BigInt(m[1] + m[2]!);
    if (n >= INT64_MIN && n <= INT64_MAX) return { kind: 'int', int: n, float: Number(n), trailing };
  }
  return { kind: 'float', int: 0n, float: Number(m[0].trimStart()), trailing };
}

/** The whole string is the number: a plain test, as callers run it per record and need no value. */
const NUMERIC = new RegExp(`${NUMERIC_PREFIX.source}$`);

/** A string `is_numeric` accepts. */
export function isNumericString(s: string): boolean {
  return NUMERIC.test(s);
}

/** PHP `is_numeric` of any value. */
export function isNumeric(v: Value | undefined): boolean {
  return typeof v === 'number' || typeof v === 'bigint' || v instanceof PhpFloat || (typeof v === 'string' && NUMERIC.test(v));
}
