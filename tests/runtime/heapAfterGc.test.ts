/**
 * One observer for everything that acts after a GC (src/runtime/heapAfterGc.ts): each listener
 * gets the same reading, whose old generation is every space outside the young generation, and a
 * stopped listener hears nothing more. Run in a child process, where `gc()` can be called.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { test } from 'node:test';

const MODULE = JSON.stringify(path.resolve(import.meta.dirname, '..', '..', 'src', 'runtime', 'heapAfterGc.ts'));

function child(source: string): unknown {
  const r = spawnSync(process.execPath, ['--expose-gc', '--input-type=module', '-e', source], { encoding: 'utf8', timeout: 30_000 });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout);
}

test('two listeners get one reading per GC; its old generation is every space but the young ones', () => {
  const out = child(`
    import v8 from 'node:v8';
    import { afterEachGc } from ${MODULE};
    const first = [];
    const second = [];
    afterEachGc((heap) => first.push(heap));
    afterEachGc((heap) => second.push(heap));
    globalThis.gc();
    await new Promise((r) => setTimeout(r, 50));
    const expected = v8.getHeapSpaceStatistics()
      .filter((s) => s.space_name !== 'new_space' && s.space_name !== 'new_large_object_space')
      .reduce((n, s) => n + s.space_used_size, 0);
    const young = v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size;
    process.stdout.write(JSON.stringify({
      rounds: first.length,
      same: first.length === second.length && first.every((h, i) => h === second[i]),
      oldUsed: first.at(-1).oldUsed,
      expected,
      youngMatches: first.at(-1).youngSize === young,
    }));`) as { rounds: number; same: boolean; oldUsed: number; expected: number; youngMatches: boolean };
  assert.ok(out.rounds >= 1);
  assert.equal(out.same, true);
  // Read right after the GC, compared with a read a little later: the same spaces, nearly the same bytes.
  assert.ok(Math.abs(out.oldUsed - out.expected) < 1024 * 1024, `${out.oldUsed} vs ${out.expected}`);
  assert.equal(out.youngMatches, true);
});

test('a stopped listener hears no further GC; the others still do', () => {
  const out = child(`
    import { afterEachGc } from ${MODULE};
    let stopped = 0;
    let kept = 0;
    const stop = afterEachGc(() => stopped++);
    afterEachGc(() => kept++);
    globalThis.gc();
    await new Promise((r) => setTimeout(r, 50));
    const before = stopped;
    stop();
    globalThis.gc();
    await new Promise((r) => setTimeout(r, 50));
    process.stdout.write(JSON.stringify({ before, after: stopped, kept }));`) as { before: number; after: number; kept: number };
  assert.ok(out.before >= 1);
  assert.equal(out.after, out.before);
  assert.ok(out.kept > out.before);
});
