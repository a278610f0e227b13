/**
 * Percent-encoding as PHP does it: `urlencode`, `rawurlencode` and their decoders, for the query
 * strings of the reference (spec 01 §3.3 step 2, §3.4; 02 §1.3; 03 §2.4, §5.3.4).
 *
 * Strings are PHP byte strings in the reference. Here they are JavaScript strings whose UTF-8 form
 * is the PHP byte string. Percent-decoding can yield bytes that are not valid UTF-8; such a byte is
 * kept as the lone surrogate U+DC80..U+DCFF ("surrogate escape"), and the encoders below write it
 * back as the same single byte, so decode → encode round-trips byte for byte.
 */

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

/** Whether the UTF-16 unit at `i` is a high surrogate followed by its low one. */
export function isHighWithLow(s: string, i: number, c: number): boolean {
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
        bytes ??= [];
        bytes.push(h1 * 16 + h2);
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
export function formReencode(v: string): string {
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
