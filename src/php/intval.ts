/** PHP's conversion of a value to an integer. */
import { PhpFloat, type Value } from './value.ts';

const NUMERIC_PREFIX = /^[ \t\n\r\v\f]*[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?/;

/** PHP `(int)$v`. */
export function phpIntval(v: Value | undefined): number {
  if (v === undefined || v === null || v === false) return 0;
  if (v === true) return 1;
  if (typeof v === 'number') return Math.trunc(v);
  if (typeof v === 'bigint') return Number(v);
  if (v instanceof PhpFloat) return Number.isFinite(v.value) ? Math.trunc(v.value) : 0;
  if (typeof v === 'string') {
    const m = NUMERIC_PREFIX.exec(v);
    if (!m) return 0;
    const n = Math.trunc(Number(m[0].trim()));
    return Number.isFinite(n) ? n : 0;
  }
  if (Array.isArray(v)) return v.length > 0 ? 1 : 0;
  return v.size > 0 ? 1 : 0;
}
