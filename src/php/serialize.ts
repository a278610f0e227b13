/**
 * PHP `serialize()` of decoded values (spec 04 §2.2), used for link hashes, and `md5`.
 *
 * The result is a JS string whose UTF-8 encoding is PHP's byte string: string lengths are
 * UTF-8 byte lengths, the string contents are written raw.
 */
import { hash } from 'node:crypto';
import { formatFloat, writeFloat17 } from './numbers.ts';
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

// ---------------------------------------------------------------------------------------------
// The same serialization written as bytes into one reused buffer, for hashing: no intermediate
// strings (the link hashes of the automatic parser serialize every record with child tables).

let out = Buffer.allocUnsafe(64 * 1024);
let at = 0;

function room(n: number): void {
  if (at + n <= out.length) return;
  let size = out.length * 2;
  while (size < at + n) size *= 2;
  const next = Buffer.allocUnsafe(size);
  out.copy(next, 0, 0, at);
  out = next;
}

/** ASCII text (float texts, integer keys). */
function ascii(s: string): void {
  const n = s.length;
  room(n);
  for (let i = 0; i < n; i++) out[at++] = s.charCodeAt(i);
}

/** Two ASCII bytes. */
function two(a: number, b: number): void {
  room(2);
  out[at++] = a;
  out[at++] = b;
}

/** Scratch for digits in reverse order. */
const digitScratch = new Uint8Array(24);

/**
 * The decimal digits of a safe integer, written as bytes: no number-to-string conversion (V8's
 * number-string cache keeps such strings alive into the old generation, see `numberText`).
 */
function intBytes(v: number): void {
  room(24);
  if (v < 0) {
    out[at++] = 0x2d; // -
    v = -v;
  }
  let k = 0;
  if (v < 2147483648) {
    let n = v | 0;
    do {
      const q = (n / 10) | 0;
      digitScratch[k++] = 0x30 + n - q * 10;
      n = q;
    } while (n > 0);
  } else {
    // Up to 2^53: 8 low digits, then the rest (both exact in double arithmetic).
    const high = Math.floor(v / 1e8);
    let low = v - high * 1e8;
    for (let i = 0; i < 8; i++) {
      const q = Math.floor(low / 10);
      digitScratch[k++] = 0x30 + low - q * 10;
      low = q;
    }
    let n = high;
    do {
      const q = Math.floor(n / 10);
      digitScratch[k++] = 0x30 + n - q * 10;
      n = q;
    } while (n > 0);
  }
  while (k > 0) out[at++] = digitScratch[--k]!;
}

/** `<tag>:<n>:` + `{` (arrays and objects' sizes) or `i:<n>;` (integers). */
function tagged(tag: number, n: number, close: number): void {
  two(tag, 0x3a);
  intBytes(n);
  room(1);
  out[at++] = close;
}

/** `s:<bytes>:"<s>";` */
function strBytes(s: string): void {
  const n = s.length;
  if (n < 256) {
    // Optimistically ASCII: the length is the byte length; fall back on the first other unit.
    room(n + 10);
    const start = at;
    out[at++] = 0x73; // s
    out[at++] = 0x3a; // :
    intBytes(n);
    out[at++] = 0x3a;
    out[at++] = 0x22; // "
    let i = 0;
    for (; i < n; i++) {
      const c = s.charCodeAt(i);
      if (c >= 0x80) break;
      out[at++] = c;
    }
    if (i === n) {
      out[at++] = 0x22;
      out[at++] = 0x3b; // ;
      return;
    }
    at = start;
  }
  const bytes = Buffer.byteLength(s, 'utf8');
  two(0x73, 0x3a);
  intBytes(bytes);
  two(0x3a, 0x22);
  room(bytes + 2);
  at += out.write(s, at, 'utf8');
  out[at++] = 0x22;
  out[at++] = 0x3b;
}

/** `d:<%.17G>;` */
function floatBytes(x: number): void {
  room(34);
  out[at++] = 0x64; // d
  out[at++] = 0x3a; // :
  const end = writeFloat17(x, out, at);
  if (end >= 0) at = end;
  else ascii(formatFloat(x, 17, 'E'));
  room(1);
  out[at++] = 0x3b;
}

/** `O:8:"stdClass":` */
const STDCLASS = Buffer.from('O:8:"stdClass":', 'latin1');

function serBytes(v: Value): void {
  if (v === null || v === undefined) {
    two(0x4e, 0x3b); // N;
    return;
  }
  switch (typeof v) {
    case 'string':
      strBytes(v);
      return;
    case 'number':
      if (Number.isSafeInteger(v)) tagged(0x69, v, 0x3b);
      else if (Number.isInteger(v)) ascii('i:' + BigInt(v) + ';');
      else floatBytes(v);
      return;
    case 'bigint':
      ascii('i:' + v + ';');
      return;
    case 'boolean':
      room(4);
      out[at++] = 0x62; // b
      out[at++] = 0x3a;
      out[at++] = v ? 0x31 : 0x30;
      out[at++] = 0x3b;
      return;
  }
  if (v instanceof PhpFloat) {
    floatBytes(v.value);
    return;
  }
  if (Array.isArray(v)) {
    const n = v.length;
    tagged(0x61, n, 0x3a); // a:<n>:
    room(1);
    out[at++] = 0x7b; // {
    for (let i = 0; i < n; i++) {
      tagged(0x69, i, 0x3b); // i:<i>;
      serBytes(v[i]!);
    }
    room(1);
    out[at++] = 0x7d; // }
    return;
  }
  if (v instanceof JsonObject) {
    room(STDCLASS.length);
    for (let i = 0; i < STDCLASS.length; i++) out[at++] = STDCLASS[i]!;
    intBytes(v.size);
    two(0x3a, 0x7b); // :{
    // keys() + get(): iterating entries allocates a [key, value] pair per property.
    for (const k of v.keys()) {
      strBytes(k);
      serBytes(v.get(k)!);
    }
    room(1);
    out[at++] = 0x7d;
    return;
  }
  tagged(0x61, v.size, 0x3a);
  room(1);
  out[at++] = 0x7b;
  for (const k of v.keys()) {
    const item = v.get(k)!;
    if (isCanonicalIntKey(k)) {
      two(0x69, 0x3a);
      ascii(k);
      room(1);
      out[at++] = 0x3b;
    } else {
      strBytes(k);
    }
    serBytes(item);
  }
  room(1);
  out[at++] = 0x7d;
}

/** `md5Hex(phpSerialize(v) + suffix)`, without building the serialized string. */
export function md5OfSerialized(v: Value, suffix = ''): string {
  at = 0;
  try {
    serBytes(v);
    if (suffix !== '') {
      room(suffix.length * 3);
      at += out.write(suffix, at, 'utf8');
    }
    return hash('md5', out.subarray(0, at), 'hex');
  } finally {
    // Do not keep a buffer grown by one exceptionally large record.
    if (out.length > 4 * 1024 * 1024) out = Buffer.allocUnsafe(64 * 1024);
  }
}
