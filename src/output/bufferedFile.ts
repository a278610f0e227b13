/**
 * Appends CSV records (and text) to a file through one fixed-size byte buffer: large writes,
 * flat memory.
 *
 * Records are encoded cell by cell straight into the buffer (the quotes, commas and LF as
 * bytes; ASCII cells copied by char code, others through `Buffer#write`), so no line or chunk
 * strings are built per row. The buffer is written out when the next piece may not fit.
 */
import fs from 'node:fs';
import { PhpFloat, type Value } from '../php/value.ts';
import { writeFixed, writeShortFloatString } from '../php/numbers.ts';
import { csvCell } from './csv.ts';

const BUFFER_BYTES = 256 * 1024;

const QUOTE = 0x22;
const COMMA = 0x2c;
const LF = 0x0a;

export class BufferedFile {
  private readonly fd: number;
  private buf: Buffer | undefined;
  private used = 0;

  constructor(path: string, flags: 'w' | 'a' = 'w') {
    this.fd = fs.openSync(path, flags);
  }

  /** Raw text, encoded as UTF-8. */
  write(text: string): void {
    // A UTF-16 unit takes at most 3 UTF-8 bytes (a surrogate pair 4 for 2 units).
    const buf = this.room(text.length * 3);
    if (buf === undefined) {
      writeAll(this.fd, Buffer.from(text, 'utf8'));
      return;
    }
    this.used += buf.write(text, this.used, 'utf8');
  }

  /**
   * One CSV record of the reference's dialect (spec 04 §1.4) with its LF: every cell quoted,
   * `"` doubled, cells separated by commas. Zero cells give an empty line. The bytes are those
   * of `csvLine(cells.map(csvCell))` encoded as UTF-8: strings are the cells' texts; int32
   * numbers, short decimal floats, null and booleans are written without a text of their own
   * (it would be built only to be copied here), other values through `csvCell`.
   */
  writeRow(cells: readonly Value[]): void {
    const n = cells.length;
    for (let i = 0; i < n; i++) {
      const v = cells[i];
      const last = i === n - 1;
      if (typeof v === 'string') this.cell(v, last);
      else if (typeof v === 'number' && (v | 0) === v) this.int32Cell(v | 0, last);
      else if (v === null || v === undefined || typeof v === 'boolean') this.shortCell(v === true, last);
      else if (!(v instanceof PhpFloat) || !this.floatCell(v.value, last)) this.cell(csvCell(v), last);
    }
    if (n === 0) {
      const buf = this.room(1)!;
      buf[this.used++] = LF;
    }
  }

  /** `"<digits>"` of an int32 (`-0` is `0`) and the separator. */
  private int32Cell(v: number, last: boolean): void {
    const buf = this.room(15)!;
    let p = this.used;
    buf[p++] = QUOTE;
    if (v < 0) buf[p++] = 0x2d;
    // -2^31 has no int32 negation; as a double it is exact.
    p = writeFixed(v < 0 ? -v : v, 0, buf, p);
    buf[p++] = QUOTE;
    buf[p++] = last ? LF : COMMA;
    this.used = p;
  }

  /** `"<text>"` of a float and the separator when `writeShortFloatString` applies; false otherwise. */
  private floatCell(x: number, last: boolean): boolean {
    const buf = this.room(27)!;
    const end = writeShortFloatString(x, buf, this.used + 1);
    if (end < 0) return false;
    buf[this.used] = QUOTE;
    buf[end] = QUOTE;
    buf[end + 1] = last ? LF : COMMA;
    this.used = end + 2;
    return true;
  }

  /** `"1"` (true) or `""` (null, false) and the separator. */
  private shortCell(one: boolean, last: boolean): void {
    const buf = this.room(4)!;
    let p = this.used;
    buf[p++] = QUOTE;
    if (one) buf[p++] = 0x31;
    buf[p++] = QUOTE;
    buf[p++] = last ? LF : COMMA;
    this.used = p;
  }

  /** `"cell"` followed by `,` or, for the last cell, LF. */
  private cell(cell: string, last: boolean): void {
    const n = cell.length;
    // Worst case: 3 bytes per unit (a doubled quote takes 2), two quotes and the separator.
    const buf = this.room(3 * n + 3);
    if (buf === undefined) {
      // Larger than the whole buffer (which `room` has just written out).
      const text = '"' + (cell.includes('"') ? cell.replaceAll('"', '""') : cell) + (last ? '"\n' : '",');
      writeAll(this.fd, Buffer.from(text, 'utf8'));
      return;
    }
    let p = this.used;
    buf[p++] = QUOTE;
    let i = 0;
    if (n < 64) {
      // Short cells: copy while ASCII without a quote (no native call).
      for (; i < n; i++) {
        const c = cell.charCodeAt(i);
        if (c >= 0x80 || c === QUOTE) break;
        buf[p++] = c;
      }
    }
    if (i < n) {
      const rest = i === 0 ? cell : cell.slice(i);
      p += buf.write(rest.includes('"') ? rest.replaceAll('"', '""') : rest, p, 'utf8');
    }
    buf[p++] = QUOTE;
    buf[p++] = last ? LF : COMMA;
    this.used = p;
  }

  /** Appends the bytes of another file. */
  appendFile(path: string): void {
    this.flush();
    const buf = this.room(0)!;
    const fd = fs.openSync(path, 'r');
    try {
      for (;;) {
        const n = fs.readSync(fd, buf, 0, buf.length, null);
        if (n === 0) break;
        writeAll(this.fd, buf.subarray(0, n));
      }
    } finally {
      fs.closeSync(fd);
    }
  }

  /** The buffer with at least `bytes` free (written out first if needed), or undefined when it never can. */
  private room(bytes: number): Buffer | undefined {
    let buf = this.buf;
    if (buf === undefined) buf = this.buf = Buffer.allocUnsafe(BUFFER_BYTES);
    if (this.used + bytes <= buf.length) return buf;
    this.flush();
    return bytes <= buf.length ? buf : undefined;
  }

  flush(): void {
    if (this.used === 0 || this.buf === undefined) return;
    writeAll(this.fd, this.buf.subarray(0, this.used));
    this.used = 0;
  }

  close(): void {
    this.flush();
    this.buf = undefined;
    fs.closeSync(this.fd);
  }
}

function writeAll(fd: number, bytes: Buffer): void {
  let off = 0;
  while (off < bytes.length) off += fs.writeSync(fd, bytes, off, bytes.length - off);
}
