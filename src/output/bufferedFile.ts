/** Appends text to a file through a fixed-size buffer: large writes, flat memory. */
import fs from 'node:fs';

const FLUSH_AT = 1 << 20;

export class BufferedFile {
  private readonly fd: number;
  private parts: string[] = [];
  private pending = 0;

  constructor(path: string, flags: 'w' | 'a' = 'w') {
    this.fd = fs.openSync(path, flags);
  }

  write(text: string): void {
    this.parts.push(text);
    this.pending += text.length;
    if (this.pending >= FLUSH_AT) this.flush();
  }

  flush(): void {
    if (this.parts.length === 0) return;
    fs.writeSync(this.fd, this.parts.join(''));
    this.parts = [];
    this.pending = 0;
  }

  close(): void {
    this.flush();
    fs.closeSync(this.fd);
  }
}
