/**
 * PHP 7.4 argument conversions used by the user functions (spec 02 §11.5) and the byte form of
 * strings.
 *
 * PHP strings are byte strings. Values here are JavaScript strings, so raw bytes that are not
 * valid UTF-8 (e.g. `md5(s, true)`) are carried losslessly with the "surrogate escape" convention:
 * each byte 0x80–0xFF that is not part of a valid UTF-8 sequence is stored as the lone surrogate
 * U+DC80–U+DCFF. `phpBytes` reverses this, so `base64_encode(hash_hmac(…, true))` is exact.
 * A string that is valid UTF-8 text is stored as ordinary text.
 */
import { isUtf8 } from 'node:buffer';
import { ApplicationError } from '../errors/ApplicationError.ts';
import { fitsInt64, phpIntvalBig } from '../php/intval.ts';
import { numericString } from '../php/isNumeric.ts';
import { phpFloatString } from '../php/stringConversion.ts';
import { utf8PrefixAt } from '../php/utf8Lossy.ts';
import { JsonObject, PhpArray, PhpFloat, type Value } from '../php/value.ts';

// ---------------------------------------------------------------------------------------------
// bytes

const ESCAPED = /[\udc80-\udcff]/;

/** The PHP byte string of `s` (UTF-8, escaped raw bytes restored). */
export function phpBytes(s: string): Buffer {
  if (!ESCAPED.test(s)) return Buffer.from(s, 'utf8');
  const out: number[] = [];
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) {
      out.push(c);
    } else if (c < 0x800) {
      out.push(0xc0 | (c >> 6), 0x80 | (c & 63));
    } else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      const cp = 0x10000 + ((c - 0xd800) << 10) + (s.charCodeAt(i + 1) - 0xdc00);
      i++;
      out.push(0xf0 | (cp >> 18), 0x80 | ((cp >> 12) & 63), 0x80 | ((cp >> 6) & 63), 0x80 | (cp & 63));
    } else if (c >= 0xdc80 && c <= 0xdcff) {
      out.push(c - 0xdc00);
    } else if (c >= 0xd800 && c <= 0xdfff) {
      out.push(0xef, 0xbf, 0xbd);
    } else {
      out.push(0xe0 | (c >> 12), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
    }
  }
  return Buffer.from(out);
}

/** Length of the valid UTF-8 sequence starting at `i`, or 0 when the byte there starts none. */
function utf8SequenceLength(b: Uint8Array, i: number): number {
  const { length, valid } = utf8PrefixAt(b, i);
  return length > 0 && valid === length ? length : 0;
}

/** A PHP byte string as a JavaScript string (see the module comment). */
export function bytesToPhpString(b: Uint8Array): string {
  const buf = Buffer.isBuffer(b) ? b : Buffer.from(b.buffer, b.byteOffset, b.byteLength);
  if (isUtf8(buf)) return buf.toString('utf8');
  let out = '';
  let i = 0;
  while (i < buf.length) {
    const x = buf[i]!;
    if (x < 0x80) {
      out += String.fromCharCode(x);
      i++;
      continue;
    }
    const len = utf8SequenceLength(buf, i);
    if (len === 0) {
      out += String.fromCharCode(0xdc00 + x);
      i++;
    } else {
      out += buf.toString('utf8', i, i + len);
      i += len;
    }
  }
  return out;
}

/** Re-joins escaped bytes that became a valid UTF-8 sequence after concatenation. */
export function normalizeBytes(s: string): string {
  return ESCAPED.test(s) ? bytesToPhpString(phpBytes(s)) : s;
}

// ---------------------------------------------------------------------------------------------
// value classification

/** A PHP array: a JSON list, or an empty configuration map (`{}` decodes to `[]`). */
export function isPhpArrayValue(v: Value): v is Value[] | PhpArray {
  return Array.isArray(v) || (v instanceof PhpArray && v.size === 0);
}

/** A PHP object (`stdClass`): a response object or a non-empty configuration map. */
export function isPhpObjectValue(v: Value): v is JsonObject | PhpArray {
  return v instanceof JsonObject || (v instanceof PhpArray && v.size > 0);
}

function arrayCount(v: Value[] | PhpArray): number {
  return Array.isArray(v) ? v.length : v.size;
}

// ---------------------------------------------------------------------------------------------
// conversions

/**
 * `(string)$v` as done by `implode`, `concat`, `%s`: arrays → `Array` (PHP notice), objects →
 * a fatal error in the reference (internal error here).
 */
export function valueString(v: Value): string {
  if (v === null || v === false) return '';
  if (v === true) return '1';
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'bigint') return String(v);
  if (v instanceof PhpFloat) return phpFloatString(v.value);
  if (isPhpArrayValue(v)) return 'Array';
  throw new ApplicationError('Object of class stdClass could not be converted to string');
}

/** Weak-mode string parameter (`Z_PARAM_STR`): arrays and objects are rejected (`undefined`). */
export function zppString(v: Value): string | undefined {
  if (Array.isArray(v) || v instanceof Map) return undefined;
  return valueString(v);
}

/** Weak-mode bool parameter (`Z_PARAM_BOOL`). */
export function zppBool(v: Value): boolean | undefined {
  if (Array.isArray(v) || v instanceof Map) return undefined;
  if (v === null || v === false) return false;
  if (v === true) return true;
  if (typeof v === 'string') return v !== '' && v !== '0';
  if (typeof v === 'number') return v !== 0;
  if (typeof v === 'bigint') return v !== 0n;
  return v.value !== 0;
}

/** Weak-mode int parameter (`Z_PARAM_LONG`): `undefined` when PHP rejects the argument. */
export function zppLong(v: Value): bigint | undefined {
  if (v instanceof PhpFloat) return fitsInt64(v.value) ? phpIntvalBig(v) : undefined;
  if (typeof v === 'string') {
    const n = numericString(v);
    if (!n) return undefined;
    return n.kind === 'int' || fitsInt64(n.float) ? phpIntvalBig(v) : undefined;
  }
  if (Array.isArray(v) || v instanceof Map) return undefined;
  return phpIntvalBig(v);
}

/** `zval_get_double` (used by `sprintf` for `%f`, `%e`, `%g`). Strings use `zend_strtod`. */
export function valueDouble(v: Value): number {
  if (v === null || v === false) return 0;
  if (v === true) return 1;
  if (typeof v === 'number') return v;
  if (typeof v === 'bigint') return Number(v);
  if (v instanceof PhpFloat) return v.value;
  if (typeof v === 'string') return numericString(v)?.float ?? 0;
  if (isPhpArrayValue(v)) return arrayCount(v) > 0 ? 1 : 0;
  return 1;
}
