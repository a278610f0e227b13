/**
 * Appends text to a file through a fixed-size byte buffer: large writes, flat memory.
 *
 * Small pieces are joined into chunks of a few KiB (young-generation strings that die at once)
 * and encoded as UTF-8 straight into one reused buffer, which is written out when full. No
 * megabyte-sized strings are built: V8 keeps those in large-object space until a full GC, so
 * joining big chunks made the heap (and RSS) grow with the amount of CSV written.
 */
import fs from 'node:fs';

/** Characters gathered before they are encoded into the buffer. */
const CHUNK_CHARS = 8 * 1024;
const BUFFER_BYTES = 256 * 1024;

export class BufferedFile {
  private readonly fd: number;
  private parts: string[] = [];
  private pending = 0;
  private buf: Buffer | undefined;
  private used = 0;

  constructor(path: string, flags: 'w' | 'a' = 'w') {
    this.fd = fs.openSync(path, flags);
  }

  write(text: string): void {
    this.parts.push(text);
    this.pending += text.length;
    if (this.pending >= CHUNK_CHARS) this.drain();
  }

  /** Encodes the gathered pieces into the buffer (writing the buffer out first when they may not fit). */
  private drain(): void {
    if (this.parts.length === 0) return;
    const text = this.parts.length === 1 ? this.parts[0]! : this.parts.join('');
    this.parts = [];
    this.pending = 0;
    // A UTF-16 unit takes at most 3 UTF-8 bytes (a surrogate pair 4 for 2 units).
    const worst = text.length * 3;
    if (this.buf === undefined) this.buf = Buffer.allocUnsafe(BUFFER_BYTES);
    if (this.used + worst > this.buf.length) {
      this.writeOut();
      if (worst > this.buf.length) {
        writeAll(this.fd, Buffer.from(text, 'utf8'));
        return;
      }
    }
    this.used += this.buf.write(text, this.used, 'utf8');
  }

  private writeOut(): void {
    if (this.used === 0 || this.buf === undefined) return;
    writeAll(this.fd, this.buf.subarray(0, this.used));
    this.used = 0;
  }

  flush(): void {
    this.drain();
    this.writeOut();
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
