/**
 * Disk spool for the automatic parser's batches (spec 04 §0 "two phases").
 *
 * The reference keeps every analysed batch in memory until the output phase. We append each
 * batch to a file instead and stream the batches back, in arrival order, when the tables are
 * written, so memory does not grow with the number of rows.
 *
 * This file is the writer (and the read-back of its own spool). Each batch becomes frames
 * (frame.ts) of values in the spool's codec (valueCodec.ts): one, or a frame per MiB of a huge
 * batch's records. Frames are collected in an in-memory buffer that is written with one
 * `fs.writeSync` per MiB; a run whose batches fit in that buffer never touches the disk. Both
 * buffers (write and read, reader.ts) stay around 1 MiB, whatever the size of a page: larger
 * ones only added to the RSS. `onFlush` is told at batch boundaries only: a reader of the file
 * (the output worker) never meets half a batch.
 *
 * The folder depends on the PHP value model (src/php/) alone: the automatic parser writes and
 * reads spools, and so does the output worker (src/outputWorker/), which reads the same file.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ValueDecoder, ValueEncoder } from './valueCodec.ts';
import { decodedBatches, encodeBatch, streamedBatches, type NextFrame, type SpooledBatch, type StreamedBatch } from './frame.ts';
import { SpoolReader } from './reader.ts';

/** Flush the write buffer to disk once it holds this much. */
const FLUSH_AT = 1024 * 1024;

let spoolCounter = 0;

export interface SpoolOptions {
  /** Write every batch to the file at once instead of collecting a MiB first. */
  flushEachBatch?: boolean;
  /** Called after each write to the file with the file's length (always at a frame boundary). */
  onFlush?: (bytes: number) => void;
}

/** Append-only batch spool with sequential read-back. */
export class Spool {
  private readonly dir: string;
  private readonly options: SpoolOptions;
  private readonly enc = new ValueEncoder(1024 * 1024);
  private file: string | undefined;
  private fd: number | undefined;
  private fileBytes = 0;
  private count = 0;

  constructor(dir: string, options: SpoolOptions = {}) {
    this.dir = dir;
    this.options = options;
  }

  /** Number of batches appended. */
  get size(): number {
    return this.count;
  }

  /** Bytes written to the file so far (complete frames). */
  get written(): number {
    return this.fileBytes;
  }

  /** The spool file, once something was written to it. */
  get path(): string | undefined {
    return this.file;
  }

  append(batch: SpooledBatch): void {
    encodeBatch(this.enc, batch, () => {
      if (this.enc.pos >= FLUSH_AT) this.writeOut();
    });
    this.count++;
    if (this.enc.pos >= FLUSH_AT || this.options.flushEachBatch) this.flush();
  }

  /** Writes the batches collected in memory to the file (creating it), and says so (`onFlush`). */
  flush(): void {
    if (this.enc.pos === 0) return;
    this.writeOut();
    this.options.onFlush?.(this.fileBytes);
  }

  /** Writes the frames collected in memory to the file (creating it), a batch's last one or not. */
  private writeOut(): void {
    if (this.fd === undefined) {
      fs.mkdirSync(this.dir, { recursive: true });
      // Unique in the run's own folder by process, counter and a random tail (threads count
      // separately); 'wx+' refuses a file that exists. Math.random, not node:crypto: loading
      // crypto was ~5 ms of every start (issue 28), and the name guards nothing secret.
      const tail = Math.random().toString(36).slice(2, 10);
      this.file = path.join(this.dir, `auto-parser-${process.pid}-${++spoolCounter}-${tail}.spool`);
      this.fd = fs.openSync(this.file, 'wx+', 0o600);
    }
    let off = 0;
    while (off < this.enc.pos) {
      off += fs.writeSync(this.fd, this.enc.buf, off, this.enc.pos - off, this.fileBytes + off);
    }
    this.fileBytes += this.enc.pos;
    this.enc.pos = 0;
    // Do not keep a huge buffer around after an exceptionally large batch.
    if (this.enc.buf.length > 4 * FLUSH_AT) this.enc.buf = Buffer.allocUnsafe(1024 * 1024);
  }

  /** Streams the batches back in arrival order. Appending while iterating is not supported. */
  batches(): Generator<SpooledBatch> {
    return decodedBatches(this.frames());
  }

  /**
   * Like `batches()`, but each batch's records are decoded only as they are consumed: a record
   * is garbage as soon as it was written out, instead of living (and being promoted to the old
   * generation) as long as its whole batch. Records not consumed are skipped.
   */
  streams(): Generator<StreamedBatch> {
    return streamedBatches(this.frames());
  }

  /** The frames in order: each call gives a decoder at the next frame's payload, valid until the next call. */
  private frames(): NextFrame {
    if (this.fd === undefined) {
      // Everything is still in memory.
      const end = this.enc.pos;
      const buf = this.enc.buf;
      const dec = new ValueDecoder(buf);
      let p = 0;
      return () => {
        if (p >= end) return undefined;
        const len = buf.readUInt32LE(p);
        dec.pos = p + 4;
        p += 4 + len;
        return dec;
      };
    }
    this.flush();
    const reader = new SpoolReader(this.fd);
    reader.extend(this.fileBytes);
    return () => reader.next();
  }

  /** Closes and deletes the spool file. */
  close(): void {
    if (this.fd !== undefined) {
      try {
        fs.closeSync(this.fd);
      } catch {
        // already closed
      }
      this.fd = undefined;
    }
    if (this.file !== undefined) {
      try {
        fs.rmSync(this.file, { force: true });
      } catch {
        // best effort
      }
      this.file = undefined;
    }
    this.enc.pos = 0;
    this.fileBytes = 0;
  }
}
