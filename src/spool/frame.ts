/**
 * The spool's frame format: one batch per frame (spec 04 §4.2 step 4), framed with its byte
 * length — data type, parent columns, record count, the records' link digests when they were
 * computed before spooling, then the records in the value codec (valueCodec.ts).
 *
 * Its own file: the reader (reader.ts) and the writer (spool.ts) read a frame's length prefix and
 * nothing else; only this file knows what a frame holds.
 */
import type { Value } from '../php/value.ts';
import type { ValueDecoder, ValueEncoder } from './valueCodec.ts';

/** One queued batch (spec 04 §4.2 step 4). */
export interface SpooledBatch {
  records: Value[];
  dataType: string;
  parentColumns: Map<string, Value>;
  /** The records' link digests (`linkDigest`, 32 hex characters each), when computed before spooling. */
  digests?: string[];
}

const DIGEST_LENGTH = 32;

/** Appends `batch` as one frame (length prefix included) at the encoder's position. */
export function encodeBatch(enc: ValueEncoder, batch: SpooledBatch): void {
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

/** The batch of the frame at `dec`, all its records decoded at once. */
export function decodeBatch(dec: ValueDecoder): SpooledBatch {
  const { dataType, parentColumns, count, digestsAt } = decodeHeader(dec);
  const digests: string[] = [];
  for (let i = 0; digestsAt >= 0 && i < count; i++) digests.push(digestAt(dec.buf, digestsAt, i));
  const records: Value[] = new Array(count);
  for (let i = 0; i < count; i++) records[i] = dec.value();
  return { records, dataType, parentColumns, ...(digestsAt >= 0 ? { digests } : {}) };
}
