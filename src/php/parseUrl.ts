/**
 * PHP 7.4 `parse_url`, and Guzzle PSR-7's `Uri::parse` built on it (spec 01 §3.3 step 2, 03 §2.4).
 */
import { isHighWithLow, urlencode } from './urlEncoding.ts';

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
  for (const ch of s)
    out += ch === '&' || ch === '=' || ch === ':' || ch === '/' || ch === '@' || ch === '?' || ch === '#' ? ch : urlencode(ch);
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
      s < ue &&
      str.charCodeAt(s) === 91 &&
      he > s &&
      str.charCodeAt(he - 1) === 93 &&
      (!guzzle || (s >= 3 && str.startsWith('://', s - 3) && /^\[[0-9:a-f]+\]/.test(str.slice(s, he))));
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
