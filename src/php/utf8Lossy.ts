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
    // Expected length and the allowed range of the second byte (Unicode Table 3-7).
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
    }
    // Length of the maximal prefix of a well-formed sequence starting at i.
    let ok = need > 0 ? 1 : 0;
    if (need > 0) {
      for (let k = 1; k <= need; k++) {
        if (i + k >= n) break;
        const y = b[i + k]!;
        const min = k === 1 ? lo : 0x80;
        const max = k === 1 ? hi : 0xbf;
        if (y < min || y > max) break;
        ok++;
      }
    }
    if (need > 0 && ok === need + 1) {
      i += ok;
      continue;
    }
    // Invalid: drop the maximal subpart (at least one byte).
    if (i > runStart) parts.push(b.toString('utf8', runStart, i));
    i += Math.max(ok, 1);
    runStart = i;
  }
  if (n > runStart) parts.push(b.toString('utf8', runStart, n));
  return parts.join('');
}
