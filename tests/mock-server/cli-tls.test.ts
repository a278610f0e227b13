/** The mock server's command line and its HTTPS mode. */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import { startMockServer } from '../../src/mock-server/server.ts';
import { makeSimulations, removeSimulations, send } from './helpers.ts';

const CLI = fileURLToPath(new URL('../../src/mock-server/cli.ts', import.meta.url));
const CONFORMANCE = '/work/shared/conformance';

interface Running {
  port: number;
  stderr: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  kill: (signal: NodeJS.Signals) => void;
}

/** Starts the CLI and waits for its `listening HOST:PORT` line (or its exit). */
function startCli(args: string[]): Promise<Running> {
  const child = spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  return new Promise((resolve, reject) => {
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /^listening 127\.0\.0\.1:(\d+)\n/.exec(out);
      if (m) resolve({ port: Number(m[1]), stderr: () => err, exited, kill: (s) => child.kill(s) });
    });
    void exited.then(({ code }) => reject(Object.assign(new Error(`exited with ${code}: ${err}`), { code, stderr: err })));
  });
}

describe('cli', () => {
  it('prints "listening", logs matches and NO MATCH to stderr, stops on SIGTERM', async () => {
    const dir = makeSimulations({ 'ex/users.request': 'GET /ex/users', 'ex/users.response': '[1]' });
    try {
      const cli = await startCli(['--dir', dir, '--port', '0']);
      const url = `http://127.0.0.1:${cli.port}`;
      const hit = await send(url, { path: '/ex/users' });
      assert.equal(hit.body.toString(), '[1]');
      assert.equal((await send(url, { path: '/nope' })).status, 404);
      cli.kill('SIGTERM');
      const { code } = await cli.exited;
      assert.equal(code, 0);
      assert.match(cli.stderr(), /GET \/ex\/users -> ex\/users \(200\)/);
      assert.match(cli.stderr(), /GET \/nope -> NO MATCH/);
    } finally {
      removeSimulations(dir);
    }
  });

  it('supports --flat, repeated --dir and SIGINT', async () => {
    const a = makeSimulations({ 'top.request': 'GET /top', 'top.response': 'top' });
    const b = makeSimulations({ 'x/other.request': 'GET /other', 'x/other.response': 'other' });
    try {
      const cli = await startCli(['--dir', a, '--dir', b, '--flat']);
      const url = `http://127.0.0.1:${cli.port}`;
      assert.equal((await send(url, { path: '/top' })).body.toString(), 'top');
      assert.equal((await send(url, { path: '/other' })).body.toString(), 'other');
      cli.kill('SIGINT');
      assert.equal((await cli.exited).code, 0);
    } finally {
      removeSimulations(a);
      removeSimulations(b);
    }
  });

  it('refuses to start on duplicate samples and on bad usage', async () => {
    const dir = makeSimulations({ 'a/x.request': 'GET /x', 'b/x.request': 'GET /x' });
    try {
      await assert.rejects(startCli(['--dir', dir]), (e: { code: number; stderr: string }) => {
        assert.equal(e.code, 1);
        assert.match(e.stderr, /duplicate samples/);
        return true;
      });
      await assert.rejects(startCli([]), (e: { code: number; stderr: string }) => e.code === 2 && /--dir is required/.test(e.stderr));
      await assert.rejects(startCli(['--dir', dir, '--bogus']), (e: { code: number }) => e.code === 2);
    } finally {
      removeSimulations(dir);
    }
  });
});

// Skipped test by test, not as a suite: a skipped suite hides its tests from the summary's count.
const noCertificates = !fs.existsSync(path.join(CONFORMANCE, 'tls')) && 'conformance certificates not found';

describe('https', () => {
  const tlsDir = path.join(CONFORMANCE, 'tls');
  const config142 = (): { ca: string; client: string } => {
    const c = JSON.parse(fs.readFileSync(path.join(CONFORMANCE, 'examples/142-https-client-cert/config.json'), 'utf8'));
    return { ca: c.parameters.api.caCertificate, client: c.parameters.api['#clientCertificate'] };
  };

  it('serves HTTPS when tls is given', { skip: noCertificates }, async () => {
    const dir = makeSimulations({ 's/a.request': 'GET /a', 's/a.response': 'secure http://mock-server/x' });
    const server = await startMockServer({
      dir,
      tls: {
        key: fs.readFileSync(path.join(tlsDir, '141-https-self-signed/key.pem')),
        cert: fs.readFileSync(path.join(tlsDir, '141-https-self-signed/cert.pem')),
      },
    });
    try {
      assert.match(server.url, /^https:\/\/127\.0\.0\.1:\d+$/);
      const r = await send(server.url, { path: '/a', tls: { rejectUnauthorized: false } });
      assert.equal(r.body.toString(), `secure ${server.url}/x`);
    } finally {
      await server.close();
      removeSimulations(dir);
    }
  });

  it('requires a client certificate signed by ca when requestCert is set', { skip: noCertificates }, async () => {
    const { ca, client } = config142();
    const dir = makeSimulations({ 's/a.request': 'GET /a', 's/a.response': 'client ok' });
    const server = await startMockServer({
      dir,
      tls: {
        key: fs.readFileSync(path.join(tlsDir, '142-https-client-cert/key.pem')),
        cert: fs.readFileSync(path.join(tlsDir, '142-https-client-cert/cert.pem')),
        ca: fs.readFileSync(path.join(tlsDir, '142-https-client-cert/client-ca.pem')),
        requestCert: true,
      },
    });
    try {
      const ok = await send(server.url, { path: '/a', tls: { ca, cert: client, key: client } });
      assert.equal(ok.body.toString(), 'client ok');
      await assert.rejects(send(server.url, { path: '/a', tls: { ca } }));
      assert.equal(server.requests.length, 1);
    } finally {
      await server.close();
      removeSimulations(dir);
    }
  });
});
