/**
 * When the young generation may grow (src/runtime/heapTuning.ts, `YoungGrowthGate`): only once
 * scavenges take a tenth of the wall time over the last eight of them. The scavenges are given as
 * (start, duration) pairs, as V8's `gc` performance entries report them.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { test } from 'node:test';
import { promisify } from 'node:util';
import { YoungGrowthGate } from '../../src/runtime/heapTuning.ts';

const run = promisify(execFile);

/** Feeds `count` scavenges of `duration` ms, one every `every` ms from `from`; returns the time after them. */
function feed(gate: YoungGrowthGate, count: number, duration: number, every: number, from = 0): number {
  let t = from;
  for (let i = 0; i < count; i++, t += every) gate.scavenged(t, duration);
  return t;
}

test('a run that mostly waits keeps its young generation small', () => {
  const gate = new YoungGrowthGate();
  // P3 at 1 MiB semi-spaces: ~0.8 ms scavenges every ~31 ms (2.5 % of the time).
  feed(gate, 500, 0.8, 31);
  assert.equal(gate.open, false);
});

test('a run whose scavenges take a tenth of its time lets it grow', () => {
  const gate = new YoungGrowthGate();
  // P1 at 1 MiB semi-spaces: ~2.5 ms scavenges every ~10 ms.
  feed(gate, 8, 2.5, 10);
  assert.equal(gate.open, true);
});

test('fewer than eight scavenges decide nothing, however long', () => {
  const gate = new YoungGrowthGate();
  feed(gate, 7, 5, 6);
  assert.equal(gate.open, false);
  gate.scavenged(42, 5);
  assert.equal(gate.open, true);
});

test('only the last eight scavenges count: an early burst among slow ones does not open it', () => {
  const gate = new YoungGrowthGate();
  let t = feed(gate, 4, 3, 5);
  t = feed(gate, 200, 0.5, 40, t + 40);
  assert.equal(gate.open, false);
  // The burst at start-up would have been 60 % of its own time; spread over the window it is not.
  feed(gate, 4, 3, 5, t);
  assert.equal(gate.open, false);
});

test('once open it stays open, even when later scavenges are cheap', () => {
  const gate = new YoungGrowthGate();
  const t = feed(gate, 8, 3, 10);
  assert.equal(gate.open, true);
  feed(gate, 100, 0.1, 100, t);
  assert.equal(gate.open, true);
});

/**
 * The gate in a real V8 (a child process with the tuning applied): the `gc` entries reach it, a
 * run that waits keeps 1 MiB semi-spaces, one that keeps much alive while allocating grows them;
 * and a young generation grown past the cap while the flags were suspended is shrunk again.
 * `workload` runs after `tuneHeap()` (its handle: `heap`); the child prints the young generation's size in MiB.
 */
async function youngGenerationAfter(workload: string): Promise<number> {
  const source = `
    import v8 from 'node:v8';
    import { tuneHeap } from ${JSON.stringify(path.resolve(import.meta.dirname, '..', '..', 'src', 'runtime', 'heapTuning.ts'))};
    const heap = tuneHeap();
    const young = () => v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size / 1048576;
    ${workload}
    process.stdout.write(String(young()));`;
  const { stdout } = await run(process.execPath, ['--input-type=module', '-e', source]);
  return Number(stdout);
}

test('in V8: a run that waits between small allocations keeps the young generation small', async () => {
  const young = await youngGenerationAfter(`
    let sink = 0;
    for (let tick = 0; tick < 250; tick++) {
      const garbage = Array.from({ length: 2000 }, (_, i) => ({ i, s: 'x' + i }));
      sink += garbage.length;
      await new Promise((r) => setTimeout(r, 8));
    }`);
  assert.ok(young <= 4, `young generation ${young} MiB`);
});

test('in V8: a run that keeps much alive while it allocates lets the young generation grow', async () => {
  const young = await youngGenerationAfter(`
    const ring = [];
    for (let round = 0; round < 4000 && young() < 16; round++) {
      ring.push(Array.from({ length: 2000 }, (_, i) => ({ i, s: 'x' + i })));
      if (ring.length > 40) ring.shift();
      if (round % 20 === 0) await new Promise((r) => setImmediate(r));
    }`);
  assert.ok(young >= 16, `young generation ${young} MiB`);
});

test('in V8: a young generation grown past the cap while the flags were suspended (a worker loading) is given back', async () => {
  const young = await youngGenerationAfter(`
    const ring = [];
    const churn = async (rounds) => {
      for (let round = 0; round < rounds; round++) {
        ring.push(Array.from({ length: 2000 }, (_, i) => ({ i, s: 'x' + i })));
        if (ring.length > 40) ring.shift();
        if (round % 20 === 0) await new Promise((r) => setImmediate(r));
      }
    };
    const resume = heap.suspend();
    await churn(3000);
    const grown = young();
    resume();
    await churn(400);
    if (grown <= 16) throw new Error('the young generation did not grow past the cap while suspended: ' + grown + ' MiB');`);
  assert.ok(young <= 16, `young generation ${young} MiB`);
});
