/**
 * The parser's side of an output offload, with a fake offload in place of the worker: what it is
 * told, when it is started, and that the parser writes the tables itself when it cannot deliver.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { decodeJson } from '../../../src/php/jsonDecode.ts';
import type { Value } from '../../../src/php/value.ts';
import { createAutoParser } from '../../../src/mapping/auto/index.ts';
import type { OffloadResult, OutputOffload, OutputOffloadStarter } from '../../../src/mapping/auto/outputOffload.ts';
import type { StructureSnapshot } from '../../../src/mapping/auto/structure.ts';
import { MemorySink, renderBytes, testLogger, tmpSpoolDir } from '../helpers.ts';

interface Told {
  starts: number;
  notified: { upTo: number; snapshot: boolean }[];
  finished: { upTo: number; snapshot: boolean }[];
  closed: number;
}

/** A starter whose offloads only record what they are told and never deliver. */
function fakeStarter(fromFirstBatch: boolean): { starter: OutputOffloadStarter; told: Told } {
  const told: Told = { starts: 0, notified: [], finished: [], closed: 0 };
  const offload: OutputOffload = {
    notify: (upTo: number, snapshot: StructureSnapshot | undefined) => void told.notified.push({ upTo, snapshot: snapshot !== undefined }),
    finish: (upTo: number, snapshot: StructureSnapshot | undefined): Promise<OffloadResult | undefined> => {
      told.finished.push({ upTo, snapshot: snapshot !== undefined });
      return Promise.resolve(undefined);
    },
    behind: () => 0,
    failure: 'a fake',
    close: () => void told.closed++,
  };
  const starter: OutputOffloadStarter = {
    fromFirstBatch,
    start: () => {
      told.starts++;
      return offload;
    },
  };
  return { starter, told };
}

async function tables(
  batches: [string, string][],
  starter?: OutputOffloadStarter,
): Promise<{ tables: Map<string, string>; debugs: string[] }> {
  const spoolDir = tmpSpoolDir();
  const logger = testLogger();
  const p = createAutoParser({
    state: undefined,
    compatLevel: 3,
    spoolDir,
    logger,
    ...(starter ? { outputOffload: starter } : {}),
  });
  try {
    for (const [json, dt] of batches) p.addBatch(decodeJson(json, 'response') as Value[], dt, new Map());
    const sink = new MemorySink();
    await p.writeTables(sink);
    return { tables: new Map([...sink.tables.keys()].map((t) => [t, renderBytes(sink, t)])), debugs: logger.debugs };
  } finally {
    p.close();
    fs.rmSync(spoolDir, { recursive: true, force: true });
  }
}

const batches: [string, string][] = [
  ['[{"id":1,"tags":["a"]}]', 'users'],
  ['[{"id":2,"tags":["b"]}]', 'users'],
  ['[{"id":3,"x":{"y":1}}]', 'users'],
];

test('an offload from the first batch: started once, told of every flush, the structure only when it changed', async () => {
  const { starter, told } = fakeStarter(true);
  const out = await tables(batches, starter);
  assert.equal(told.starts, 1);
  // One flush per batch; the 2nd batch did not change the structure, the 3rd did.
  assert.deepEqual(
    told.notified.map((n) => n.snapshot),
    [true, false, true],
  );
  assert.ok(told.notified.every((n, i) => i === 0 || n.upTo > told.notified[i - 1]!.upTo));
  assert.deepEqual(told.finished, [{ upTo: told.notified.at(-1)!.upTo, snapshot: false }]);
  assert.equal(told.closed, 1);
  // It did not deliver: the parser wrote the tables itself, and said why.
  assert.ok(out.debugs.includes('Tables are written without the output worker: a fake'), out.debugs.join('\n'));
  assert.deepEqual(out.tables, (await tables(batches)).tables);
});

test("an offload started at the spool's first write: a small run never writes it, so none starts", async () => {
  const { starter, told } = fakeStarter(false);
  const out = await tables(batches, starter);
  assert.equal(told.starts, 0);
  assert.ok(!out.debugs.some((d) => d.includes('output worker')), out.debugs.join('\n'));
  assert.deepEqual(out.tables, (await tables(batches)).tables);
});

test('an offload not ready at a spool write is asked again at the next one, and told where the spool stands', async () => {
  const { starter, told } = fakeStarter(true);
  const answers = [false, false, true];
  let asked = 0;
  const out = await tables(batches, { ...starter, ready: () => answers[asked++] ?? true });
  // Three writes, one per batch: started at the third, asked no more after that.
  assert.equal(asked, 3);
  assert.equal(told.starts, 1);
  assert.equal(told.notified.length, 1);
  assert.ok(told.notified[0]!.upTo > 0);
  // Its first notice carries the structure, though the structure did not change at that write.
  assert.equal(told.notified[0]!.snapshot, true);
  assert.deepEqual(out.tables, (await tables(batches)).tables);
});

test('an offload never ready is never started: the parser writes the tables itself', async () => {
  const { starter, told } = fakeStarter(true);
  const out = await tables(batches, { ...starter, ready: () => false });
  assert.equal(told.starts, 0);
  assert.deepEqual(out.tables, (await tables(batches)).tables);
});
