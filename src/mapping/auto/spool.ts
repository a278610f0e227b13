/**
 * Disk spool for the automatic parser's batches (spec 04 §0 "two phases").
 *
 * The reference keeps every analysed batch in memory until the output phase. We append each
 * batch to a file instead and stream the batches back, in arrival order, when the tables are
 * written, so memory does not grow with the number of rows.
 *
 * Codec: a compact tagged binary encoding of the value model that round-trips exactly
 * (JsonObject / PhpArray / list, int / bigint / PhpFloat incl. -0, INF, NaN, any string incl.
 * lone surrogates, key order). Batches are framed with their byte length. Frames are collected
 * in an in-memory buffer that is written with one `fs.writeSync` per MiB; a run whose batches
 * fit in that buffer never touches the disk. Both buffers (write and read) stay around 1 MiB:
 * larger ones only added to the RSS.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { randomBytes } from 'node:crypto';
import { JsonObject, PhpArray, PhpFloat, type Value } from '../../php/value.ts';

const T_NULL = 0;
const T_FALSE = 1;
const T_TRUE = 2;
const T_INT32 = 3;
const T_INT53 = 4;
const T_BIGINT = 5;
const T_FLOAT = 6;
const T_ASCII = 7;
const T_UTF8 = 8;
const T_UTF16 = 9;
const T_LIST = 10;
const T_OBJECT = 11;
const T_PHPARRAY = 12;
/** A map key seen for the first time: the tagged string follows; it gets the next key id. */
const T_KEYNEW = 13;
/** A map key by id (u32). */
const T_KEYREF = 14;

/**
 * Map keys repeat in nearly every record: they are written once and then referenced by id (the
 * reader rebuilds the same table in the same order and reuses one string instance per key).
 * The table is capped so that data with ever-new keys cannot grow it without bound.
 */
const MAX_KEYS = 1 << 16;
const MAX_KEY_LENGTH = 256;

/** Flush the write buffer to disk once it holds this much. */
const FLUSH_AT = 1024 * 1024;
/** Read chunk size. */
const READ_CHUNK = 1024 * 1024;

interface WellFormed {
  isWellFormed(): boolean;
}

/** A growable byte buffer with the encoder for the value model. */
export class ValueEncoder {
  buf: Buffer;
  pos = 0;
  private readonly keys = new Map<string, number>();

  constructor(initial = 64 * 1024) {
    this.buf = Buffer.allocUnsafe(initial);
  }

  ensure(n: number): void {
    const need = this.pos + n;
    if (need <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < need) size *= 2;
    const next = Buffer.allocUnsafe(size);
    this.buf.copy(next, 0, 0, this.pos);
    this.buf = next;
  }

  u8(v: number): void {
    this.ensure(1);
    this.buf[this.pos++] = v;
  }

  u32(v: number): void {
    this.ensure(4);
    this.buf.writeUInt32LE(v, this.pos);
    this.pos += 4;
  }

  string(s: string): void {
    const n = s.length;
    // Short strings: copy char codes while they are ASCII (no native call).
    if (n < 48) {
      this.ensure(5 + n);
      const b = this.buf;
      const start = this.pos;
      let p = start + 5;
      let i = 0;
      for (; i < n; i++) {
        const c = s.charCodeAt(i);
        if (c >= 0x80) break;
        b[p++] = c;
      }
      if (i === n) {
        b[start] = T_ASCII;
        b.writeUInt32LE(n, start + 1);
        this.pos = p;
        return;
      }
    }
    if (!(s as unknown as WellFormed).isWellFormed()) {
      this.ensure(5 + 2 * n);
      this.buf[this.pos] = T_UTF16;
      this.buf.writeUInt32LE(2 * n, this.pos + 1);
      this.buf.write(s, this.pos + 5, 'utf16le');
      this.pos += 5 + 2 * n;
      return;
    }
    this.ensure(5 + 3 * n);
    const written = this.buf.write(s, this.pos + 5, 'utf8');
    this.buf[this.pos] = written === n ? T_ASCII : T_UTF8;
    this.buf.writeUInt32LE(written, this.pos + 1);
    this.pos += 5 + written;
  }

  value(v: Value): void {
    switch (typeof v) {
      case 'string':
        this.string(v);
        return;
      case 'number':
        if ((v | 0) === v && !Object.is(v, -0)) {
          this.ensure(5);
          this.buf[this.pos] = T_INT32;
          this.buf.writeInt32LE(v, this.pos + 1);
          this.pos += 5;
        } else {
          this.ensure(9);
          this.buf[this.pos] = T_INT53;
          this.buf.writeDoubleLE(v, this.pos + 1);
          this.pos += 9;
        }
        return;
      case 'bigint':
        this.ensure(9);
        this.buf[this.pos] = T_BIGINT;
        this.buf.writeBigInt64LE(v, this.pos + 1);
        this.pos += 9;
        return;
      case 'boolean':
        this.u8(v ? T_TRUE : T_FALSE);
        return;
    }
    if (v === null || v === undefined) {
      this.u8(T_NULL);
      return;
    }
    if (v instanceof PhpFloat) {
      this.ensure(9);
      this.buf[this.pos] = T_FLOAT;
      this.buf.writeDoubleLE(v.value, this.pos + 1);
      this.pos += 9;
      return;
    }
    if (Array.isArray(v)) {
      this.ensure(5);
      this.buf[this.pos] = T_LIST;
      this.buf.writeUInt32LE(v.length, this.pos + 1);
      this.pos += 5;
      for (let i = 0; i < v.length; i++) this.value(v[i]!);
      return;
    }
    this.ensure(5);
    this.buf[this.pos] = v instanceof JsonObject ? T_OBJECT : T_PHPARRAY;
    this.buf.writeUInt32LE(v.size, this.pos + 1);
    this.pos += 5;
    // keys() + get(): iterating entries allocates a [key, value] pair per property.
    for (const k of v.keys()) {
      this.key(k);
      this.value(v.get(k)!);
    }
  }

  key(k: string): void {
    const id = this.keys.get(k);
    if (id !== undefined) {
      this.ensure(5);
      const b = this.buf;
      const p = this.pos;
      b[p] = T_KEYREF;
      b[p + 1] = id & 0xff;
      b[p + 2] = (id >>> 8) & 0xff;
      b[p + 3] = (id >>> 16) & 0xff;
      b[p + 4] = id >>> 24;
      this.pos = p + 5;
      return;
    }
    if (this.keys.size < MAX_KEYS && k.length <= MAX_KEY_LENGTH) {
      this.keys.set(k, this.keys.size);
      this.u8(T_KEYNEW);
    }
    this.string(k);
  }
}

/** Decoder over one buffer region. */
export class ValueDecoder {
  buf: Buffer;
  pos: number;
  private readonly keys: string[] = [];

  constructor(buf: Buffer, pos = 0) {
    this.buf = buf;
    this.pos = pos;
  }

  u32(): number {
    const b = this.buf;
    const p = this.pos;
    this.pos = p + 4;
    return (b[p]! | (b[p + 1]! << 8) | (b[p + 2]! << 16)) + b[p + 3]! * 0x1000000;
  }

  string(): string {
    const v = this.value();
    if (typeof v !== 'string') throw new Error('spool: string expected');
    return v;
  }

  key(): string {
    const tag = this.buf[this.pos];
    if (tag === T_KEYREF) {
      this.pos++;
      return this.keys[this.u32()]!;
    }
    if (tag === T_KEYNEW) {
      this.pos++;
      const k = this.string();
      this.keys.push(k);
      return k;
    }
    return this.string();
  }

  private ascii(n: number): string {
    const b = this.buf;
    const start = this.pos;
    this.pos += n;
    // Concatenating char codes is cheaper than the native call only for the shortest strings: from
    // 13 characters the result is a cons string, flattened (copied again) where it is read.
    if (n < 8) {
      let s = '';
      for (let i = start; i < start + n; i++) s += String.fromCharCode(b[i]!);
      return s;
    }
    return b.toString('latin1', start, start + n);
  }

  value(): Value {
    const b = this.buf;
    const tag = b[this.pos++];
    switch (tag) {
      case T_NULL:
        return null;
      case T_FALSE:
        return false;
      case T_TRUE:
        return true;
      case T_INT32: {
        const p = this.pos;
        this.pos = p + 4;
        return b[p]! | (b[p + 1]! << 8) | (b[p + 2]! << 16) | (b[p + 3]! << 24);
      }
      case T_INT53: {
        const v = b.readDoubleLE(this.pos);
        this.pos += 8;
        return v;
      }
      case T_BIGINT: {
        const v = b.readBigInt64LE(this.pos);
        this.pos += 8;
        return v;
      }
      case T_FLOAT: {
        const v = b.readDoubleLE(this.pos);
        this.pos += 8;
        return new PhpFloat(v);
      }
      case T_ASCII:
        return this.ascii(this.u32());
      case T_UTF8: {
        const n = this.u32();
        const s = b.toString('utf8', this.pos, this.pos + n);
        this.pos += n;
        return s;
      }
      case T_UTF16: {
        const n = this.u32();
        const s = b.toString('utf16le', this.pos, this.pos + n);
        this.pos += n;
        return s;
      }
      case T_LIST: {
        const n = this.u32();
        const out: Value[] = new Array(n);
        for (let i = 0; i < n; i++) out[i] = this.value();
        return out;
      }
      case T_OBJECT:
      case T_PHPARRAY: {
        const n = this.u32();
        const m = tag === T_OBJECT ? new JsonObject() : new PhpArray();
        for (let i = 0; i < n; i++) {
          const k = this.key();
          m.set(k, this.value());
        }
        return m;
      }
      default:
        throw new Error(`spool: corrupt data (tag ${String(tag)})`);
    }
  }
}

/** One queued batch (spec 04 §4.2 step 4). */
export interface SpooledBatch {
  records: Value[];
  dataType: string;
  parentColumns: Map<string, Value>;
  /** The records' link digests (`linkDigest`, 32 hex characters each), when computed before spooling. */
  digests?: string[];
}

const DIGEST_LENGTH = 32;

function encodeBatch(enc: ValueEncoder, batch: SpooledBatch): void {
  const frameStart = enc.pos;
  enc.u32(0);
  enc.string(batch.dataType);
  enc.u32(batch.parentColumns.size);
  for (const [k, v] of batch.parentColumns) {
    enc.string(k);
    enc.value(v);
  }
  enc.u32(batch.records.length);
  const digests = batch.digests;
  enc.u8(digests ? 1 : 0);
  if (digests) {
    enc.ensure(digests.length * DIGEST_LENGTH);
    for (const d of digests) enc.pos += enc.buf.write(d, enc.pos, DIGEST_LENGTH, 'latin1');
  }
  for (const r of batch.records) enc.value(r);
  enc.buf.writeUInt32LE(enc.pos - frameStart - 4, frameStart);
}

/** A batch whose records are decoded one at a time, in order, by `next()` (`count` calls). */
export interface StreamedBatch {
  dataType: string;
  parentColumns: Map<string, Value>;
  count: number;
  next(): Value;
  /** The spooled link digest of the record `next()` returned last, if the batch has them. */
  digest(): string | undefined;
}

interface FrameHeader {
  dataType: string;
  parentColumns: Map<string, Value>;
  count: number;
  /** Where the digests are in `dec.buf`, or -1. */
  digestsAt: number;
}

function decodeHeader(dec: ValueDecoder): FrameHeader {
  const dataType = dec.string();
  const pcCount = dec.u32();
  const parentColumns = new Map<string, Value>();
  for (let i = 0; i < pcCount; i++) {
    const k = dec.string();
    parentColumns.set(k, dec.value());
  }
  const count = dec.u32();
  let digestsAt = -1;
  if (dec.buf[dec.pos++] === 1) {
    digestsAt = dec.pos;
    dec.pos += count * DIGEST_LENGTH;
  }
  return { dataType, parentColumns, count, digestsAt };
}

/** The digest of record `i` of a frame whose digests start at `digestsAt` in `buf`. */
function digestAt(buf: Buffer, digestsAt: number, i: number): string {
  const at = digestsAt + i * DIGEST_LENGTH;
  return buf.toString('latin1', at, at + DIGEST_LENGTH);
}

/** The batch of the frame at `dec`, its records decoded as they are consumed. */
export function streamOf(dec: ValueDecoder): StreamedBatch {
  const { dataType, parentColumns, count, digestsAt } = decodeHeader(dec);
  const buf = dec.buf;
  let left = count;
  return {
    dataType,
    parentColumns,
    count,
    next: () => {
      if (left-- <= 0) throw new Error('spool: no more records in this batch');
      return dec.value();
    },
    digest: () => (digestsAt < 0 ? undefined : digestAt(buf, digestsAt, count - left - 1)),
  };
}

function decodeBatch(dec: ValueDecoder): SpooledBatch {
  const { dataType, parentColumns, count, digestsAt } = decodeHeader(dec);
  const digests: string[] = [];
  for (let i = 0; digestsAt >= 0 && i < count; i++) digests.push(digestAt(dec.buf, digestsAt, i));
  const records: Value[] = new Array(count);
  for (let i = 0; i < count; i++) records[i] = dec.value();
  return { records, dataType, parentColumns, ...(digestsAt >= 0 ? { digests } : {}) };
}

let spoolCounter = 0;

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
    encodeBatch(this.enc, batch);
    this.count++;
    if (this.enc.pos >= FLUSH_AT || this.options.flushEachBatch) this.flush();
  }

  /** Writes the batches collected in memory to the file (creating it). */
  flush(): void {
    if (this.enc.pos === 0) return;
    if (this.fd === undefined) {
      fs.mkdirSync(this.dir, { recursive: true });
      this.file = path.join(this.dir, `auto-parser-${process.pid}-${++spoolCounter}-${randomBytes(4).toString('hex')}.spool`);
      this.fd = fs.openSync(this.file, 'w+', 0o600);
    }
    let off = 0;
    while (off < this.enc.pos) {
      off += fs.writeSync(this.fd, this.enc.buf, off, this.enc.pos - off, this.fileBytes + off);
    }
    this.fileBytes += this.enc.pos;
    this.enc.pos = 0;
    // Do not keep a huge buffer around after an exceptionally large batch.
    if (this.enc.buf.length > 4 * FLUSH_AT) this.enc.buf = Buffer.allocUnsafe(1024 * 1024);
    this.options.onFlush?.(this.fileBytes);
  }

  /** Streams the batches back in arrival order. Appending while iterating is not supported. */
  *batches(): Generator<SpooledBatch> {
    for (const dec of this.frames()) yield decodeBatch(dec);
  }

  /**
   * Like `batches()`, but each batch's records are decoded only as they are consumed: a record
   * is garbage as soon as it was written out, instead of living (and being promoted to the old
   * generation) as long as its whole batch. Records not consumed are skipped.
   */
  *streams(): Generator<StreamedBatch> {
    for (const dec of this.frames()) yield streamOf(dec);
  }

  /** The frames in order: a decoder positioned at each frame's payload, valid until the next one. */
  private *frames(): Generator<ValueDecoder> {
    if (this.fd === undefined) {
      // Everything is still in memory.
      const end = this.enc.pos;
      const buf = this.enc.buf;
      const dec = new ValueDecoder(buf);
      let p = 0;
      while (p < end) {
        const len = buf.readUInt32LE(p);
        dec.buf = buf;
        dec.pos = p + 4;
        p += 4 + len;
        yield dec;
      }
      return;
    }
    this.flush();
    const reader = new SpoolReader(this.fd);
    reader.extend(this.fileBytes);
    for (let dec = reader.next(); dec !== undefined; dec = reader.next()) yield dec;
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
