/**
 * PHP 7.4's conversion of a value to an integer — `(int)$v`, `intval($v)`, `zval_get_long` — on
 * a 64-bit build (spec 02 §11.5 "To int"; the reference runs PHP 7.4). One parse for every
 * caller: `phpIntvalBig` is exact over the whole signed 64-bit range (pagination cursors, `%d`),
 * `phpIntval` is the same value as a JavaScript number (ports, page sizes, counts).
 *
 * - null, false → 0; true → 1; an int as it is
 * - a float is truncated toward zero; NaN and ±INF give 0; beyond 64 bits it wraps modulo 2^64
 *   (`zend_dval_to_lval`: `(int)1e19` is -8446744073709551616)
 * - a string gives its leading number (numericString): `" 12"` → 12, `"12abc"` → 12, `"1e3"` →
 *   1000 (since PHP 7.1), `"1.9"` → 1, `"0x1A"` → 0, `"abc"` → 0; a number too large for 64 bits
 *   saturates instead of wrapping (`zend_dval_to_lval_cap`: `"9223372036854775808"` →
 *   9223372036854775807), and one that overflows the double (`"1e999"`) gives 0
 * - an array: 0 when empty, else 1; an object (a decoded response object, a non-empty
 *   configuration map) → 1 (PHP adds a notice)
 */
import { INT64_MAX, INT64_MIN, numericString } from './isNumeric.ts';
import { JsonObject, PhpFloat, type Value } from './value.ts';

const TWO_63 = 2 ** 63;

/** Whether a double converts to a 64-bit integer without overflow (`ZEND_DOUBLE_FITS_LONG`). */
export function fitsInt64(d: number): boolean {
  return d < TWO_63 && d >= -TWO_63;
}

/** PHP 7 `zend_dval_to_lval` on 64 bits: truncation, 0 for NaN/INF, modular beyond the range. */
function floatToInt(d: number): bigint {
  if (!Number.isFinite(d)) return 0n;
  // Every double at or beyond 2^63 is a whole number, so the wrap is exact.
  return BigInt.asIntN(64, BigInt(Math.trunc(d)));
}

/** `zend_dval_to_lval_cap`, used for numeric strings: saturates where floatToInt wraps. */
function numericStringFloatToInt(d: number): bigint {
  if (!Number.isFinite(d)) return 0n;
  if (!fitsInt64(d)) return d > 0 ? INT64_MAX : INT64_MIN;
  return BigInt(Math.trunc(d));
}

function stringToInt(s: string): bigint {
  const n = numericString(s);
  if (!n) return 0n;
  return n.kind === 'int' ? n.int : numericStringFloatToInt(n.float);
}

/** PHP `(int)$v`, exact over signed 64 bits. */
export function phpIntvalBig(v: Value | undefined): bigint {
  if (v === undefined || v === null || v === false) return 0n;
  if (v === true) return 1n;
  if (typeof v === 'number') return floatToInt(v);
  if (typeof v === 'bigint') return v;
  if (v instanceof PhpFloat) return floatToInt(v.value);
  if (typeof v === 'string') return stringToInt(v);
  if (Array.isArray(v)) return v.length > 0 ? 1n : 0n;
  if (v instanceof JsonObject) return 1n;
  return v.size > 0 ? 1n : 0n;
}

/** PHP `(int)$v` as a JavaScript number (exact up to 2^53). */
export function phpIntval(v: Value | undefined): number {
  return Number(phpIntvalBig(v));
}

/** A PHP int in the value model: a number when it is a safe integer, else a bigint. */
export function phpInt(n: bigint): number | bigint {
  return n >= BigInt(Number.MIN_SAFE_INTEGER) && n <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(n) : n;
}
