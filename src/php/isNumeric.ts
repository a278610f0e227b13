/**
 * PHP 7.4 `is_numeric`: integers, floats, and strings that are a number with optional leading
 * whitespace and nothing after it (trailing whitespace is not allowed before PHP 8).
 */
import { PhpFloat, type Value } from './value.ts';

const NUMERIC = /^[ \t\n\r\v\f]*[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

/** A string `is_numeric` accepts. */
export function isNumericString(s: string): boolean {
  return NUMERIC.test(s);
}

/** PHP `is_numeric` of any value. */
export function isNumeric(v: Value | undefined): boolean {
  return typeof v === 'number' || typeof v === 'bigint' || v instanceof PhpFloat || (typeof v === 'string' && NUMERIC.test(v));
}
