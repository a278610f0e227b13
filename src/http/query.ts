/**
 * Query-string encoders of the reference (spec 01 §3.3 step 2, §3.4; 02 §1.3; 03 §2.4, §5.3.4).
 *
 * Strings are PHP byte strings in the reference. Here they are JavaScript strings whose UTF-8 form
 * is the PHP byte string. Percent-decoding can yield bytes that are not valid UTF-8; such a byte is
 * kept as the lone surrogate U+DC80..U+DCFF ("surrogate escape"), and the encoders below write it
 * back as the same single byte, so decode → encode round-trips byte for byte.
 */
import { PhpArray, PhpFloat, isMap, type Value } from '../json/value.ts';
import { phpString } from '../json/numbers.ts';

// ---------------------------------------------------------------------------------------------
// Byte-level helpers

const HEX: readonly string[] = Array.from({ length: 256 }, (_, i) => '%' + (i < 16 ? '0' : '') + i.toString(16).toUpperCase());

function makeTable(chars: string): Uint8Array {
  const t = new Uint8Array(128);
  for (let c = 48; c <= 57; c++) t[c] = 1;
  for (let c = 65; c <= 90; c++) t[c] = 1;
  for (let c = 97; c <= 122; c++) t[c] = 1;
  for (const ch of chars) t[ch.charCodeAt(0)] = 1;
  return t;
}

/** PHP `urlencode` keeps these bytes. */
const FORM_SAFE = makeTable('-_.');
/** PHP `rawurlencode` keeps these bytes. */
const RAW_SAFE = makeTable('-_.~');

function hexVal(c: number): number {
  if (c >= 48 && c <= 57) return c - 48;
  if (c >= 65 && c <= 70) return c - 55;
  if (c >= 97 && c <= 102) return c - 87;
  return -1;
}

/**
 * `%XX` for the UTF-8 bytes of the non-ASCII UTF-16 unit at `i` (and its low surrogate, if paired:
 * the caller then skips it, see `isHighWithLow`).
 */
function encodeNonAscii(s: string, i: number, c: number): string {
  if (c < 0x800) return HEX[0xc0 | (c >> 6)]! + HEX[0x80 | (c & 63)]!;
  if (c >= 0xd800 && c <= 0xdbff) {
    const d = i + 1 < s.length ? s.charCodeAt(i + 1) : 0;
    if (d >= 0xdc00 && d <= 0xdfff) {
      const cp = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00);
      return HEX[0xf0 | (cp >> 18)]! + HEX[0x80 | ((cp >> 12) & 63)]! + HEX[0x80 | ((cp >> 6) & 63)]! + HEX[0x80 | (cp & 63)]!;
    }
    return '%EF%BF%BD';
  }
  if (c >= 0xdc80 && c <= 0xdcff) return HEX[c - 0xdc00]!; // surrogate escape: one raw byte
  if (c >= 0xdc00 && c <= 0xdfff) return '%EF%BF%BD';
  return HEX[0xe0 | (c >> 12)]! + HEX[0x80 | ((c >> 6) & 63)]! + HEX[0x80 | (c & 63)]!;
}

function isHighWithLow(s: string, i: number, c: number): boolean {
  if (c < 0xd800 || c > 0xdbff || i + 1 >= s.length) return false;
  const d = s.charCodeAt(i + 1);
  return d >= 0xdc00 && d <= 0xdfff;
}

function encodeWith(s: string, safe: Uint8Array, spaceAsPlus: boolean): string {
  const n = s.length;
  let i = 0;
  for (; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c >= 128 || safe[c] === 0) break;
  }
  if (i === n) return s;
  let out = s.slice(0, i);
  for (; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c < 128) {
      if (safe[c] === 1) out += s[i];
      else if (c === 32 && spaceAsPlus) out += '+';
      else out += HEX[c];
    } else {
      out += encodeNonAscii(s, i, c);
      if (isHighWithLow(s, i, c)) i++;
    }
  }
  return out;
}

/** PHP `urlencode`: keeps `A-Za-z0-9-_.`, space → `+`, every other UTF-8 byte → `%XX`. */
export function urlencode(s: string): string {
  return encodeWith(s, FORM_SAFE, true);
}

/** PHP `rawurlencode`: keeps `A-Za-z0-9-_.~`, every other UTF-8 byte → `%XX`. */
export function rawurlencode(s: string): string {
  return encodeWith(s, RAW_SAFE, false);
}

/** Strict UTF-8 decoding; a byte that does not start a valid sequence becomes U+DC00+byte. */
function decodeBytes(bytes: number[]): string {
  let out = '';
  const n = bytes.length;
  let i = 0;
  while (i < n) {
    const b = bytes[i]!;
    if (b < 0x80) {
      out += String.fromCharCode(b);
      i++;
      continue;
    }
    let need = 0;
    let lo = 0x80;
    let hi = 0xbf;
    let cp = 0;
    if (b >= 0xc2 && b <= 0xdf) {
      need = 1;
      cp = b & 0x1f;
    } else if (b >= 0xe0 && b <= 0xef) {
      need = 2;
      cp = b & 0x0f;
      if (b === 0xe0) lo = 0xa0;
      else if (b === 0xed) hi = 0x9f;
    } else if (b >= 0xf0 && b <= 0xf4) {
      need = 3;
      cp = b & 0x07;
      if (b === 0xf0) lo = 0x90;
      else if (b === 0xf4) hi = 0x8f;
    }
    let ok = need > 0 && i + need < n;
    for (let k = 1; ok && k <= need; k++) {
      const x = bytes[i + k];
      if (x === undefined || x < (k === 1 ? lo : 0x80) || x > (k === 1 ? hi : 0xbf)) ok = false;
      else cp = (cp << 6) | (x & 0x3f);
    }
    if (ok) {
      out += String.fromCodePoint(cp);
      i += need + 1;
    } else {
      out += String.fromCharCode(0xdc00 + b);
      i++;
    }
  }
  return out;
}

/**
 * PHP `rawurldecode` (optionally after `+` → space, i.e. `urldecode`): `%XX` with two hex digits
 * becomes that byte; any other `%` stays.
 */
export function percentDecode(s: string, plusAsSpace: boolean): string {
  if (s.indexOf('%') === -1) {
    if (!plusAsSpace || s.indexOf('+') === -1) return s;
    return s.replaceAll('+', ' ');
  }
  let out = '';
  let bytes: number[] | undefined;
  const n = s.length;
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c === 37 && i + 2 < n) {
      const h1 = hexVal(s.charCodeAt(i + 1));
      const h2 = hexVal(s.charCodeAt(i + 2));
      if (h1 >= 0 && h2 >= 0) {
        (bytes ??= []).push(h1 * 16 + h2);
        i += 2;
        continue;
      }
    }
    if (bytes !== undefined && bytes.length > 0) {
      out += decodeBytes(bytes);
      bytes.length = 0;
    }
    out += c === 43 && plusAsSpace ? ' ' : s[i];
  }
  if (bytes !== undefined && bytes.length > 0) out += decodeBytes(bytes);
  return out;
}

/**
 * `urlencode(urldecode(v))` in one pass, byte-exact (used for values kept from an endpoint query).
 */
function formReencode(v: string): string {
  const n = v.length;
  let out = '';
  for (let i = 0; i < n; i++) {
    const c = v.charCodeAt(i);
    if (c < 128) {
      if (c === 37 && i + 2 < n) {
        const h1 = hexVal(v.charCodeAt(i + 1));
        const h2 = hexVal(v.charCodeAt(i + 2));
        if (h1 >= 0 && h2 >= 0) {
          const b = h1 * 16 + h2;
          out += b < 128 && FORM_SAFE[b] === 1 ? String.fromCharCode(b) : b === 32 ? '+' : HEX[b];
          i += 2;
          continue;
        }
      }
      if (FORM_SAFE[c] === 1) out += v[i];
      else if (c === 32 || c === 43) out += '+';
      else out += HEX[c];
    } else {
      out += encodeNonAscii(v, i, c);
      if (isHighWithLow(v, i, c)) i++;
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Form encoder: PHP http_build_query (01 §3.4.1)

function appendPairs(parts: string[], key: string, v: Value | undefined): void {
  if (v === null || v === undefined) return;
  switch (typeof v) {
    case 'string':
      parts.push(key + '=' + urlencode(v));
      return;
    case 'number':
    case 'bigint':
      parts.push(key + '=' + String(v));
      return;
    case 'boolean':
      parts.push(key + (v ? '=1' : '=0'));
      return;
  }
  if (v instanceof PhpFloat) {
    parts.push(key + '=' + urlencode(phpString(v)));
    return;
  }
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) appendPairs(parts, key + '%5B' + i + '%5D', v[i]);
    return;
  }
  for (const [k, c] of v) appendPairs(parts, key + '%5B' + urlencode(k) + '%5D', c);
}

/**
 * PHP `http_build_query($params)` with default settings: `&`-joined `key=value` pairs, nested
 * containers in bracket form (`%5B…%5D`), `null` omitted, booleans `1`/`0`, floats in PHP string
 * form, empty containers emit nothing. Keys are not filtered. A scalar argument gives `""`.
 */
export function httpBuildQuery(params: Value): string {
  const parts: string[] = [];
  if (Array.isArray(params)) {
    for (let i = 0; i < params.length; i++) appendPairs(parts, String(i), params[i]);
  } else if (isMap(params)) {
    for (const [k, v] of params) appendPairs(parts, urlencode(k), v);
  }
  return parts.join('&');
}

// ---------------------------------------------------------------------------------------------
// PHP parse_url (used by the GET merge)

/** The components PHP's `parse_url` returns. `''` query/fragment: the delimiter was present. */
export interface PhpUrlParts {
  scheme?: string;
  user?: string;
  pass?: string;
  host?: string;
  port?: number;
  path?: string;
  query?: string;
  fragment?: string;
}

const C_SLASH = 47;
const C_COLON = 58;
const C_QM = 63;
const C_HASH = 35;

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

function isAlnum(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
}

function hasCtrl(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 32 || c === 127) return true;
  }
  return false;
}

/** C `strtol(s, NULL, 10)` (only the magnitude range matters here). */
function strtol(s: string): number {
  let i = 0;
  while (i < s.length && ' \t\n\v\f\r'.includes(s[i]!)) i++;
  let neg = false;
  if (s[i] === '+' || s[i] === '-') {
    neg = s[i] === '-';
    i++;
  }
  let n = 0;
  while (i < s.length && isDigit(s.charCodeAt(i)) && n < 1e9) {
    n = n * 10 + (s.charCodeAt(i) - 48);
    i++;
  }
  return neg ? -n : n;
}

function utf8Length(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (isHighWithLow(s, i, c)) {
      n += 4;
      i++;
    } else n += 3;
  }
  return n;
}

/** Guzzle's Uri::parse urlencodes every run of characters other than `:/@?&=#` first. */
function guzzleEncodePiece(s: string): string {
  let out = '';
  for (const ch of s) out += ch === '&' || ch === '=' || ch === ':' || ch === '/' || ch === '@' || ch === '?' || ch === '#' ? ch : urlencode(ch);
  return out;
}

const ST_PORT = 0;
const ST_HOST = 1;
const ST_PATH = 2;

/**
 * PHP 7.4 `parse_url($str)` (ext/standard/url.c), or `null` where PHP returns `false`.
 *
 * With `guzzle` set, it behaves like Guzzle PSR-7 1.8 `Uri::parse`, which runs `parse_url` on a
 * copy where every character other than `:/@?&=#` is urlencoded (IPv6 `scheme://[…]` prefixes
 * excepted) and decodes the parts again: positions and delimiters are the same, but a space counts
 * as a scheme character (`+`), `+` and non-ASCII do not, ports are read from the encoded text and
 * control characters are kept. Without it, control characters in the parts become `_` as in PHP.
 */
export function phpParseUrl(str: string, guzzle = false): PhpUrlParts | null {
  const ue = str.length;
  const ret: PhpUrlParts = {};
  const clean = guzzle ? (x: string) => x : (x: string) => (hasCtrl(x) ? x.replace(/[\x00-\x1f\x7f]/g, '_') : x);
  const schemeOk = (c: number) => isAlnum(c) || c === 46 || c === 45 || (guzzle ? c === 32 : c === 43);
  const dslash = (at: number) => at + 1 < ue && str.charCodeAt(at) === C_SLASH && str.charCodeAt(at + 1) === C_SLASH;
  let s = 0;
  const e = str.indexOf(':');
  let state: number;

  if (e > 0) {
    let p = 0;
    while (p < e && schemeOk(str.charCodeAt(p))) p++;
    if (p < e) {
      const q = str.indexOf('?');
      if (e + 1 < ue && q !== -1 && e < q) state = ST_PORT;
      else if (dslash(0)) {
        s = 2;
        state = ST_HOST;
      } else state = ST_PATH;
    } else if (e + 1 === ue) {
      ret.scheme = clean(str.slice(0, e));
      return ret;
    } else if (str.charCodeAt(e + 1) !== C_SLASH) {
      p = e + 1;
      while (p < ue && isDigit(str.charCodeAt(p))) p++;
      if ((p === ue || str.charCodeAt(p) === C_SLASH) && p - e < 7) state = ST_PORT;
      else {
        ret.scheme = clean(str.slice(0, e));
        s = e + 1;
        state = ST_PATH;
      }
    } else {
      ret.scheme = clean(str.slice(0, e));
      if (e + 2 < ue && str.charCodeAt(e + 2) === C_SLASH) {
        s = e + 3;
        state = ST_HOST;
        if (ret.scheme.toLowerCase() === 'file' && e + 3 < ue && str.charCodeAt(e + 3) === C_SLASH) {
          if (e + 5 < ue && str.charCodeAt(e + 5) === C_COLON) s = e + 4;
          state = ST_PATH;
        }
      } else {
        s = e + 1;
        state = ST_PATH;
      }
    }
  } else if (e === 0) {
    state = ST_PORT;
  } else if (dslash(0)) {
    s = 2;
    state = ST_HOST;
  } else {
    state = ST_PATH;
  }

  if (state === ST_PORT) {
    const p = e + 1;
    let pp = p;
    while (pp < ue && pp - p < 6 && isDigit(str.charCodeAt(pp))) pp++;
    if (pp - p > 0 && pp - p < 6 && (pp === ue || str.charCodeAt(pp) === C_SLASH)) {
      const port = Number(str.slice(p, pp));
      if (port > 0 && port <= 65535) {
        ret.port = port;
        if (dslash(s)) s += 2;
      } else return null;
      state = ST_HOST;
    } else if (p === pp && pp === ue) {
      return null;
    } else if (dslash(s)) {
      s += 2;
      state = ST_HOST;
    } else state = ST_PATH;
  }

  if (state === ST_HOST) {
    let he = ue;
    for (let i = s; i < ue; i++) {
      const c = str.charCodeAt(i);
      if (c === C_SLASH || c === C_QM || c === C_HASH) {
        he = i;
        break;
      }
    }
    if (he > s) {
      const at = str.lastIndexOf('@', he - 1);
      if (at >= s) {
        const colon = str.indexOf(':', s);
        if (colon !== -1 && colon < at) {
          ret.user = clean(str.slice(s, colon));
          ret.pass = clean(str.slice(colon + 1, at));
        } else {
          ret.user = clean(str.slice(s, at));
        }
        s = at + 1;
      }
    }
    let p = -1;
    const bracketed =
      s < ue && str.charCodeAt(s) === 91 && he > s && str.charCodeAt(he - 1) === 93 && (!guzzle || (s >= 3 && str.startsWith('://', s - 3) && /^\[[0-9:a-f]+\]/.test(str.slice(s, he))));
    if (!bracketed && he > s) {
      const c = str.lastIndexOf(':', he - 1);
      if (c >= s) p = c;
    }
    if (p !== -1) {
      if (ret.port === undefined) {
        const raw = str.slice(p + 1, he);
        const text = guzzle ? guzzleEncodePiece(raw) : raw;
        const len = guzzle ? text.length : utf8Length(raw);
        if (len > 5) return null;
        if (len > 0) {
          const port = strtol(text);
          if (port > 0 && port <= 65535) ret.port = port;
          else return null;
        }
      }
    } else {
      p = he;
    }
    if (p - s < 1) return null;
    ret.host = clean(str.slice(s, p));
    if (he === ue) return ret;
    s = he;
  }

  // just_path
  let pe = ue;
  const h = str.indexOf('#', s);
  if (h !== -1) {
    ret.fragment = clean(str.slice(h + 1, pe));
    pe = h;
  }
  const q = str.indexOf('?', s);
  if (q !== -1 && q < pe) {
    ret.query = clean(str.slice(q + 1, pe));
    pe = q;
  }
  if (s < pe || s === ue) ret.path = clean(str.slice(s, pe));
  return ret;
}

// ---------------------------------------------------------------------------------------------
// GET merge (01 §3.3 step 2, 03 §2.4)

/** A value kept from the endpoint query, already form-encoded. */
class Encoded {
  readonly text: string;
  constructor(text: string) {
    this.text = text;
  }
}

function isParamsEmpty(params: Value): boolean {
  if (isMap(params)) return params.size === 0;
  if (Array.isArray(params)) return params.length === 0;
  return true;
}

/**
 * Merges GET `params` into the endpoint the way the reference does (01 §3.3 step 2): top-level
 * keys `""`/`"0"` (list index 0) are dropped, the endpoint query is split on `&` and the first `=`
 * (raw key, decoded value, a piece without `=` → `""`, repeated key: first position, last value),
 * params replace in place or are appended, the whole query is form-encoded and the URL is put back
 * together (`scheme://[user[:pass]@]host[:port]` only when both scheme and host are non-empty).
 * PHP-empty params (or a scalar) return the endpoint unchanged.
 */
export function mergeParamsIntoUrl(endpoint: string, params: Value): string {
  if (isParamsEmpty(params)) return endpoint;
  const parts: PhpUrlParts = phpParseUrl(endpoint) ?? {};
  const merged = new Map<string, Value | Encoded>();
  const query = parts.query;
  if (query !== undefined && query !== '') {
    for (const piece of query.split('&')) {
      const eq = piece.indexOf('=');
      if (eq === -1) merged.set(piece, new Encoded(''));
      else merged.set(piece.slice(0, eq), new Encoded(formReencode(piece.slice(eq + 1))));
    }
  }
  if (Array.isArray(params)) {
    for (let i = 1; i < params.length; i++) merged.set(String(i), params[i]!);
  } else if (isMap(params)) {
    for (const [k, v] of params) if (k !== '' && k !== '0') merged.set(k, v);
  }
  const pairs: string[] = [];
  for (const [k, v] of merged) {
    if (v instanceof Encoded) pairs.push(urlencode(k) + '=' + v.text);
    else appendPairs(pairs, urlencode(k), v);
  }
  const qs = pairs.join('&');

  let out = '';
  if (parts.scheme && parts.host) {
    out = parts.scheme + '://';
    if (parts.user !== undefined) {
      out += parts.user;
      if (parts.pass !== undefined) out += ':' + parts.pass;
      out += '@';
    }
    out += parts.host;
    if (parts.port !== undefined) out += ':' + parts.port;
  }
  out += parts.path ?? '';
  if (qs !== '') out += '?' + qs;
  if (parts.fragment) out += '#' + parts.fragment;
  return out;
}

// ---------------------------------------------------------------------------------------------
// Q-rebuild (02 §1.3, 01 §3.4.2): Guzzle Query::parse / Query::build (RFC 3986)

export type RebuildValue = string | null | (string | null)[];

function parseGuzzleQuery(qs: string, into: Map<string, Value>): void {
  if (qs === '') return;
  for (const piece of qs.split('&')) {
    const eq = piece.indexOf('=');
    const key = percentDecode(eq === -1 ? piece : piece.slice(0, eq), true);
    const value = eq === -1 ? null : percentDecode(piece.slice(eq + 1), true);
    const existing = into.get(key);
    if (existing === undefined || existing === null) into.set(key, value);
    else if (Array.isArray(existing)) existing.push(value);
    else into.set(key, [existing, value]);
  }
}

/**
 * Parses a query string for the rebuild (02 §1.3): split on `&` and the first `=`, `+` → space then
 * percent-decoding in keys and values, a piece without `=` → `null`, a repeated key collects a list
 * (first position kept; an existing `null` is simply replaced).
 */
export function parseQueryRebuild(qs: string): Map<string, RebuildValue> {
  const m = new Map<string, Value>();
  parseGuzzleQuery(qs, m);
  return m as Map<string, RebuildValue>;
}

function rebuildValue(ek: string, v: Value): string {
  return v === null ? ek : ek + '=' + rawurlencode(phpString(v));
}

/**
 * Builds a query string (02 §1.3): `rawurlencode(key)` then `=` + `rawurlencode(PHP string form)`
 * unless the value is `null`; a list (or configuration map) repeats the key once per element;
 * `true` → `1`, `false` → empty. An empty map gives `""`.
 */
export function buildQueryRebuild(q: ReadonlyMap<string, Value>): string {
  const parts: string[] = [];
  for (const [k, v] of q) {
    const ek = rawurlencode(k);
    if (Array.isArray(v)) for (const x of v) parts.push(rebuildValue(ek, x));
    else if (v instanceof PhpArray) for (const x of v.values()) parts.push(rebuildValue(ek, x));
    else parts.push(rebuildValue(ek, v));
  }
  return parts.join('&');
}

/** Replace variant (`query`, `oauth20`): same key replaced in place, new keys appended. Returns a new map. */
export function mergeReplace(q: ReadonlyMap<string, Value>, authParams: ReadonlyMap<string, Value>): Map<string, Value> {
  const out = new Map<string, Value>(q);
  for (const [k, v] of authParams) out.set(k, v);
  return out;
}

/**
 * Indexed-list variant (`login`, `oauth20.login`): a colliding key is removed from its place and
 * re-added at the end as `k[0]`, `k[1]` after de-duplicating `[existing, auth value]` by PHP string
 * form (first occurrence and its index kept). Returns a new map.
 */
export function mergeIndexedList(q: ReadonlyMap<string, Value>, authParams: ReadonlyMap<string, Value>): Map<string, Value> {
  const out = new Map<string, Value>(q);
  const collided: [string, Value[]][] = [];
  for (const [k, v] of authParams) {
    if (out.has(k)) {
      collided.push([k, [out.get(k)!, v]]);
      out.delete(k);
    } else {
      out.set(k, v);
    }
  }
  for (const [k, values] of collided) {
    const seen = new Set<string>();
    for (let i = 0; i < values.length; i++) {
      const form = phpString(values[i]);
      if (seen.has(form)) continue;
      seen.add(form);
      out.set(`${k}[${i}]`, values[i]!);
    }
  }
  return out;
}

/** Parse `qs`, merge `authParams` with the given variant and rebuild (02 §1.3). */
export function rebuildQuery(qs: string, authParams: ReadonlyMap<string, Value>, variant: 'replace' | 'indexed'): string {
  const q = parseQueryRebuild(qs);
  return buildQueryRebuild(variant === 'replace' ? mergeReplace(q, authParams) : mergeIndexedList(q, authParams));
}

// ---------------------------------------------------------------------------------------------
// response.url with paramIsQuery (03 §5.3.4)

/**
 * The next-page link read as a query string: leading `?` characters removed, then parsed like
 * `parseQueryRebuild` (values are strings, `null` for a piece without `=`, lists for repeated keys).
 */
export function parseQueryParamIsQuery(qs: string): PhpArray {
  let i = 0;
  while (i < qs.length && qs.charCodeAt(i) === C_QM) i++;
  const out = new PhpArray();
  parseGuzzleQuery(i === 0 ? qs : qs.slice(i), out);
  return out;
}
