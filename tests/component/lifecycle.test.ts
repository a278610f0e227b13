/**
 * A signal during a sync action (src/component/lifecycle.ts): the built command (`dist/cli.js`,
 * built by `npm test`'s pretest) waits on a server that never answers; SIGTERM or SIGINT then
 * leaves stdout empty (never half an answer the UI would read as JSON), writes one ERROR line
 * naming the action on stderr, and exits as an interrupted run does (143 / 130).
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { makeDataDir } from '../helpers/dataDir.ts';
import { runCliUntilSignal } from '../helpers/signalledRun.ts';
import { startServer } from '../helpers/httpServer.ts';

for (const [signal, exitCode] of [
  ['SIGTERM', 143],
  ['SIGINT', 130],
] as const) {
  test(`${signal} while a sync action waits on a stalled server: no stdout, one ERROR line naming the action on stderr, exit ${exitCode}`, async () => {
    let arrived!: () => void;
    const requestArrived = new Promise<void>((resolve) => {
      arrived = resolve;
    });
    const server = await startServer(() => arrived());
    const dir = makeDataDir({
      action: 'test_request',
      parameters: { __SELECTED_JOB: '0', config: { jobs: [{ endpoint: 'slow' }] }, api: { baseUrl: `${server.url}/` } },
    });
    const exit = await runCliUntilSignal(dir, requestArrived, signal, 20_000);
    await server.close();
    assert.equal(exit.signal, null, 'the command handled the signal itself');
    assert.equal(exit.code, exitCode);
    assert.equal(exit.stdout, '');
    const lines = exit.stderr.trimEnd().split('\n');
    assert.equal(lines.length, 1, exit.stderr);
    assert.match(
      lines[0]!,
      new RegExp(
        `^\\[[^\\]]+\\] logger\\.ERROR: The sync action "test_request" was interrupted by ${signal} before it answered; nothing was printed\\. Run the action again\\. \\[\\] \\[\\]$`,
      ),
    );
    assert.equal(server.requests.length, 1);
    assert.ok(!fs.existsSync(path.join(dir, 'out', 'state.json')));
  });
}

test('an extraction interrupted keeps its own words (the action handling applies to sync actions only)', async () => {
  let arrived!: () => void;
  const requestArrived = new Promise<void>((resolve) => {
    arrived = resolve;
  });
  const server = await startServer(() => arrived());
  const dir = makeDataDir({
    parameters: { api: { baseUrl: `${server.url}/` }, config: { outputBucket: 'b', jobs: [{ endpoint: 'slow' }] } },
  });
  const exit = await runCliUntilSignal(dir, requestArrived, 'SIGTERM', 20_000);
  await server.close();
  assert.equal(exit.code, 143);
  assert.match(exit.stdout, /logger\.ERROR: Extraction interrupted by SIGTERM; no tables or state were written\./);
  assert.doesNotMatch(exit.stdout + exit.stderr, /sync action/);
});
