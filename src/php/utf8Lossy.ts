/** Decoding a response's or a file's bytes as PHP's JSON decoder sees them (spec 01 §3.13). */
import { isUtf8 } from 'node:buffer';

/**
 * Decodes UTF-8 bytes, dropping invalid byte sequences (spec 01 §3.13 step 1). A genuine
 * U+FFFD in the input is kept; invalid sequences are removed, not replaced.
 */
export function decodeUtf8Lossy(buf: Uint8Array): string {
  const b = Buffer.isBuffer(buf) ? buf : Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength);
  if (isUtf8(b)) return b.toString('utf8');
  const parts: string[] = [];
  const n = b.length;
  let runStart = 0;
  let i = 0;
  while (i < n) {
    const x = b[i]!;
    if (x < 0x80) {
      i++;
      continue;
    }
    const { length, valid } = utf8PrefixAt(b, i);
    if (length > 0 && valid === length) {
      i += valid;
      continue;
    }
    // Invalid: drop the maximal subpart (at least one byte).
    if (i > runStart) parts.push(b.toString('utf8', runStart, i));
    i += Math.max(valid, 1);
    runStart = i;
  }
  if (n > runStart) parts.push(b.toString('utf8', runStart, n));
  return parts.join('');
}

/**
 * The UTF-8 sequence starting at `i` (Unicode Table 3-7): `length` is how many bytes its lead byte
 * asks for (0 when the byte there starts none), `valid` how many of them, from the lead byte on, are
 * well formed (the maximal subpart that a lossy decoder drops at once).
 */
export function utf8PrefixAt(b: Uint8Array, i: number): { length: number; valid: number } {
  const x = b[i]!;
  let need = 0;
  let lo = 0x80;
  let hi = 0xbf;
  if (x >= 0xc2 && x <= 0xdf) need = 1;
  else if (x >= 0xe0 && x <= 0xef) {
    need = 2;
    if (x === 0xe0) lo = 0xa0;
    else if (x === 0xed) hi = 0x9f;
  } else if (x >= 0xf0 && x <= 0xf4) {
    need = 3;
    if (x === 0xf0) lo = 0x90;
    else if (x === 0xf4) hi = 0x8f;
  } else return { length: 0, valid: 0 };
  let valid = 1;
  for (let k = 1; k <= need && i + k < b.length; k++) {
    const y = b[i + k]!;
    if (y < (k === 1 ? lo : 0x80) || y > (k === 1 ? hi : 0xbf)) break;
    valid++;
  }
  return { length: need + 1, valid };
}
