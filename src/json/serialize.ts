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

/** ASCII text (numbers, tags, class name). */
function ascii(s: string): void {
  const n = s.length;
  room(n);
  for (let i = 0; i < n; i++) out[at++] = s.charCodeAt(i);
}

/** `s:<bytes>:"<s>";` */
function strBytes(s: string): void {
  const n = s.length;
  if (n < 256) {
    // Optimistically ASCII: the length is the byte length; fall back on the first other unit.
    const lengthText = String(n);
    room(n + lengthText.length + 6);
    const start = at;
    out[at++] = 0x73; // s
    out[at++] = 0x3a; // :
    for (let i = 0; i < lengthText.length; i++) out[at++] = lengthText.charCodeAt(i);
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
  ascii('s:' + bytes + ':"');
  room(bytes + 2);
  at += out.write(s, at, 'utf8');
  out[at++] = 0x22;
  out[at++] = 0x3b;
}

function serBytes(v: Value): void {
  if (v === null || v === undefined) {
    ascii('N;');
    return;
  }
  switch (typeof v) {
    case 'string':
      strBytes(v);
      return;
    case 'number':
      ascii(Number.isSafeInteger(v) ? 'i:' + v + ';' : Number.isInteger(v) ? 'i:' + BigInt(v) + ';' : 'd:' + formatFloat(v, 17, 'E') + ';');
      return;
    case 'bigint':
      ascii('i:' + v + ';');
      return;
    case 'boolean':
      ascii(v ? 'b:1;' : 'b:0;');
      return;
  }
  if (v instanceof PhpFloat) {
    ascii('d:' + formatFloat(v.value, 17, 'E') + ';');
    return;
  }
  if (Array.isArray(v)) {
    const n = v.length;
    ascii('a:' + n + ':{');
    for (let i = 0; i < n; i++) {
      ascii('i:' + i + ';');
      serBytes(v[i]!);
    }
    ascii('}');
    return;
  }
  if (v instanceof JsonObject) {
    ascii('O:8:"stdClass":' + v.size + ':{');
    for (const [k, item] of v) {
      strBytes(k);
      serBytes(item);
    }
    ascii('}');
    return;
  }
  ascii('a:' + v.size + ':{');
  for (const [k, item] of v) {
    if (isCanonicalIntKey(k)) ascii('i:' + k + ';');
    else strBytes(k);
    serBytes(item);
  }
  ascii('}');
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
