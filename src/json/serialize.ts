/**
 * PHP `serialize()` of decoded values (spec 04 §2.2), used for link hashes, and `md5`.
 *
 * The result is a JS string whose UTF-8 encoding is PHP's byte string: string lengths are
 * UTF-8 byte lengths, the string contents are written raw.
 */
import { hash } from 'node:crypto';
import { formatFloat } from './numbers.ts';
import { JsonObject, PhpFloat, type Value } from './value.ts';

/** Any non-ASCII unit: without one, the UTF-16 length is the UTF-8 byte length. */
const NON_ASCII = /[^\u0000-\u007f]/;

function byteLength(s: string): number {
  // Short pure-ASCII strings (the usual keys and values) skip the native call.
  if (s.length < 64 && !NON_ASCII.test(s)) return s.length;
  return Buffer.byteLength(s, 'utf8');
}

function str(s: string): string {
  return 's:' + byteLength(s) + ':"' + s + '";';
}

/**
 * True for a PHP "numeric string key" (it becomes an integer array key): `0` or
 * `-?[1-9][0-9]*` within the signed 64-bit range (`"05"`, `"-0"`, `"1.0"` stay strings).
 */
export function isCanonicalIntKey(k: string): boolean {
  const n = k.length;
  if (n === 0 || n > 20) return false;
  let i = 0;
  if (k.charCodeAt(0) === 0x2d) {
    if (n === 1) return false;
    i = 1;
  }
  const first = k.charCodeAt(i);
  if (first === 0x30) return n === 1;
  if (first < 0x31 || first > 0x39) return false;
  for (let j = i + 1; j < n; j++) {
    const c = k.charCodeAt(j);
    if (c < 0x30 || c > 0x39) return false;
  }
  if (n - i < 19) return true;
  const big = BigInt(k);
  return big >= -9223372036854775808n && big <= 9223372036854775807n;
}

function ser(v: Value): string {
  if (v === null || v === undefined) return 'N;';
  switch (typeof v) {
    case 'string':
      return 's:' + byteLength(v) + ':"' + v + '";';
    case 'number':
      return Number.isSafeInteger(v) ? 'i:' + v + ';' : Number.isInteger(v) ? 'i:' + BigInt(v) + ';' : 'd:' + formatFloat(v, 17, 'E') + ';';
    case 'bigint':
      return 'i:' + v + ';';
    case 'boolean':
      return v ? 'b:1;' : 'b:0;';
  }
  if (v instanceof PhpFloat) return 'd:' + formatFloat(v.value, 17, 'E') + ';';
  if (Array.isArray(v)) {
    const n = v.length;
    let out = 'a:' + n + ':{';
    for (let i = 0; i < n; i++) out += 'i:' + i + ';' + ser(v[i]!);
    return out + '}';
  }
  if (v instanceof JsonObject) {
    let out = 'O:8:"stdClass":' + v.size + ':{';
    for (const [k, item] of v) out += str(k) + ser(item);
    return out + '}';
  }
  // PhpArray: canonical integer keys are integer keys.
  let out = 'a:' + v.size + ':{';
  for (const [k, item] of v) out += (isCanonicalIntKey(k) ? 'i:' + k + ';' : str(k)) + ser(item);
  return out + '}';
}

/** PHP `serialize($v)` as a JS string (its UTF-8 bytes are PHP's bytes). */
export function phpSerialize(v: Value): string {
  return ser(v);
}

/** Lowercase hex MD5 of the UTF-8 bytes of `s` (PHP `md5()`). */
export function md5Hex(s: string): string {
  return hash('md5', s, 'hex');
}
