import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { JsonObject, PhpArray, PhpFloat, type Value } from '../../src/php/value.ts';
import { FRAME_BYTES, streamedBatches } from '../../src/spool/frame.ts';
import { SpoolReader } from '../../src/spool/reader.ts';
import { Spool } from '../../src/spool/spool.ts';
import { tmpSpoolDir } from '../mapping/helpers.ts';

/** Canonical text distinguishing every aspect the codec must preserve. */
function canon(v: Value): string {
  if (v === null) return 'N';
  switch (typeof v) {
    case 'string':
      // Length-prefixed and compared as it is: string equality is by UTF-16 code unit, lone
      // surrogates included (listing every code unit cost seconds for the 3 MB strings).
      return 'S' + v.length + ':' + v;
    case 'number':
      return (Object.is(v, -0) ? 'I-0' : 'I') + String(v);
    case 'bigint':
      return 'B' + v.toString();
    case 'boolean':
      return v ? 'T' : 'F';
  }
  if (v instanceof PhpFloat) {
    const b = Buffer.alloc(8);
    b.writeDoubleLE(v.value);
    return 'D' + (Number.isNaN(v.value) ? 'nan' : b.toString('hex'));
  }
  if (Array.isArray(v)) return 'L[' + v.map(canon).join(',') + ']';
  const tag = v instanceof JsonObject ? 'O' : 'A';
  return tag + '{' + [...v].map(([k, x]) => canon(k) + ':' + canon(x)).join(',') + '}';
}

/** Small deterministic PRNG. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function randomString(r: () => number): string {
  const pools = ['abc', 'xyz019', 'ž€', '😀', '\ud800', '\udc00', '"\\\n\u0000', '0', '-1'];
  const n = Math.floor(r() * (r() < 0.1 ? 200 : 12));
  let s = '';
  for (let i = 0; i < n; i++) {
    const pool = pools[Math.floor(r() * pools.length)]!;
    s += pool[Math.floor(r() * pool.length)] ?? pool;
  }
  return s;
}

function randomValue(r: () => number, depth: number): Value {
  const k = Math.floor(r() * (depth > 3 ? 8 : 11));
  switch (k) {
    case 0:
      return null;
    case 1:
      return r() < 0.5;
    case 2:
      return [0, 1, -1, 2147483647, -2147483648, 2147483648, 9007199254740991, -9007199254740991][Math.floor(r() * 8)]!;
    case 3:
      return [9223372036854775807n, -9223372036854775808n, 9007199254740993n][Math.floor(r() * 3)]!;
    case 4:
      return new PhpFloat([0, -0, 1.5, -1e300, Infinity, -Infinity, NaN, 5e-324, 0.1][Math.floor(r() * 9)]!);
    case 5:
    case 6:
    case 7:
      return randomString(r);
    case 8: {
      const n = Math.floor(r() * 5);
      return Array.from({ length: n }, () => randomValue(r, depth + 1));
    }
    default: {
      const m = r() < 0.5 ? new JsonObject() : new PhpArray();
      const n = Math.floor(r() * 5);
      const keys = ['b', '1', '0', '', 'a', '10', 'ž', randomString(r)];
      for (let i = 0; i < n; i++) m.set(keys[Math.floor(r() * keys.length)]!, randomValue(r, depth + 1));
      return m;
    }
  }
}

test('spool round-trips random values exactly (in memory and through the file)', () => {
  for (const big of [false, true]) {
    const r = rng(big ? 7 : 42);
    const dir = tmpSpoolDir();
    const spool = new Spool(dir);
    const expected: string[] = [];
    const n = big ? 3000 : 400;
    for (let i = 0; i < n; i++) {
      const records = Array.from({ length: Math.floor(r() * 6) }, () => randomValue(r, 0));
      if (big && i % 500 === 0) records.push('x'.repeat(3_000_000)); // forces flushes and a frame larger than a read chunk
      const pc = new Map<string, Value>([[randomString(r), randomValue(r, 2)]]);
      const dataType = randomString(r);
      spool.append({ records, dataType, parentColumns: pc });
      expected.push(canon(records) + '|' + canon(dataType) + '|' + canon(new PhpArray(pc)));
    }
    const got: string[] = [];
    for (const b of spool.batches()) got.push(canon(b.records) + '|' + canon(b.dataType) + '|' + canon(new PhpArray(b.parentColumns)));
    assert.equal(got.length, expected.length);
    for (let i = 0; i < got.length; i++) assert.equal(got[i], expected[i], `batch ${i}`);
    const files = fs.readdirSync(dir);
    assert.equal(files.length, big ? 1 : 0, 'a file only once the buffer overflows');
    spool.close();
    assert.deepEqual(fs.readdirSync(dir), []);
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

/** The frames of a spool file up to `limit`: how many, and the largest one's length. */
function framesOf(file: string, limit: number): { count: number; largest: number } {
  const reader = new SpoolReader(fs.openSync(file, 'r'));
  reader.extend(limit);
  let count = 0;
  let largest = 0;
  let at = 0;
  while (reader.next() !== undefined) {
    count++;
    largest = Math.max(largest, reader.position - at);
    at = reader.position;
  }
  return { count, largest };
}

test('a huge batch is spooled as frames of about a MiB, read back whole, and announced only once complete', () => {
  const dir = tmpSpoolDir();
  const announced: number[] = [];
  const spool = new Spool(dir, { onFlush: (bytes) => announced.push(bytes) });
  const record = (i: number): Value =>
    new JsonObject([
      ['id', i],
      ['text', `record ${i} `.repeat(20)],
    ]);
  const huge = Array.from({ length: 40_000 }, (_, i) => record(i));
  const digests = huge.map((_, i) => i.toString(16).padStart(32, '0'));
  spool.append({ records: [record(-1)], dataType: 'before', parentColumns: new Map() });
  spool.append({ records: huge, dataType: 'huge', parentColumns: new Map<string, Value>([['parent_id', 7]]), digests });
  spool.append({ records: [record(-2)], dataType: 'after', parentColumns: new Map() });
  spool.flush();

  const file = spool.path!;
  const { count, largest } = framesOf(file, spool.written);
  assert.ok(spool.written > 8 * FRAME_BYTES, `the huge batch takes ${spool.written} bytes`);
  assert.ok(count >= 10, `${count} frames`);
  assert.ok(largest < FRAME_BYTES + 64 * 1024, `the largest frame has ${largest} bytes`);
  // Each announcement ends at a batch's end: a reader stopping there reads whole batches.
  for (const limit of announced) {
    const reader = new SpoolReader(fs.openSync(file, 'r'));
    reader.extend(limit);
    const types = [...streamedBatches(() => reader.next())].map((b) => b.dataType);
    assert.ok(['before,huge', 'before,huge,after'].includes(types.join(',')), `${types.join(',')} up to ${limit}`);
  }

  const whole = [...spool.batches()];
  assert.deepEqual(
    whole.map((b) => [b.dataType, b.records.length]),
    [
      ['before', 1],
      ['huge', 40_000],
      ['after', 1],
    ],
  );
  assert.equal(canon(whole[1]!.records), canon(huge));
  assert.deepEqual(whole[1]!.digests, digests);
  assert.equal(canon(new PhpArray(whole[1]!.parentColumns)), canon(new PhpArray(new Map<string, Value>([['parent_id', 7]]))));

  // Streamed: half of the huge batch read (with its digests), the rest skipped, the next batch intact.
  const seen: string[] = [];
  for (const b of spool.streams()) {
    const n = b.dataType === 'huge' ? 20_001 : b.count;
    for (let i = 0; i < n; i++) {
      const v = b.next();
      if (b.dataType === 'huge') assert.equal(b.digest(), digests[i], `digest ${i}`);
      if (b.dataType === 'huge' && i === 20_000) assert.equal(canon(v), canon(huge[20_000]!));
    }
    seen.push(b.dataType);
  }
  assert.deepEqual(seen, ['before', 'huge', 'after']);
  spool.close();
  fs.rmSync(dir, { recursive: true, force: true });
});
