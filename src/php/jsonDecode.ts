/**
 * PHP `json_decode` re-implemented on top of the value model (spec 04 §2.1, 01 §1.2, §3.13).
 *
 * `JSON.parse` cannot be used: it loses the int/float distinction (`1` vs `1.0`), int64
 * precision and the source order of integer-like keys.
 *
 * Grammar and error conditions follow PHP's scanner/parser (ext/json, PHP ≥ 7.1):
 * - whitespace is space, tab, LF, CR; top-level scalars are valid; nothing may follow the value;
 * - an empty text, a UTF-8 BOM or any other unexpected character is a syntax error;
 * - a character < 0x20 (other than whitespace) outside or inside a string, and the end of the
 *   text inside an unterminated string (PHP sees its NUL terminator), is a control-character
 *   error;
 * - `[1}` / `{"a":1]` (closing bracket of the other kind) is a state mismatch;
 * - 512 or more nested arrays/objects is a depth error (PHP's depth 512 counts one level
 *   more than the containers; checked when the bracket opens);
 * - a `\uXXXX` surrogate escape that is not a high+low pair is a UTF-16 error;
 * - in response mode (stdClass) a key starting with NUL is an invalid property name.
 *
 * The parser is recursive but checks the depth before descending, so the JS stack never holds
 * more than ~512 nested frames whatever the input.
 */
import { JsonDecodeError } from '../errors/JsonDecodeError.ts';
import { lazyArray } from './lazyArray.ts';

export { decodeUtf8Lossy } from './utf8Lossy.ts';
import { JsonObject, PhpArray, PhpFloat, type Value } from './value.ts';

/**
 * PHP `json_decode` default depth is 512, and PHP counts one level more than the number of
 * nested arrays/objects (verified with PHP 8.2: `[[]]` fails at depth 2). So at most 511
 * nested containers decode; 512 give `Maximum stack depth exceeded`.
 */
const MAX_DEPTH = 511;

// Parser state. Decoding is synchronous and not re-entrant, so module-level state is safe
// and noticeably faster than passing a context object around.
let src = '';
let pos = 0;
let len = 0;
let configMode = false;
/** A response object had a member named `[]` (the automatic parser then checks its batches). */
let bracketKey = false;

/**
 * Some response decoded so far had an object member named `[]`: the reference's parser confuses
 * it with the list-item marker (src/mapping/auto/structure.ts checks batches for it only then).
 */
export function decodedBracketKey(): boolean {
  return bracketKey;
}

/**
 * Decodes a JSON text.
 * - `response`: objects become `JsonObject` (PHP stdClass), `{}` included.
 * - `config`: objects become `PhpArray` (PHP associative array); an empty object becomes `[]`.
 * Throws `JsonDecodeError`.
 */
export function decodeJson(text: string, mode: 'response' | 'config', records?: RecordsAt): Value {
  src = text;
  pos = 0;
  len = text.length;
  configMode = mode === 'config';
  try {
    skipWs();
    const value = records !== undefined && !configMode ? parseOnPath(0, records, 0) : parseValue(0);
    skipWs();
    if (pos < len) unexpected();
    return value;
  } finally {
    src = '';
  }
}

/**
 * Where a response's records are (response mode only): the keys from the root object down to
 * the array (`[]`: the root itself), or `'root-members'` for every array that is a member of a
 * root object (no `dataField`: the one array found there is the records). Such an array is
 * checked like any other (same errors, in the same order) but not kept: it becomes a `LazyArray`
 * (lazyArray.ts) that decodes its elements from `text` again when they are read, a chunk at a
 * time, so that a page of a million records does not hold a million decoded records.
 */
export type RecordsAt = readonly string[] | 'root-members';

/** Decodes the value at `pos` with the records' array (if on `at`) kept as a LazyArray. */
function parseOnPath(depth: number, at: RecordsAt, level: number): Value {
  const c = src.charCodeAt(pos);
  if (c === 0x5b && (at === 'root-members' ? level === 0 : level === at.length)) return parseLazyArray(depth + 1);
  if (c !== 0x7b || (at !== 'root-members' && level >= at.length) || (at === 'root-members' && level > 0)) return parseValue(depth);
  // parseObject, with the members on the path decoded by parseOnPath.
  depth++;
  if (depth > MAX_DEPTH) fail('depth');
  pos++;
  skipWs();
  let k = src.charCodeAt(pos);
  if (k === 0x7d) {
    pos++;
    return new JsonObject();
  }
  if (k === 0x5d) fail('state-mismatch');
  const out = new JsonObject();
  for (;;) {
    if (k !== 0x22) unexpected();
    const key = parseKey();
    skipWs();
    if (src.charCodeAt(pos) !== 0x3a) unexpected();
    pos++;
    skipWs();
    let value: Value;
    if (at === 'root-members') value = src.charCodeAt(pos) === 0x5b ? parseLazyArray(depth + 1) : parseValue(depth);
    else value = key === at[level] ? parseOnPath(depth, at, level + 1) : parseValue(depth);
    if (key.length > 0 && key.charCodeAt(0) === 0) fail('invalid-property-name');
    out.set(key, value);
    skipWs();
    k = src.charCodeAt(pos);
    if (k === 0x2c) {
      pos++;
      skipWs();
      k = src.charCodeAt(pos);
      continue;
    }
    if (k === 0x7d) {
      pos++;
      return out;
    }
    if (k === 0x5d) fail('state-mismatch');
    return unexpected();
  }
}

/**
 * parseArray, but each element is decoded and dropped, only its position kept: the array is a
 * LazyArray over the text. The checks (and so the errors) are parseArray's, element by element.
 */
function parseLazyArray(depth: number): Value[] {
  if (depth > MAX_DEPTH) fail('depth');
  const text = src;
  pos++;
  skipWs();
  const starts: number[] = [];
  let c = src.charCodeAt(pos);
  if (c === 0x5d) {
    pos++;
    return [];
  }
  if (c === 0x7d) fail('state-mismatch');
  for (;;) {
    starts.push(pos);
    parseValue(depth);
    skipWs();
    c = src.charCodeAt(pos);
    if (c === 0x2c) {
      pos++;
      skipWs();
      continue;
    }
    if (c === 0x5d) {
      pos++;
      return lazyArray(starts.length, (from, to) => decodeElements(text, starts, from, to, depth));
    }
    if (c === 0x7d) fail('state-mismatch');
    return unexpected();
  }
}

/** Elements `from`..`to` (exclusive) of a checked array of `text` (response mode). */
function decodeElements(text: string, starts: readonly number[], from: number, to: number, depth: number): Value[] {
  // A lazy array may be read while another text is being decoded: keep that decoder's state.
  const saved = { src, pos, len, configMode };
  src = text;
  len = text.length;
  configMode = false;
  try {
    const out: Value[] = [];
    for (let i = from; i < to; i++) {
      pos = starts[i]!;
      out.push(parseValue(depth));
    }
    return out;
  } finally {
    ({ src, pos, len, configMode } = saved);
  }
}

function fail(code: 'depth' | 'state-mismatch' | 'ctrl-char' | 'syntax' | 'utf16' | 'invalid-property-name'): never {
  throw new JsonDecodeError(code);
}

/**
 * An unexpected token (or the end of the text). PHP's scanner reads the whole token before the
 * parser rejects it, so a scanner error in that token wins over the syntax error.
 */
function unexpected(): never {
  if (pos < len) {
    const c = src.charCodeAt(pos);
    // Any control character outside a string (NUL included) is a control-character error.
    if (c < 0x20) fail('ctrl-char');
    // A string token: its own errors (unterminated, control character, bad escape) first.
    if (c === 0x22) parseString();
  }
  fail('syntax');
}

function skipWs(): void {
  while (pos < len) {
    const c = src.charCodeAt(pos);
    if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) pos++;
    else return;
  }
}

function parseValue(depth: number): Value {
  const c = src.charCodeAt(pos);
  switch (c) {
    case 0x22: // "
      return parseString();
    case 0x7b: // {
      return parseObject(depth + 1);
    case 0x5b: // [
      return parseArray(depth + 1);
    case 0x74: // t
      if (src.startsWith('true', pos)) {
        pos += 4;
        return true;
      }
      return unexpected();
    case 0x66: // f
      if (src.startsWith('false', pos)) {
        pos += 5;
        return false;
      }
      return unexpected();
    case 0x6e: // n
      if (src.startsWith('null', pos)) {
        pos += 4;
        return null;
      }
      return unexpected();
    default:
      if (c === 0x2d || (c >= 0x30 && c <= 0x39)) return parseNumber();
      return unexpected();
  }
}

function parseArray(depth: number): Value[] {
  if (depth > MAX_DEPTH) fail('depth');
  pos++;
  skipWs();
  const out: Value[] = [];
  let c = src.charCodeAt(pos);
  if (c === 0x5d) {
    pos++;
    return out;
  }
  if (c === 0x7d) fail('state-mismatch');
  for (;;) {
    out.push(parseValue(depth));
    skipWs();
    c = src.charCodeAt(pos);
    if (c === 0x2c) {
      pos++;
      skipWs();
      continue;
    }
    if (c === 0x5d) {
      pos++;
      return out;
    }
    if (c === 0x7d) fail('state-mismatch');
    return unexpected();
  }
}

function parseObject(depth: number): Value {
  if (depth > MAX_DEPTH) fail('depth');
  pos++;
  skipWs();
  let c = src.charCodeAt(pos);
  if (c === 0x7d) {
    pos++;
    return configMode ? [] : new JsonObject();
  }
  if (c === 0x5d) fail('state-mismatch');
  const out: JsonObject | PhpArray = configMode ? new PhpArray() : new JsonObject();
  for (;;) {
    if (c !== 0x22) unexpected();
    const key = parseKey();
    skipWs();
    if (src.charCodeAt(pos) !== 0x3a) unexpected();
    pos++;
    skipWs();
    const value = parseValue(depth);
    if (!configMode && key.length > 0) {
      const first = key.charCodeAt(0);
      if (first === 0) fail('invalid-property-name');
      else if (first === 0x5b && key === '[]') bracketKey = true;
    }
    // Map#set keeps the position of the first occurrence and stores the last value.
    out.set(key, value);
    skipWs();
    c = src.charCodeAt(pos);
    if (c === 0x2c) {
      pos++;
      skipWs();
      c = src.charCodeAt(pos);
      continue;
    }
    if (c === 0x7d) {
      pos++;
      return out;
    }
    if (c === 0x5d) fail('state-mismatch');
    return unexpected();
  }
}

/**
 * Keys repeat in nearly every object of a response. A small direct-mapped cache hands out one
 * string instance per key: no copy of the key per object, and its hash (computed by the first
 * `Map` that sees it) is reused by every later map and lookup.
 */
const KEY_CACHE_SIZE = 512;
const MAX_CACHED_KEY = 64;
const keyCache: string[] = new Array<string>(KEY_CACHE_SIZE).fill('');

/** `parseString` for a key: a plain (escape-free, short) key comes from the cache. */
function parseKey(): string {
  const start = pos + 1;
  let p = start;
  let h = 0;
  let c = src.charCodeAt(p);
  while (c >= 0x20 && c !== 0x22 && c !== 0x5c) {
    h = (h * 31 + c) | 0;
    c = src.charCodeAt(++p);
  }
  const n = p - start;
  if (c !== 0x22 || n > MAX_CACHED_KEY) return parseString();
  pos = p + 1;
  const slot = h & (KEY_CACHE_SIZE - 1);
  const cached = keyCache[slot]!;
  if (cached.length === n && src.startsWith(cached, start)) return cached;
  const key = src.slice(start, p);
  keyCache[slot] = key;
  return key;
}

/** `pos` is at the opening quote; returns the decoded string with `pos` after the closing quote. */
function parseString(): string {
  let start = ++pos;
  let out = '';
  for (;;) {
    const c = src.charCodeAt(pos);
    if (c >= 0x20 && c !== 0x22 && c !== 0x5c) {
      pos++;
      continue;
    }
    if (c === 0x22) {
      const tail = src.slice(start, pos);
      pos++;
      return out === '' ? tail : out + tail;
    }
    if (c === 0x5c) {
      out += src.slice(start, pos);
      out += parseEscape();
      start = pos;
      continue;
    }
    // A control character, or the end of the text (PHP's NUL terminator).
    fail('ctrl-char');
  }
}

function hexValue(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  const l = c | 0x20;
  if (l >= 0x61 && l <= 0x66) return l - 0x61 + 10;
  return -1;
}

/** Four hex digits at `at`, or -1. */
function hex4(at: number): number {
  if (at + 4 > len) return -1;
  const a = hexValue(src.charCodeAt(at));
  const b = hexValue(src.charCodeAt(at + 1));
  const c = hexValue(src.charCodeAt(at + 2));
  const d = hexValue(src.charCodeAt(at + 3));
  if ((a | b | c | d) < 0) return -1;
  return (a << 12) | (b << 8) | (c << 4) | d;
}

/** `pos` is at a backslash inside a string; returns the decoded text and advances `pos`. */
function parseEscape(): string {
  const c = src.charCodeAt(pos + 1);
  pos += 2;
  switch (c) {
    case 0x22:
      return '"';
    case 0x5c:
      return '\\';
    case 0x2f:
      return '/';
    case 0x62:
      return '\b';
    case 0x66:
      return '\f';
    case 0x6e:
      return '\n';
    case 0x72:
      return '\r';
    case 0x74:
      return '\t';
    case 0x75: {
      const u = hex4(pos);
      if (u < 0) fail('syntax');
      pos += 4;
      if (u < 0xd800 || u > 0xdfff) return String.fromCharCode(u);
      if (u >= 0xdc00) fail('utf16');
      // A high surrogate must be followed by an escaped low surrogate.
      if (src.charCodeAt(pos) === 0x5c && src.charCodeAt(pos + 1) === 0x75) {
        const low = hex4(pos + 2);
        if (low >= 0xdc00 && low <= 0xdfff) {
          pos += 6;
          return String.fromCharCode(u, low);
        }
      }
      return fail('utf16');
    }
    default:
      return fail('syntax');
  }
}

const POW10 = Array.from({ length: 16 }, (_, k) => 10 ** k);

/** int64 minimum magnitude: a 19-digit literal at or above it does not fit (except −2^63). */
const INT64_MIN_DIGITS = '9223372036854775808';

function parseNumber(): Value {
  const start = pos;
  let c = src.charCodeAt(pos);
  const negative = c === 0x2d;
  if (negative) c = src.charCodeAt(++pos);
  const digitsStart = pos;
  let n = 0;
  if (c === 0x30) {
    c = src.charCodeAt(++pos);
  } else if (c >= 0x31 && c <= 0x39) {
    do {
      n = n * 10 + (c - 0x30);
      c = src.charCodeAt(++pos);
    } while (c >= 0x30 && c <= 0x39);
  } else {
    // PHP rejects the lone `-` itself, whatever follows.
    return fail('syntax');
  }
  let isFloat = false;
  if (c === 0x2e) {
    const fractionStart = pos + 1;
    c = src.charCodeAt(++pos);
    if (!(c >= 0x30 && c <= 0x39)) fail('syntax');
    do {
      n = n * 10 + (c - 0x30);
      c = src.charCodeAt(++pos);
    } while (c >= 0x30 && c <= 0x39);
    // At most 15 digits in all and no exponent: n < 10^15 and 10^k are exact doubles, so their
    // quotient is the correctly rounded value of the literal — what `Number()` of its text gives.
    if (c !== 0x65 && c !== 0x45 && pos - digitsStart <= 16) {
      const scaled = n / POW10[pos - fractionStart]!;
      return new PhpFloat(negative ? -scaled : scaled);
    }
    isFloat = true;
  }
  if (c === 0x65 || c === 0x45) {
    c = src.charCodeAt(++pos);
    if (c === 0x2b || c === 0x2d) c = src.charCodeAt(++pos);
    if (!(c >= 0x30 && c <= 0x39)) fail('syntax');
    do c = src.charCodeAt(++pos);
    while (c >= 0x30 && c <= 0x39);
    isFloat = true;
  }
  if (isFloat) return new PhpFloat(Number(src.slice(start, pos)));
  const digits = pos - digitsStart;
  if (digits <= 15) return negative ? (n === 0 ? 0 : -n) : n;
  if (digits > 19) return new PhpFloat(Number(src.slice(start, pos)));
  if (digits === 19) {
    const text = src.slice(digitsStart, pos);
    if (text > INT64_MIN_DIGITS || (text === INT64_MIN_DIGITS && !negative)) {
      return new PhpFloat(Number(src.slice(start, pos)));
    }
  }
  const big = BigInt(src.slice(start, pos));
  return big >= -9007199254740991n && big <= 9007199254740991n ? Number(big) : big;
}
