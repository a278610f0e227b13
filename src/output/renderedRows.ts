/**
 * Reads back records written in the reference's dialect (csvCell.ts, bufferedFile.ts): every field
 * quoted, `"` doubled, each record ended by LF, zero cells = an empty line. Quotes, commas and LF
 * are ASCII, so they are found in the bytes without decoding (no UTF-8 sequence contains them).
 */
import fs from 'node:fs';

const QUOTE = 0x22;
const COMMA = 0x2c;
const LF = 0x0a;
const CHUNK = 1024 * 1024;

/**
 * The records of `file` (all of them, in order), streamed. A record longer than a read chunk is
 * collected in parts and joined once it is complete: each byte is scanned once.
 */
export function* renderedRows(file: string): Generator<string[]> {
  const fd = fs.openSync(file, 'r');
  try {
    const chunk = Buffer.allocUnsafe(CHUNK);
    /** The unfinished record's bytes from earlier chunks (copies: the chunk is reused). */
    let parts: Buffer[] = [];
    // A doubled quote toggles twice; between fields there are only commas.
    let quoted = false;
    for (;;) {
      const n = fs.readSync(fd, chunk, 0, CHUNK, null);
      if (n === 0) {
        if (parts.length > 0) throw new Error(`${file}: the last record has no line end`);
        return;
      }
      let start = 0;
      for (let i = 0; i < n; i++) {
        const c = chunk[i];
        if (c === QUOTE) quoted = !quoted;
        else if (c === LF && !quoted) {
          if (parts.length === 0) {
            yield record(chunk, start, i, file);
          } else {
            parts.push(chunk.subarray(start, i));
            const whole = Buffer.concat(parts);
            parts = [];
            yield record(whole, 0, whole.length, file);
          }
          start = i + 1;
        }
      }
      if (start < n) parts.push(Buffer.from(chunk.subarray(start, n)));
    }
  } finally {
    fs.closeSync(fd);
  }
}

/** The cells of the record at bytes [from, to) (its LF excluded). */
function record(data: Buffer, from: number, to: number, file: string): string[] {
  const cells: string[] = [];
  let p = from;
  while (p < to) {
    if (data[p] !== QUOTE) throw new Error(`${file}: a field does not start with a quote`);
    let j = p + 1;
    let doubled = false;
    for (;;) {
      if (j >= to) throw new Error(`${file}: unterminated field`);
      if (data[j] === QUOTE) {
        if (data[j + 1] !== QUOTE) break;
        doubled = true;
        j += 2;
      } else j++;
    }
    const text = data.toString('utf8', p + 1, j);
    cells.push(doubled ? text.replaceAll('""', '"') : text);
    p = j + 1;
    if (p < to) {
      if (data[p] !== COMMA) throw new Error(`${file}: fields are not separated by a comma`);
      p++;
      if (p === to) throw new Error(`${file}: a record ends with a comma`);
    }
  }
  return cells;
}
