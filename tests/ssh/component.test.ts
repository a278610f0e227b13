/**
 * Opening the SSH tunnel in a whole run (issue 19 #9): like the reference, a failed opening is
 * tried 5 times, each retry logged at INFO as `<error>. Retrying... [Nx]`, with a key the server
 * refuses, a key that cannot be read, and an SSH port nobody listens on. Real sshd on loopback;
 * the pauses (1, 2, 4, 8 s) are recorded by the run's sleep instead of waited.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, describe, test } from 'node:test';
import * as extractor from '../../src/extractor.ts';
import { makeDataDir, outIsEmpty } from '../helpers/dataDir.ts';
import { json, startServer, type TestServer } from '../helpers/httpServer.ts';
import { freePort, sshdUnavailable, startSshd, type Sshd } from './sshd.ts';

// Skipped test by test, not as a suite: a skipped suite hides its tests from the summary's count.
const unavailable = sshdUnavailable();

async function runWithTunnel(
  sshProxy: Record<string, unknown>,
  apiPort: number,
): Promise<{ code: number; lines: string[]; sleeps: number[]; dir: string }> {
  const dir = makeDataDir({
    parameters: {
      api: { baseUrl: `http://localhost:${apiPort}/` },
      sshProxy,
      config: { outputBucket: 'b', jobs: [{ endpoint: 'users' }] },
    },
  });
  const lines: string[] = [];
  const sleeps: number[] = [];
  const code = await extractor.run({
    env: { KBC_DATADIR: dir },
    write: (line) => lines.push(line.replace(/^\[[^\]]+\] /, '').trimEnd()),
    sleep: async (ms) => {
      sleeps.push(ms);
    },
  });
  return { code, lines, sleeps, dir };
}

function assertRetriedFiveTimes(r: { code: number; lines: string[]; sleeps: number[]; dir: string }, errorOutput: string): void {
  const message = `Unable to create ssh tunnel. Output:  ErrorOutput: ${errorOutput}`;
  assert.equal(r.code, 1, r.lines.join('\n'));
  assert.deepEqual(
    r.lines.filter((l) => l.includes('SSH tunnel') || l.includes('ssh tunnel')),
    [
      "logger.INFO: Creating SSH tunnel to '127.0.0.1' ... [] []",
      ...[1, 2, 3, 4].map((n) => `logger.INFO: ${message}. Retrying... [${n}x] [] []`),
      `logger.ERROR: ${message} {"configPath":"parameters.sshProxy"} []`,
    ],
  );
  assert.deepEqual(r.sleeps, [1000, 2000, 4000, 8000]);
  assert.ok(outIsEmpty(r.dir));
  assert.ok(!r.lines.join('\n').includes('PRIVATE KEY'));
  fs.rmSync(r.dir, { recursive: true, force: true });
}

describe('opening the SSH tunnel in a run', { timeout: 60_000 }, () => {
  let sshd: Sshd;
  let api: TestServer;

  before(async () => {
    if (unavailable !== undefined) return;
    sshd = await startSshd();
    api = await startServer((_req, res) => json(res, 200, [{ id: 1 }]));
  });

  after(async () => {
    await api?.close();
    await sshd?.stop();
  });

  test('a key the server refuses: 5 attempts, 4 retry lines, one ERROR', { skip: unavailable ?? false }, async () => {
    const r = await runWithTunnel({ host: '127.0.0.1', port: sshd.port, user: sshd.user, '#privateKey': sshd.otherKey }, api.port);
    assertRetriedFiveTimes(r, `${sshd.user}@127.0.0.1: Permission denied (publickey).`);
    assert.equal(api.requests.length, 0);
  });

  test('a key that cannot be read: tried like any other key', { skip: unavailable ?? false }, async () => {
    const r = await runWithTunnel({ host: '127.0.0.1', port: sshd.port, user: sshd.user, '#privateKey': 'not a key' }, api.port);
    assertRetriedFiveTimes(
      r,
      `Load key "#privateKey": invalid format (Unsupported key format) ${sshd.user}@127.0.0.1: Permission denied (publickey).`,
    );
  });

  test('an SSH port nobody listens on', { skip: unavailable ?? false }, async () => {
    const port = await freePort();
    const r = await runWithTunnel({ host: '127.0.0.1', port, user: sshd.user, '#privateKey': sshd.privateKey }, api.port);
    assertRetriedFiveTimes(r, `ssh: connect to host 127.0.0.1 port ${port}: Connection refused`);
  });
});
