import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { decodeJson } from '../../src/php/jsonDecode.ts';
import type { Value } from '../../src/php/value.ts';
import { pjson } from '../../src/php/jsonEncode.ts';
import { UserError } from '../../src/errors/UserError.ts';
import { createAutoParser } from '../../src/mapping/auto/index.ts';
import { analyzeCurrent } from '../../src/mapping/auto/currentParser.ts';
import { OutputRenderer } from '../../src/outputWorker/renderer.ts';
import type { FramesMessage, WorkerReply } from '../../src/outputWorker/protocol.ts';
import { outputWorkerOffload, type OutputWorkerMode } from '../../src/outputWorker/offload.ts';
import { Spool } from '../../src/spool/spool.ts';
import { Structure, currentStructureVersion } from '../../src/mapping/auto/structure.ts';
import { appendRendered } from '../../src/output/tableSink.ts';
import { MemorySink, expectedTables, renderBytes, runExample, testLogger, tmpSpoolDir } from '../mapping/helpers.ts';

// The command's own entry is the worker's script (src/cli.ts names itself the same way).
const CLI = new URL('../../src/cli.ts', import.meta.url);

type Batch = [json: string, dataType: string, parentColumns?: [string, Value][]];

interface Output {
  tables: Map<string, string>;
  opens: string[];
  state: string;
  debugs: string[];
}

/** The tables of `batches`, with an output worker when `mode` says so (started from `script`). */
async function output(batches: Batch[], mode: OutputWorkerMode, script: URL = CLI): Promise<Output> {
  const logger = testLogger();
  const spoolDir = tmpSpoolDir();
  const outputOffload = outputWorkerOffload(mode, { script });
  const p = createAutoParser({ state: undefined, compatLevel: 3, spoolDir, logger, ...(outputOffload ? { outputOffload } : {}) });
  try {
    for (const [json, dt, pc] of batches) p.addBatch(decodeJson(json, 'response') as Value[], dt, new Map(pc ?? []));
    const sink = new MemorySink();
    await p.writeTables(sink);
    const tables = new Map([...sink.tables.keys()].map((t) => [t, renderBytes(sink, t)]));
    return { tables, opens: sink.opens, state: pjson(p.stateEntries().struct, 'shortest'), debugs: logger.debugs };
  } finally {
    p.close();
    assert.deepEqual(fs.readdirSync(spoolDir), [], 'no file of the parser or its worker is left');
    fs.rmSync(spoolDir, { recursive: true, force: true });
  }
}

async function sameAsWithoutWorker(batches: Batch[]): Promise<Output> {
  const off = await output(batches, 'off');
  const worker = await output(batches, 'always');
  assert.ok(
    worker.debugs.some((d) => d.startsWith('Tables written by the output worker')),
    worker.debugs.join('\n'),
  );
  assert.deepEqual(worker.tables, off.tables);
  assert.deepEqual(worker.opens, off.opens);
  assert.equal(worker.state, off.state, 'the structure after the output phase (registrations included)');
  return worker;
}

const users = (from: number, n: number, extra = ''): string =>
  JSON.stringify(
    Array.from({ length: n }, (_, i) => ({ id: from + i, name: `u${from + i}`, tags: i % 2 ? ['a', 'b'] : [], address: { city: 'C' } })),
  ).replace(/}}/g, `}${extra}}`);

test('worker output = main-thread output: stable structure, many batches, one pass', async () => {
  const batches: Batch[] = Array.from({ length: 30 }, (_, i) => [users(i * 10, 10), 'users']);
  const out = await sameAsWithoutWorker(batches);
  assert.ok(out.debugs.includes('Tables written by the output worker (one pass over the batches).'), out.debugs.join('\n'));
});

test('worker output = main-thread output when the structure changes later (new columns, type upgrade, null quirk)', async () => {
  await sameAsWithoutWorker([
    ['[{"id":1,"tags":"x"}]', 'users'],
    ['[{"id":2,"tags":"y","a":{"b":1}}]', 'users'],
    ['[{"id":3,"tags":["p","q"],"a":{"c":2.5}}]', 'users'],
    ['[{"id":4,"list":[{"k":1}]}]', 'users'],
    ['[{"id":5,"list":null}]', 'users'],
  ]);
});

test('worker output = main-thread output with parent columns, aliases and several data types', async () => {
  const ud: [string, Value][] = [
    ['tag', 'development'],
    ['price', '$10'],
  ];
  await sameAsWithoutWorker([
    ['[{"id":1,"tag":"CFO","x":[1]},{"id":2,"tag":"CTO","x":[2]}]', 'users', ud],
    ['[{"order_id":1,"price":3}]', 'orders', ud],
    ['[{"id":7,"name":"d","parent_id":9}]', 'user/{id}', [['parent_id', 1]]],
    ['[{"id":8,"name":"e"}]', 'user/{id}', [['parent_id', 2]]],
    ['[{"id":3,"tag":"CEO","x":[3]}]', 'users', ud],
  ]);
});

test('an error of the output phase comes from the worker as the main thread would raise it', async () => {
  const batches: Batch[] = [['[{"id":1}]', 'users', [['parent', [1, 2]]]]];
  for (const mode of ['off', 'always'] as const) {
    await assert.rejects(
      output(batches, mode),
      (e: unknown) =>
        e instanceof UserError &&
        e.message.startsWith('Error assigning parentId to a CSV file! $parentId array cannot be multidimensional. '),
      mode,
    );
  }
});

test('a worker that cannot run: the main thread writes the tables itself', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'broken-worker-'));
  const broken = path.join(dir, 'broken.mjs');
  fs.writeFileSync(broken, 'throw new Error("no worker today");\n');
  try {
    const batches: Batch[] = Array.from({ length: 5 }, (_, i) => [users(i * 10, 10), 'users']);
    const off = await output(batches, 'off');
    const fallback = await output(batches, 'always', new URL(`file://${broken}`));
    assert.deepEqual(fallback.tables, off.tables);
    assert.ok(
      fallback.debugs.some((d) => d.startsWith('Tables are written without the output worker: it failed: no worker today')),
      fallback.debugs.join('\n'),
    );
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

for (const name of ['010', '017', '019', '021', '025', '063', '076', '106', '107', '130']) {
  test(`conformance example ${name} through the output worker: tables byte-identical`, async () => {
    const { sink, bucket, parser, logger } = await runExample(name, { outputOffload: outputWorkerOffload('always', { script: CLI })! });
    parser.close();
    assert.ok(
      logger.debugs.some((d) => d.startsWith('Tables written by the output worker')),
      logger.debugs.join('\n'),
    );
    const expected = expectedTables(name, bucket);
    assert.deepEqual([...sink.tables.keys()].sort(), [...expected.keys()].sort());
    for (const [table, bytes] of expected) assert.equal(renderBytes(sink, table), bytes, `table ${table}`);
  });
}

/**
 * The worker's renderer driven directly: the spool is written batch by batch and the renderer
 * told after each, with the structure when it changed — as the parser does.
 */
async function drive(batches: Batch[]): Promise<{ reply: WorkerReply; tables: Map<string, string> }> {
  const spoolDir = tmpSpoolDir();
  const structure = new Structure();
  let changed = true;
  const messages: FramesMessage[] = [];
  const snapshot = (): ReturnType<Structure['snapshot']> | undefined => {
    if (!changed) return undefined;
    changed = false;
    return structure.snapshot();
  };
  const spool = new Spool(spoolDir, {
    flushEachBatch: true,
    onFlush: (upTo) => messages.push({ type: 'frames', upTo, ...(changed ? { snapshot: snapshot()! } : {}) }),
  });
  try {
    for (const [json, dt] of batches) {
      const before = currentStructureVersion();
      const records = decodeJson(json, 'response') as Value[];
      analyzeCurrent(structure, records, dt, () => {});
      if (currentStructureVersion() !== before) changed = true;
      spool.append({ records, dataType: dt, parentColumns: new Map() });
    }
    const dir = fs.mkdtempSync(path.join(spoolDir, 'render-'));
    const renderer = new OutputRenderer({ role: 'auto-output', spoolFile: spool.path!, dir });
    for (const m of messages) assert.equal(await renderer.handle(m), undefined);
    const reply = (await renderer.handle({ type: 'finish', upTo: spool.written, ...(changed ? { snapshot: snapshot()! } : {}) }))!;
    const sink = new MemorySink();
    for (const t of reply.tables) appendRendered(sink.open(t.name, t.header), t.file, t.rows);
    return { reply, tables: new Map([...sink.tables.keys()].map((t) => [t, renderBytes(sink, t)])) };
  } finally {
    spool.close();
    fs.rmSync(spoolDir, { recursive: true, force: true });
  }
}

test('renderer: a structure change starts a new pass only once as much data came after it as before', async () => {
  const same: Batch = ['[{"id":1,"v":"x"}]', 'users'];
  const newColumn = (k: number): Batch => [`[{"id":1,"v":"x","c${k}":1}]`, 'users'];
  // Changes with the 1st batch only: one pass, never repeated.
  let r = await drive(Array.from({ length: 10 }, () => same));
  assert.equal(r.reply.type === 'done' && r.reply.passes, 1);
  // A change with the 4th of 10 equal batches: the first pass is stale, a second one starts
  // once 3 batches came under the new structure (at the 6th) and is the output.
  const batches = Array.from({ length: 10 }, (_, i) => (i === 3 ? newColumn(1) : same));
  r = await drive(batches);
  assert.equal(r.reply.type === 'done' && r.reply.passes, 2);
  assert.deepEqual(r.tables, (await output(batches, 'off')).tables);
  // A change with every batch: never as much data under the latest structure as before it, so
  // after the first pass (at the first batch) only the final one runs.
  const changing = Array.from({ length: 40 }, (_, i) => newColumn(i));
  r = await drive(changing);
  assert.equal(r.reply.type === 'done' && r.reply.passes, 2);
  assert.deepEqual(r.tables, (await output(changing, 'off')).tables);
});
