/**
 * Column and table name sanitising of the automatic parser (spec 04 §4.4 `safe`, §5.3 `legacySafe`).
 *
 * Both work on the UTF-8 **bytes** of the name. Internally a name is handled as a "byte string":
 * a JS string with one char (0..255) per byte, so byte offsets are string offsets.
 */
import { createHash } from 'node:crypto';

const SAFE_PLAIN = /^[A-Za-z0-9-]*$/;
const NON_ASCII = /[^\u0000-\u007f]/;

/** The UTF-8 bytes of `s` as a byte string. */
function bytesOf(s: string): string {
  return NON_ASCII.test(s) ? Buffer.from(s, 'utf8').toString('latin1') : s;
}

function md5OfBytes(b: string): string {
  return createHash('md5').update(b, 'latin1').digest('hex');
}

function isAlpha(c: number): boolean {
  return (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
}

/** `\w` of PCRE without UTF mode: `[A-Za-z0-9_]`. */
function isWordChar(c: number): boolean {
  return isAlpha(c) || (c >= 0x30 && c <= 0x39) || c === 0x5f;
}

/** PHP `str_word_count($s)` (format 0, C locale) on a byte string. */
export function strWordCount(b: string): number {
  let p = 0;
  let e = b.length;
  if (e === 0) return 0;
  // The first character cannot be ' or -, the last cannot be -.
  const first = b.charCodeAt(0);
  if (first === 0x27 || first === 0x2d) p++;
  if (b.charCodeAt(e - 1) === 0x2d) e--;
  let count = 0;
  while (p < e) {
    const s = p;
    while (p < e) {
      const c = b.charCodeAt(p);
      if (!(isAlpha(c) || c === 0x27 || c === 0x2d)) break;
      p++;
    }
    if (p > s) count++;
    else p++;
  }
  return count;
}

/** PHP `implode('', preg_match_all('/\b(\w)/', $s)[1])` on a byte string. */
export function acronym(b: string): string {
  let out = '';
  let prevWord = false;
  for (let i = 0; i < b.length; i++) {
    const w = isWordChar(b.charCodeAt(i));
    if (w && !prevWord) out += b[i];
    prevWord = w;
  }
  return out;
}

/**
 * The >64 bytes shortening shared by both variants: `short` = acronym (more than one word) or
 * md5, then the tail of the name starting at the first separator found at/after the cut offset.
 */
function shorten(b: string, md5Source: string, findSeparator: (from: number) => number): string {
  const ac = acronym(b);
  let short = strWordCount(b) > 1 && ac !== '' ? ac : md5OfBytes(md5Source);
  short += '_';
  const rem = 64 - short.length;
  const from = b.length - rem;
  const p = from > b.length ? -1 : findSeparator(from);
  return p >= 0 ? short + b.slice(p) : short;
}

function trimUnderscores(s: string): string {
  let a = 0;
  let z = s.length;
  while (a < z && s.charCodeAt(a) === 0x5f) a++;
  while (z > a && s.charCodeAt(z - 1) === 0x5f) z--;
  return a === 0 && z === s.length ? s : s.slice(a, z);
}

/**
 * `safe(s)` (spec 04 §4.4): bytes outside `[A-Za-z0-9-]` → `_`, shorten when longer than 64,
 * collapse runs of other characters to one `_`, trim `_`.
 */
export function safe(s: string): string {
  if (s.length <= 64 && SAFE_PLAIN.test(s)) return s;
  let b = bytesOf(s).replace(/[^A-Za-z0-9-]/g, '_');
  if (b.length > 64) {
    const step1 = b;
    b = shorten(step1, step1, (from) => step1.indexOf('_', from));
  }
  return trimUnderscores(b.replace(/[^A-Za-z0-9-]+/g, '_'));
}

/**
 * `legacySafe(s)` (spec 04 §5.3): the shortening computed on the raw bytes (separator: first
 * space at/after the offset, else first `_`), then every byte outside `[A-Za-z0-9-]` → `_`
 * (no collapsing), trim `_`.
 */
export function legacySafe(s: string): string {
  if (s.length <= 64 && SAFE_PLAIN.test(s)) return s;
  let b = bytesOf(s);
  if (b.length > 64) {
    const raw = b;
    b = shorten(raw, raw, (from) => {
      const sp = raw.indexOf(' ', from);
      return sp > 0 ? sp : raw.indexOf('_', from);
    });
  }
  return trimUnderscores(b.replace(/[^A-Za-z0-9-]/g, '_'));
}

const NUMERIC = /^[ \t\n\r\v\f]*[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?[ \t\n\r\v\f]*$/;
const INTEGER = /^[ \t\n\r\v\f]*[+-]?[0-9]+[ \t\n\r\v\f]*$/;

/** PHP 8 `$a == $b` for two strings: numeric strings compare as numbers, others byte-wise. */
export function phpLooseStringEquals(a: string, b: string): boolean {
  if (a === b) return true;
  if (!NUMERIC.test(a) || !NUMERIC.test(b)) return false;
  if (INTEGER.test(a) && INTEGER.test(b)) {
    const x = BigInt(a.trim());
    const y = BigInt(b.trim());
    const inRange = (v: bigint) => v >= -9223372036854775808n && v <= 9223372036854775807n;
    if (inRange(x) && inRange(y)) return x === y;
    // Both overflow to floats: PHP compares them as strings when the floats are equal.
    if (Number(a) === Number(b)) return !inRange(x) && !inRange(y) ? a === b : true;
    return false;
  }
  return Number(a) === Number(b);
}
