/**
 * Reads back records written in the reference's dialect (csv.ts, bufferedFile.ts): every field
 * quoted, `"` doubled, each record ended by LF, zero cells = an empty line. Quotes, commas and LF
 * are ASCII, so they are found in the bytes without decoding (no UTF-8 sequence contains them).
 */
import fs from 'node:fs';

const QUOTE = 0x22;
const COMMA = 0x2c;
const LF = 0x0a;
const CHUNK = 1024 * 1024;

/** The records of `file` (all of them, in order), streamed. */
export function* renderedRows(file: string): Generator<string[]> {
  const fd = fs.openSync(file, 'r');
  try {
    const chunk = Buffer.allocUnsafe(CHUNK);
    let pending: Buffer = Buffer.alloc(0);
    for (;;) {
      const n = fs.readSync(fd, chunk, 0, CHUNK, null);
      if (n === 0) {
        if (pending.length > 0) throw new Error(`${file}: the last record has no line end`);
        return;
      }
      const data = pending.length === 0 ? chunk.subarray(0, n) : Buffer.concat([pending, chunk.subarray(0, n)]);
      let start = 0;
      let quoted = false;
      for (let i = 0; i < data.length; i++) {
        const c = data[i];
        // A doubled quote toggles twice; between fields there are only commas.
        if (c === QUOTE) quoted = !quoted;
        else if (c === LF && !quoted) {
          yield record(data, start, i, file);
          start = i + 1;
        }
      }
      pending = Buffer.from(data.subarray(start));
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
