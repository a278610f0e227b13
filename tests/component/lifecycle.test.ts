/**
 * An abrupt end during a sync action (src/component/lifecycle.ts): the built command
 * (`dist/cli.js`, built by `npm test`'s pretest) waits on a server that never answers; SIGTERM or
 * SIGINT then leaves stdout empty (never half an answer the UI would read as JSON), writes one
 * ERROR line naming the action on stderr, and exits as an interrupted run does (143 / 130).
 * Memory running out takes the same path, with exit 2.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { makeDataDir } from '../helpers/dataDir.ts';
import { runCliUntilSignal } from '../helpers/signalledRun.ts';
import { json, startServer } from '../helpers/httpServer.ts';

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

/**
 * The built command under a small V8 heap (the project's Node: `process.execPath`). One-MiB
 * semi-spaces, as in tests/runtime/memoryLimits.test.ts: the guard sizes the young generation from
 * V8's heap limit, which otherwise counts three 64-MiB semi-spaces on top of these 48 MiB.
 */
function runCliUnderSmallHeap(dir: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const cli = path.resolve(import.meta.dirname, '..', '..', 'dist', 'cli.js');
  const env = { PATH: process.env['PATH'] ?? '', KBC_DATADIR: dir };
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--max-old-space-size=48', '--max-semi-space-size=1', cli],
      { env, timeout: 50_000 },
      (error, stdout, stderr) => resolve({ code: error ? ((error as { code?: number }).code ?? null) : 0, stdout, stderr }),
    );
  });
}

const OUT_OF_MEMORY =
  'Out of memory: the run holds \\d+ MiB of the \\d+ MiB JavaScript heap this process may use\\. Give the run more memory, or make the API\'s pages smaller \\(a "limit" parameter of the pagination\\)\\.';
const onLinux = fs.existsSync('/proc/self/status');

test('memory running out during a sync action ends it as a signal does: no stdout, one ERROR line naming the limit on stderr, exit 2', {
  skip: onLinux ? false : 'the memory guard reads /proc',
  timeout: 60_000,
}, async () => {
  // test_request keeps the responses of its job chain: 20 parents × 20 children × 2,000 records
  // fill the heap one response (a few hundred KB) at a time, so the guard sees it coming.
  const server = await startServer((req, res) => {
    const rows = req.target.startsWith('/leaf/') ? 2000 : 20;
    json(
      res,
      200,
      Array.from({ length: rows }, (_, id) => ({ id, name: `n${id}`, nested: { a: id } })),
    );
  });
  const leaf = { endpoint: 'leaf/{c}', placeholders: { c: 'id' } };
  const dir = makeDataDir({
    action: 'test_request',
    parameters: {
      __SELECTED_JOB: '0_0_0',
      api: { baseUrl: `${server.url}/` },
      config: { jobs: [{ endpoint: 'parents', children: [{ endpoint: 'child/{id}', placeholders: { id: 'id' }, children: [leaf] }] }] },
    },
  });
  const exit = await runCliUnderSmallHeap(dir);
  await server.close();
  assert.equal(exit.code, 2, exit.stderr.slice(0, 800));
  assert.equal(exit.stdout, '', 'nothing on stdout: the UI reads it as JSON');
  const lines = exit.stderr.trimEnd().split('\n');
  assert.equal(lines.length, 1, exit.stderr.slice(0, 800));
  assert.match(
    lines[0]!,
    new RegExp(
      `^\\[[^\\]]+\\] logger\\.ERROR: The sync action "test_request" ran out of memory before it answered; nothing was printed\\. ${OUT_OF_MEMORY} \\[\\] \\[\\]$`,
    ),
  );
  assert.ok(!fs.existsSync(path.join(dir, 'out', 'state.json')));
});

test('memory running out during an extraction: the staged tables discarded, one ERROR line, exit 2', {
  skip: onLinux ? false : 'the memory guard reads /proc',
  timeout: 60_000,
}, async () => {
  // Every page brings 2,000 columns never seen before: the automatic parser's structure grows.
  const server = await startServer((req, res) => {
    const page = /[?&]page=(\d+)/.exec(req.target)?.[1] ?? '1';
    json(
      res,
      200,
      Array.from({ length: 10 }, (_, row) => Object.fromEntries(Array.from({ length: 200 }, (_, k) => [`p${page}_${row}_${k}`, k]))),
    );
  });
  const dir = makeDataDir({
    parameters: {
      api: { baseUrl: `${server.url}/`, pagination: { method: 'pagenum' } },
      config: { outputBucket: 'b', jobs: [{ endpoint: 'rows' }] },
    },
  });
  const exit = await runCliUnderSmallHeap(dir);
  await server.close();
  assert.equal(exit.code, 2, exit.stderr.slice(0, 800));
  assert.equal(exit.stderr, '');
  const errors = exit.stdout.split('\n').filter((line) => line.includes('logger.ERROR'));
  assert.equal(errors.length, 1, exit.stdout.slice(-800));
  assert.match(errors[0]!, new RegExp(`logger\\.ERROR: ${OUT_OF_MEMORY} No tables or state were written\\. \\[\\] \\[\\]$`));
  // The out/ folder the run created is removed with its staging folder: the data folder as it was found.
  assert.ok(!fs.existsSync(path.join(dir, 'out')), 'no staging folder, no table, no state');
});
