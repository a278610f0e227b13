/**
 * The SSH proxy in the built command: dist/extractor.js is a bundle that leaves ssh2 out (it has
 * an optional native part) and imports it only when a tunnel opens, so a run with `sshProxy`
 * must find it in node_modules from there. `npm test` builds dist/ first (pretest).
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import { makeDataDir } from '../helpers/dataDir.ts';
import { json, startServer, type TestServer } from '../helpers/httpServer.ts';
import { sshdUnavailable, startSshd, type Sshd } from './sshd.ts';

const CLI = path.resolve(import.meta.dirname, '..', '..', 'dist', 'cli.js');
// Skipped test by test, not as a suite: a skipped suite hides its tests from the summary's count.
const unavailable = sshdUnavailable();

describe('dist/cli.js with parameters.sshProxy', { timeout: 60_000 }, () => {
  let sshd: Sshd;
  let api: TestServer;

  before(async () => {
    if (unavailable !== undefined) return;
    sshd = await startSshd();
    api = await startServer((_req, res) => json(res, 200, [{ id: 1, name: 'Ann' }]));
  });

  after(async () => {
    await api?.close();
    await sshd?.stop();
  });

  test('extracts through the tunnel', { skip: unavailable ?? false }, async () => {
    const sshProxy = { host: '127.0.0.1', port: sshd.port, user: sshd.user, '#privateKey': sshd.privateKey };
    const dir = makeDataDir({
      parameters: {
        api: { baseUrl: `http://localhost:${api.port}/` },
        sshProxy,
        config: { outputBucket: 'b', jobs: [{ endpoint: 'users' }] },
      },
    });
    try {
      // Asynchronous: the API answering the run lives in this process.
      const run = await promisify(execFile)(process.execPath, [CLI], {
        env: { PATH: process.env['PATH'] ?? '', KBC_DATADIR: dir },
        encoding: 'utf8',
      });
      assert.equal(run.stderr, '');
      assert.match(run.stdout, /logger\.INFO: Creating SSH tunnel to '127\.0\.0\.1' \.\.\./);
      assert.equal(fs.readFileSync(path.join(dir, 'out', 'tables', 'b.users'), 'utf8'), '"id","name"\n"1","Ann"\n');
      assert.equal(api.requests.length, 1);
      // sshd opened the connection to the API: the request went through the tunnel.
      assert.match(sshd.log(), new RegExp(`direct_tcpip: originator 127\\.0\\.0\\.1 port 0, target localhost port ${api.port}`));
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
