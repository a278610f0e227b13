/**
 * The spool's frame format. A batch (spec 04 §4.2 step 4) is one frame, or — when its records
 * take more than FRAME_BYTES — a first frame and continuation frames, so that neither the writer's
 * buffer nor a reader's holds a whole huge page: a page of 700,000 records was one frame of
 * 188 MB, held by the main thread while it encoded it and by the output worker while it read it.
 *
 * Each frame: its byte length (u32), then its payload: a kind byte (FIRST or MORE); for FIRST the
 * batch's data type, parent columns, record count and whether link digests follow the records;
 * then, for both, the frame's record count, where its digests start (from the payload's start, 0
 * without digests), the frame's records in the value codec (valueCodec.ts) and their digests.
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
const FIRST = 0;
const MORE = 1;
/** A frame's records beyond this many bytes continue in a frame of their own. */
export const FRAME_BYTES = 1024 * 1024;

/**
 * Appends `batch` as frames (length prefixes included) at the encoder's position. `frameDone` is
 * called after each frame but the last, with the batch not complete yet: the spool may write the
 * encoder's bytes out and start over at position 0 (keys stay numbered across frames).
 */
export function encodeBatch(enc: ValueEncoder, batch: SpooledBatch, frameDone: () => void = () => {}): void {
  const { records, digests } = batch;
  let frameStart = enc.pos;
  enc.u32(0);
  enc.u8(FIRST);
  enc.string(batch.dataType);
  enc.u32(batch.parentColumns.size);
  for (const [k, v] of batch.parentColumns) {
    enc.string(k);
    enc.value(v);
  }
  enc.u32(records.length);
  enc.u8(digests ? 1 : 0);
  let from = 0;
  for (;;) {
    const countAt = enc.pos;
    enc.u32(0);
    enc.u32(0);
    let to = from;
    const digestBytes = digests ? DIGEST_LENGTH : 0;
    while (to < records.length && (to === from || enc.pos - frameStart + (to - from) * digestBytes < FRAME_BYTES))
      enc.value(records[to++]!);
    enc.buf.writeUInt32LE(to - from, countAt);
    if (digests) {
      enc.buf.writeUInt32LE(enc.pos - frameStart - 4, countAt + 4);
      enc.ensure((to - from) * DIGEST_LENGTH);
      for (let i = from; i < to; i++) enc.pos += enc.buf.write(digests[i]!, enc.pos, DIGEST_LENGTH, 'latin1');
    }
    enc.buf.writeUInt32LE(enc.pos - frameStart - 4, frameStart);
    if (to >= records.length) return;
    from = to;
    frameDone();
    frameStart = enc.pos;
    enc.u32(0);
    enc.u8(MORE);
  }
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

/** The next frame's payload, or undefined at the end of the frames available. */
export type NextFrame = () => ValueDecoder | undefined;

/** A frame's records: how many, and where its digests are (in `buf`, or -1). */
interface FrameRecords {
  count: number;
  buf: Buffer;
  digestsAt: number;
}

/** Reads a frame's record count and digest position; `payloadAt`: where its payload starts. */
function frameRecords(dec: ValueDecoder, payloadAt: number): FrameRecords {
  const count = dec.u32();
  const digestsRel = dec.u32();
  return { count, buf: dec.buf, digestsAt: digestsRel === 0 ? -1 : payloadAt + digestsRel };
}

/** The continuation frame a batch needs next; a missing one is a broken spool. */
function continuation(nextFrame: NextFrame): { dec: ValueDecoder; records: FrameRecords } {
  const dec = nextFrame();
  const payloadAt = dec === undefined ? 0 : dec.pos;
  if (dec === undefined || dec.buf[dec.pos++] !== MORE) throw new Error('spool: a batch continues in no frame');
  return { dec, records: frameRecords(dec, payloadAt) };
}

/**
 * The batches of the frames `nextFrame` gives, in order, their records decoded as they are
 * consumed (each batch before the next one is asked for). Records not consumed are skipped.
 */
export function* streamedBatches(nextFrame: NextFrame): Generator<StreamedBatch> {
  for (let dec = nextFrame(); dec !== undefined; dec = nextFrame()) {
    const payloadAt = dec.pos;
    if (dec.buf[dec.pos++] !== FIRST) throw new Error('spool: a batch starts with a continuation frame');
    const dataType = dec.string();
    const pcCount = dec.u32();
    const parentColumns = new Map<string, Value>();
    for (let i = 0; i < pcCount; i++) {
      const k = dec.string();
      parentColumns.set(k, dec.value());
    }
    const count = dec.u32();
    dec.pos++; // whether digests follow: each frame says where its own are
    let frame = frameRecords(dec, payloadAt);
    let current = dec;
    let inFrame = 0;
    let framed = frame.count;
    let lastDigest = -1;
    let left = count;
    yield {
      dataType,
      parentColumns,
      count,
      next: () => {
        if (left-- <= 0) throw new Error('spool: no more records in this batch');
        while (inFrame === frame.count) {
          ({ dec: current, records: frame } = continuation(nextFrame));
          framed += frame.count;
          inFrame = 0;
        }
        lastDigest = inFrame++;
        return current.value();
      },
      digest: () =>
        frame.digestsAt < 0
          ? undefined
          : frame.buf.toString('latin1', frame.digestsAt + lastDigest * DIGEST_LENGTH, frame.digestsAt + (lastDigest + 1) * DIGEST_LENGTH),
    };
    // Frames of records the consumer left: read past them, to the next batch's first frame.
    while (framed < count) framed += continuation(nextFrame).records.count;
  }
}

/** The batches of the frames `nextFrame` gives, all their records decoded at once. */
export function* decodedBatches(nextFrame: NextFrame): Generator<SpooledBatch> {
  for (const stream of streamedBatches(nextFrame)) {
    const records: Value[] = new Array(stream.count);
    const digests: string[] = [];
    for (let i = 0; i < stream.count; i++) {
      records[i] = stream.next();
      const digest = stream.digest();
      if (digest !== undefined) digests.push(digest);
    }
    const { dataType, parentColumns } = stream;
    yield { records, dataType, parentColumns, ...(digests.length > 0 ? { digests } : {}) };
  }
}
