/**
 * When the output worker pays (src/outputWorker/offload.ts): in `auto` mode only for a spool of
 * 2 MiB or more, while this thread's event loop is busy; `always` starts it regardless, `off` never.
 */
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { test } from 'node:test';
import { busySinceLastAsked, outputWorkerOffload } from '../../src/outputWorker/offload.ts';

/** Keeps the event loop busy for `ms` of wall time. */
function spin(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end);
}

test('busy after a stretch of work, not after a stretch of waiting; each answer covers the time since the last', async () => {
  // Node measures nothing before its event loop runs (the first tick of a module): as in a run.
  await sleep(1);
  const busy = busySinceLastAsked();
  spin(60);
  assert.equal(busy(), true);
  await sleep(60);
  assert.equal(busy(), false);
  spin(60);
  assert.equal(busy(), true);
});

test('auto starts no worker for a spool under 2 MiB, busy or not; from 2 MiB when busy', async () => {
  await sleep(1);
  const ready = outputWorkerOffload('auto', { script: new URL('file:///nowhere.js') })!.ready!;
  const MIB = 1024 * 1024;
  spin(60);
  assert.equal(ready(MIB), false);
  spin(60);
  assert.equal(ready(2 * MIB), true);
  await sleep(60);
  assert.equal(ready(3 * MIB), false);
});

test('auto asks whether this thread is busy; always does not ask; off has no offload', () => {
  const script = new URL('file:///nowhere.js');
  assert.equal(typeof outputWorkerOffload('auto', { script })?.ready, 'function');
  assert.equal(outputWorkerOffload('always', { script })?.ready, undefined);
  assert.equal(outputWorkerOffload('off', { script }), undefined);
});
