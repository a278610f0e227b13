/**
 * A run killed with SIGKILL cannot remove its staging folder; the next run does, with a log
 * line (issue 19 #7). Real runs of the built command (`dist/cli.js`; `npm test` builds first)
 * against a local API whose second page never answers.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import os from 'node:os';
import { HEARTBEAT_MS, keepMarkedAlive, QUIET_LIMIT_MS, removeStaleStaging, stagingPrefix } from '../../src/output/staleStaging.ts';
import { makeDataDir, readTables } from '../helpers/dataDir.ts';
import { startServer, type TestServer } from '../helpers/httpServer.ts';

const CLI = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../dist/cli.js');

let api: TestServer;
let hang = true;
before(async () => {
  api = await startServer((req, res) => {
    res.setHeader('Content-Type', 'application/json');
    const page = Number(/[?&]page=(\d+)/.exec(req.target)?.[1] ?? 1);
    // Page 2 hangs while `hang` is set (the run is killed meanwhile); page 3 is empty.
    if (page === 2 && hang) return;
    const rows = page >= 3 ? [] : Array.from({ length: 2000 }, (_, i) => ({ id: page * 10000 + i, text: 'y'.repeat(1000) }));
    res.end(JSON.stringify(rows));
  });
});
after(async () => {
  hang = false;
  await api.close();
});

function config(): unknown {
  return {
    parameters: {
      api: { baseUrl: `${api.url}/`, pagination: { method: 'pagenum' } },
      config: { outputBucket: 'b', jobs: [{ endpoint: 'rows' }] },
    },
  };
}

function spawnCli(dir: string): { pid: number; exited: Promise<{ code: number | null; stdout: string }>; kill(): void } {
  assert.ok(fs.existsSync(CLI), `${CLI} is missing: build first (npm run build)`);
  const child = spawn(process.execPath, [CLI], {
    env: { PATH: process.env['PATH'] ?? '', KBC_DATADIR: dir },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
  const hard = setTimeout(() => child.kill('SIGKILL'), 20_000);
  const exited = new Promise<{ code: number | null; stdout: string }>((resolve) =>
    child.on('close', (code) => {
      clearTimeout(hard);
      resolve({ code, stdout });
    }),
  );
  return { pid: child.pid!, exited, kill: () => child.kill('SIGKILL') };
}

function du(p: string): number {
  const stat = fs.statSync(p);
  return stat.isDirectory() ? fs.readdirSync(p).reduce((sum, f) => sum + du(path.join(p, f)), 0) : stat.size;
}

function stagingFolders(dir: string): string[] {
  return fs.readdirSync(path.join(dir, 'out')).filter((f) => f.startsWith('.staging-'));
}

test('SIGKILL mid-run leaves out/.staging-*; the next run removes it with a log line', { timeout: 30_000 }, async () => {
  const dir = makeDataDir(config());
  try {
    hang = true;
    const killed = spawnCli(dir);
    const asked = api.requests.length;
    // Page 2 is asked for, and page 1 has reached the staging folder (pages may be fetched ahead).
    const staged = (): number => {
      const folders = fs.existsSync(path.join(dir, 'out')) ? stagingFolders(dir) : [];
      return folders.reduce((sum, f) => sum + du(path.join(dir, 'out', f)), 0);
    };
    while (!api.requests.slice(asked).some((q) => /[?&]page=2/.test(q.target))) await new Promise((r) => setTimeout(r, 10));
    const page2 = Date.now();
    while (staged() === 0 && Date.now() - page2 < 3000) await new Promise((r) => setTimeout(r, 10));
    killed.kill();
    await killed.exited;
    const left = stagingFolders(dir);
    assert.equal(left.length, 1, 'the killed run left its staging folder');
    assert.match(left[0]!, new RegExp(`^\\.staging-${killed.pid}-`));

    // A staging folder of a process that still runs (this test) is not touched.
    const live = path.join(dir, 'out', `.staging-${process.pid}-live`);
    fs.mkdirSync(live);

    hang = false;
    const next = await spawnCli(dir).exited;
    assert.equal(next.code, 0, next.stdout);
    const removed = next.stdout.split('\n').filter((l) => l.includes('Removed the staging folder'));
    assert.equal(removed.length, 1, next.stdout);
    assert.match(
      removed[0]!,
      new RegExp(
        `logger\\.INFO: Removed the staging folder out/${left[0]} \\(\\d+(\\.\\d)? (B|KiB|MiB)\\) left by an interrupted run\\. \\[\\] \\[\\]$`,
      ),
    );
    assert.deepEqual(stagingFolders(dir), [path.basename(live)]);
    const tables = readTables(dir);
    assert.deepEqual(Object.keys(tables), ['b.rows', 'b.rows.manifest']);
    assert.equal(tables['b.rows']!.split('\n').length, 1 + 4000 + 1, 'header, the rows of pages 1 and 2, final newline');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('which staging folders are stale: a dead process of this namespace, or a folder quiet for too long', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ge-stale-'));
  try {
    const out = path.join(dir, 'out');
    const tables = path.join(out, 'tables');
    fs.mkdirSync(tables, { recursive: true });
    // A process id that is not running: a child that has exited.
    const dead = spawnSyncPid();
    const own = /^\.staging-\d+-(.*)-$/.exec(stagingPrefix())![1]!;
    const [boot, ns] = own.split('.');
    const otherNamespace = `${boot}.${Number(ns) + 1}.12345`;
    const longAgo = new Date(Date.now() - QUIET_LIMIT_MS - 60_000);
    const make = (p: string, options: { bytes?: number; quiet?: boolean } = {}): void => {
      fs.mkdirSync(p, { recursive: true });
      if (options.bytes) fs.writeFileSync(path.join(p, 'f'), Buffer.alloc(options.bytes));
      if (options.quiet) fs.utimesSync(p, longAgo, longAgo);
    };
    make(path.join(out, `.staging-${dead}-${boot}.${ns}.1-aaaaaa`), { bytes: 2048 }); // dead, this namespace
    make(path.join(out, `.staging-${process.pid}-${boot}.${ns}.1-cccccc`)); // this pid, another start: a reused id
    make(path.join(tables, `.staging-${dead}-${boot}.${ns}.1-bbbbbb`), { bytes: 10 }); // a cross-device landing folder
    make(path.join(out, `${stagingPrefix()}live`)); // this very process
    make(path.join(out, `.staging-1-${otherNamespace}-other1`)); // another container's live run (PID 1 there)
    make(path.join(out, `.staging-1-${otherNamespace}-other2`), { quiet: true }); // another container's run, gone
    make(path.join(out, `.staging-${dead}-legacy`)); // an older version's name: judged by its heartbeat
    make(path.join(out, `.staging-${dead}-legacyquiet`), { quiet: true });
    make(path.join(out, '.staging-Xy12Zq'), { quiet: true }); // older name without a process id
    fs.writeFileSync(path.join(out, '.staging-notes'), 'a file, not a folder');
    fs.writeFileSync(path.join(tables, 'kept'), 'a table');
    const removed = removeStaleStaging(dir).sort((a, b) => a.relative.localeCompare(b.relative));
    assert.deepEqual(
      removed.map((r) => r.relative),
      [
        `out/.staging-${dead}-${boot}.${ns}.1-aaaaaa`,
        `out/.staging-${process.pid}-${boot}.${ns}.1-cccccc`,
        `out/tables/.staging-${dead}-${boot}.${ns}.1-bbbbbb`,
        `out/.staging-1-${otherNamespace}-other2`,
        `out/.staging-${dead}-legacyquiet`,
        'out/.staging-Xy12Zq',
      ].sort((a, b) => a.localeCompare(b)),
    );
    assert.equal(removed.find((r) => r.relative.endsWith('aaaaaa'))!.bytes, 2048);
    assert.deepEqual(
      fs.readdirSync(out).sort(),
      [`${stagingPrefix()}live`, `.staging-1-${otherNamespace}-other1`, `.staging-${dead}-legacy`, '.staging-notes', 'tables'].sort(),
    );
    assert.deepEqual(fs.readdirSync(tables), ['kept']);
    assert.deepEqual(removeStaleStaging(path.join(dir, 'missing')), []);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('a live run marks its staging folder alive: the heartbeat refreshes its modification time', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ge-beat-'));
  const longAgo = new Date(Date.now() - QUIET_LIMIT_MS - 60_000);
  fs.utimesSync(dir, longAgo, longAgo);
  const { mock } = await import('node:test');
  mock.timers.enable({ apis: ['setInterval'] });
  try {
    const stop = keepMarkedAlive(dir);
    mock.timers.tick(HEARTBEAT_MS);
    stop();
    assert.ok(Date.now() - fs.statSync(dir).mtimeMs < QUIET_LIMIT_MS);
  } finally {
    mock.timers.reset();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

function spawnSyncPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(child.stdout);
}

/** Whether this machine lets a test start a process in a PID namespace of its own. */
function pidNamespacesAvailable(): boolean {
  return spawnSync('unshare', ['--pid', '--fork', '--mount-proc', 'true']).status === 0;
}

test('two runs on one data folder, each PID 1 in its own PID namespace: the second leaves the first one staging alone', {
  timeout: 30_000,
  skip: pidNamespacesAvailable() ? false : 'unshare --pid is not permitted here',
}, async () => {
  // The first run's page 2 waits until the second run has ended; the second run's is answered.
  let releaseFirst: (() => void) | undefined;
  const server = await startServer((req, res) => {
    res.setHeader('Content-Type', 'application/json');
    const page = Number(/[?&]page=(\d+)/.exec(req.target)?.[1] ?? 1);
    const rows = page >= 3 ? [] : [{ id: page }];
    if (page === 2 && releaseFirst === undefined) releaseFirst = () => res.end(JSON.stringify(rows));
    else res.end(JSON.stringify(rows));
  });
  const dir = makeDataDir({
    parameters: {
      api: { baseUrl: `${server.url}/`, pagination: { method: 'pagenum' } },
      config: { outputBucket: 'b', jobs: [{ endpoint: 'rows' }] },
    },
  });
  const inOwnNamespace = (): Promise<{ code: number | null; stdout: string }> =>
    new Promise((resolve) => {
      const child = spawn('unshare', ['--pid', '--fork', '--mount-proc', process.execPath, CLI], {
        env: { PATH: process.env['PATH'] ?? '', KBC_DATADIR: dir },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
      child.on('close', (code) => resolve({ code, stdout }));
    });
  try {
    const first = inOwnNamespace();
    while (releaseFirst === undefined) await new Promise((r) => setTimeout(r, 10));
    const second = await inOwnNamespace();
    assert.equal(second.code, 0, second.stdout);
    assert.doesNotMatch(second.stdout, /Removed the staging folder/);
    releaseFirst();
    const done = await first;
    assert.equal(done.code, 0, done.stdout);
    assert.deepEqual(stagingFolders(dir), []);
  } finally {
    await server.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
