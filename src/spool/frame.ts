/**
 * The spool's frame format. A batch (spec 04 §4.2 step 4) is one frame, or — when its records
 * take more than FRAME_BYTES — a first frame and continuation frames, so that neither the writer's
 * buffer nor a reader's holds a whole huge page: a page of 700,000 records was one frame of
 * 188 MB, held by the main thread while it encoded it and by the output worker while it read it.
 *
 * Each frame: its byte length (u32), then its payload: a kind byte (FIRST or MORE); for FIRST the
 * batch's data type, parent columns and record count; then, for both, the frame's record count,
 * where its records' link digests start (from the payload's start; 0: none were computed before
 * spooling), its records in the value codec (valueCodec.ts) and their digests.
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
  let frameStart = enc.pos;
  enc.u32(0);
  enc.u8(FIRST);
  enc.string(batch.dataType);
  enc.u32(batch.parentColumns.size);
  for (const [k, v] of batch.parentColumns) {
    enc.string(k);
    enc.value(v);
  }
  enc.u32(batch.records.length);
  for (let from = 0; ; ) {
    from = encodeFrameRecords(enc, batch, from, frameStart);
    enc.buf.writeUInt32LE(enc.pos - frameStart - 4, frameStart);
    if (from >= batch.records.length) return;
    frameDone();
    frameStart = enc.pos;
    enc.u32(0);
    enc.u8(MORE);
  }
}

/**
 * Writes the records of the frame that starts at `frameStart` from record `from` on (at least
 * one, then until the frame holds FRAME_BYTES), with their count and digests; returns where the
 * next frame starts.
 */
function encodeFrameRecords(enc: ValueEncoder, { records, digests }: SpooledBatch, from: number, frameStart: number): number {
  const countAt = enc.pos;
  enc.u32(0);
  enc.u32(0);
  const digestBytes = digests ? DIGEST_LENGTH : 0;
  let to = from;
  while (to < records.length && (to === from || enc.pos - frameStart + (to - from) * digestBytes < FRAME_BYTES)) enc.value(records[to++]!);
  enc.buf.writeUInt32LE(to - from, countAt);
  if (digests) {
    enc.buf.writeUInt32LE(enc.pos - frameStart - 4, countAt + 4);
    enc.ensure((to - from) * DIGEST_LENGTH);
    for (let i = from; i < to; i++) enc.pos += enc.buf.write(digests[i]!, enc.pos, DIGEST_LENGTH, 'latin1');
  }
  return to;
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

/** A batch read from its first frame on, pulling its continuation frames as its records are read. */
class FramedBatch implements StreamedBatch {
  readonly dataType: string;
  readonly parentColumns = new Map<string, Value>();
  readonly count: number;
  private readonly nextFrame: NextFrame;
  private dec: ValueDecoder;
  private frame: FrameRecords;
  /** Records read of the current frame, and of the batch's frames read so far. */
  private inFrame = 0;
  private framed: number;
  private left: number;

  /** `dec`: at the payload of the batch's first frame. */
  constructor(dec: ValueDecoder, nextFrame: NextFrame) {
    const payloadAt = dec.pos;
    if (dec.buf[dec.pos++] !== FIRST) throw new Error('spool: a batch starts with a continuation frame');
    this.dataType = dec.string();
    const pcCount = dec.u32();
    for (let i = 0; i < pcCount; i++) {
      const k = dec.string();
      this.parentColumns.set(k, dec.value());
    }
    this.count = this.left = dec.u32();
    this.dec = dec;
    this.nextFrame = nextFrame;
    this.frame = frameRecords(dec, payloadAt);
    this.framed = this.frame.count;
  }

  // Arrow functions: a consumer passes `next` on alone (currentParser.ts, `writeStreamed`'s slices).
  readonly next = (): Value => {
    if (this.left-- <= 0) throw new Error('spool: no more records in this batch');
    while (this.inFrame === this.frame.count) {
      ({ dec: this.dec, records: this.frame } = continuation(this.nextFrame));
      this.framed += this.frame.count;
      this.inFrame = 0;
    }
    this.inFrame++;
    return this.dec.value();
  };

  readonly digest = (): string | undefined => {
    const { buf, digestsAt } = this.frame;
    if (digestsAt < 0 || this.inFrame === 0) return undefined;
    const at = digestsAt + (this.inFrame - 1) * DIGEST_LENGTH;
    return buf.toString('latin1', at, at + DIGEST_LENGTH);
  };

  /** Reads past the frames of records not read, to the next batch's first frame. */
  skipRest(): void {
    while (this.framed < this.count) this.framed += continuation(this.nextFrame).records.count;
  }
}

/**
 * The batches of the frames `nextFrame` gives, in order, their records decoded as they are
 * consumed (each batch before the next one is asked for). Records not consumed are skipped.
 */
export function* streamedBatches(nextFrame: NextFrame): Generator<StreamedBatch> {
  for (let dec = nextFrame(); dec !== undefined; dec = nextFrame()) {
    const batch = new FramedBatch(dec, nextFrame);
    yield batch;
    batch.skipRest();
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
