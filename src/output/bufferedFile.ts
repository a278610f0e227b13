/**
 * Appends CSV records (and text) to a file through one fixed-size byte buffer: large writes,
 * flat memory.
 *
 * Records are encoded cell by cell straight into the buffer by csvCell.ts, so no line or chunk
 * strings are built per row. The buffer is written out when the next cell may not fit.
 */
import fs from 'node:fs';
import { PhpFloat, type Value } from '../php/value.ts';
import {
  csvCell,
  FLAG_CELL_BYTES,
  FLOAT_CELL_BYTES,
  INT32_CELL_BYTES,
  textCellBytes,
  textCellString,
  writeEmptyRecord,
  writeFlagCell,
  writeFloatCell,
  writeInt32Cell,
  writeTextCell,
} from './csvCell.ts';

const BUFFER_BYTES = 256 * 1024;

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
   * One CSV record of the reference's dialect (csvCell.ts) with its LF. The bytes are those of
   * `csvCell` of each value, quoted: strings are the cells' texts; int32 numbers, short decimal
   * floats, null and booleans are written without a text of their own (it would be built only to
   * be copied here), other values through `csvCell`.
   */
  writeRow(cells: readonly Value[]): void {
    const n = cells.length;
    for (let i = 0; i < n; i++) {
      const v = cells[i];
      const last = i === n - 1;
      if (typeof v === 'string') this.textCell(v, last);
      else if (typeof v === 'number' && (v | 0) === v) this.used = writeInt32Cell(this.room(INT32_CELL_BYTES)!, this.used, v | 0, last);
      else if (v === null || v === undefined || typeof v === 'boolean')
        this.used = writeFlagCell(this.room(FLAG_CELL_BYTES)!, this.used, v === true, last);
      else if (!(v instanceof PhpFloat) || !this.floatCell(v.value, last)) this.textCell(csvCell(v), last);
    }
    if (n === 0) this.used = writeEmptyRecord(this.room(1)!, this.used);
  }

  /** A float cell when `writeFloatCell` applies; false (nothing written) otherwise. */
  private floatCell(x: number, last: boolean): boolean {
    const end = writeFloatCell(this.room(FLOAT_CELL_BYTES)!, this.used, x, last);
    if (end < 0) return false;
    this.used = end;
    return true;
  }

  private textCell(cell: string, last: boolean): void {
    const buf = this.room(textCellBytes(cell));
    // Larger than the whole buffer (which `room` has just written out): written on its own.
    if (buf === undefined) writeAll(this.fd, Buffer.from(textCellString(cell, last), 'utf8'));
    else this.used = writeTextCell(buf, this.used, cell, last);
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
