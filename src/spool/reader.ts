/**
 * Reads a spool file's frames (frame.ts) back, in order, while the writer may still append to it:
 * the main thread's output phase reads its finished spool with it, and the output worker reads
 * the frames flushed so far. The read buffer stays around 1 MiB: larger ones only added to the RSS.
 */
import * as fs from 'node:fs';
import { ValueDecoder } from './valueCodec.ts';

/** Read chunk size. */
const READ_CHUNK = 1024 * 1024;

/**
 * Reads the frames of a spool file from its start, up to `limit` bytes: the end of the frames
 * flushed so far, which may grow while the writer goes on (`extend`). One decoder serves all
 * frames, in order, because map keys are numbered across frames.
 */
export class SpoolReader {
  private readonly fd: number;
  private buf = Buffer.allocUnsafe(READ_CHUNK);
  private have = 0; // valid bytes in buf
  private start = 0; // first unconsumed byte in buf
  private filePos = 0;
  private limit = 0;
  private dec = new ValueDecoder(this.buf);

  constructor(fd: number) {
    this.fd = fd;
  }

  /** Bytes of the file read up to the end of the last frame returned. */
  get position(): number {
    return this.filePos - (this.have - this.start);
  }

  /** Bytes of the file that hold complete frames (never less than before). */
  extend(limit: number): void {
    if (limit > this.limit) this.limit = limit;
  }

  /** Back to the first frame, with a fresh key table. */
  rewind(): void {
    this.have = 0;
    this.start = 0;
    this.filePos = 0;
    this.dec = new ValueDecoder(this.buf);
  }

  /** The next frame: a decoder at its payload, valid until the next call; undefined at `limit`. */
  next(): ValueDecoder | undefined {
    if (!this.fill(4)) return undefined;
    const len = this.buf.readUInt32LE(this.start);
    if (!this.fill(4 + len)) throw new Error('spool: truncated file');
    const dec = this.dec;
    dec.buf = this.buf;
    dec.pos = this.start + 4;
    this.start += 4 + len;
    return dec;
  }

  /** Makes `need` bytes available from `start`; false when the limit comes first. */
  private fill(need: number): boolean {
    if (this.have - this.start >= need) return true;
    if (this.start > 0) {
      this.buf.copy(this.buf, 0, this.start, this.have);
      this.have -= this.start;
      this.start = 0;
    }
    if (need > this.buf.length) {
      const next = Buffer.allocUnsafe(Math.max(need, this.buf.length * 2));
      this.buf.copy(next, 0, 0, this.have);
      this.buf = next;
    }
    while (this.have < need && this.filePos < this.limit) {
      const n = fs.readSync(this.fd, this.buf, this.have, Math.min(this.buf.length - this.have, this.limit - this.filePos), this.filePos);
      if (n <= 0) break;
      this.have += n;
      this.filePos += n;
    }
    return this.have - this.start >= need;
  }
}
