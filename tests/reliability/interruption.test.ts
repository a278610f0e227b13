/**
 * Interruption: SIGTERM (the platform stopping a job) and SIGINT in the middle of a run of the
 * built command (`dist/cli.js`) leave no partial `out/tables`, no `out/state.json` and no staging
 * folder, print one ERROR line and exit non-zero (143 / 130, the shell convention). `npm test`
 * builds dist/ first (pretest).
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, test } from 'node:test';
import { makeDataDir } from '../helpers/dataDir.ts';
import { runCliUntilSignal, type SignalledExit } from '../helpers/signalledRun.ts';
import { outIsEmpty, sendJson, startFaultServer, strip, type FaultServer } from './helpers.ts';

const servers: FaultServer[] = [];
after(async () => {
  for (const s of servers) await s.close();
});

function assertInterrupted(dir: string, exit: SignalledExit, signal: NodeJS.Signals): void {
  assert.ok(exit.ms < 10_000, 'the run stopped on the signal (no SIGKILL needed)');
  assert.equal(exit.signal, null, 'the component handled the signal itself');
  assert.equal(exit.code, signal === 'SIGINT' ? 130 : 143);
  const lines = exit.stdout.trimEnd().split('\n');
  assert.equal(strip(lines.at(-1)), `logger.ERROR: Extraction interrupted by ${signal}; no tables or state were written. [] []`);
  assert.equal(lines.filter((l) => l.includes('logger.ERROR')).length, 1);
  assert.equal(exit.stderr, '');
  const out = path.join(dir, 'out');
  assert.ok(outIsEmpty(dir), `out/ holds ${JSON.stringify(fs.existsSync(out) ? fs.readdirSync(out, { recursive: true }) : [])}`);
  assert.ok(!fs.existsSync(path.join(out, 'state.json')));
}

/** Page 1 (2 users, with children) answers at once; page 2 never answers. */
async function slowApi(): Promise<FaultServer> {
  const s = await startFaultServer((q, res) => {
    if (q.target.startsWith('/api/users?page=1'))
      return sendJson(res, 200, [
        { id: 1, tags: ['a'] },
        { id: 2, tags: ['b'] },
      ]);
    if (q.target.startsWith('/api/users/')) return sendJson(res, 200, [{ order: 1 }]);
    // Page 2: hold the request open until the server closes.
  });
  servers.push(s);
  return s;
}

function config(baseUrl: string, api: Record<string, unknown> = {}): unknown {
  return {
    parameters: {
      api: { baseUrl, pagination: { method: 'pagenum', limit: 2 }, ...api },
      config: {
        outputBucket: 'b',
        debug: true,
        jobs: [{ endpoint: 'users', children: [{ endpoint: 'users/{id}/orders', placeholders: { id: 'id' } }] }],
      },
    },
  };
}

for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  test(`${signal} while a request is in flight, after rows were staged`, async () => {
    const s = await slowApi();
    const dir = makeDataDir(config(`${s.url}/api/`));
    const page2 = new Promise<void>((resolve) => {
      const poll = setInterval(() => {
        if (s.requests.some((q) => q.target.startsWith('/api/users?page=2'))) {
          clearInterval(poll);
          resolve();
        }
      }, 10);
    });
    const exit = await runCliUntilSignal(dir, page2, signal);
    assert.ok(s.requests.length >= 4, 'page 1 and its children were fetched before the signal');
    assert.ok(exit.stdout.includes('GET /api/users?page=2&limit=2 HTTP/1.1'));
    assertInterrupted(dir, exit, signal);
    fs.rmSync(dir, { recursive: true, force: true });
  });
}

test('SIGTERM during a long Retry-After back-off stops at once', async () => {
  const s = await startFaultServer((_q, res) => sendJson(res, 503, { error: 'maintenance' }, { 'Retry-After': '600' }));
  servers.push(s);
  const dir = makeDataDir(config(`${s.url}/api/`));
  const exit = await runCliUntilSignal(
    dir,
    s.arrived(1).then(() => new Promise((r) => setTimeout(r, 200))),
    'SIGTERM',
  );
  assert.ok(exit.stdout.includes('Http request failed, retrying in 600.0 seconds [1x].'));
  assert.equal(s.requests.length, 1);
  assert.ok(exit.ms < 5_000, `${exit.ms} ms`);
  assertInterrupted(dir, exit, 'SIGTERM');
  fs.rmSync(dir, { recursive: true, force: true });
});

test('the built command fails cleanly without a signal too (exit 1, nothing written)', async () => {
  const s = await startFaultServer((_q, res) => sendJson(res, 404, { error: 'nope' }));
  servers.push(s);
  const dir = makeDataDir(config(`${s.url}/api/`));
  const exit = await runCliUntilSignal(dir, new Promise(() => {}), 'SIGTERM');
  assert.equal(exit.code, 1);
  assert.match(
    strip(exit.stdout.trimEnd().split('\n').at(-1)),
    /^logger\.ERROR: The API request failed: \[404\] Client error: `GET http:\/\/127\.0\.0\.1:\d+\/api\/users\?page=1&limit=2` resulted in a `404 Not Found` response/,
  );
  assert.equal(exit.stderr, '');
  assert.ok(outIsEmpty(dir));
  fs.rmSync(dir, { recursive: true, force: true });
});
