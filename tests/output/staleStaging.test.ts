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
import { removeStaleStaging } from '../../src/output/staleStaging.ts';
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

test('which staging folders are stale: dead or no process id, in out/ and in out/tables/', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ge-stale-'));
  try {
    const out = path.join(dir, 'out');
    const tables = path.join(out, 'tables');
    fs.mkdirSync(tables, { recursive: true });
    // A process id that is not running: a child that has exited.
    const dead = spawnSyncPid();
    const make = (p: string, bytes = 0): void => {
      fs.mkdirSync(p, { recursive: true });
      if (bytes > 0) fs.writeFileSync(path.join(p, 'f'), Buffer.alloc(bytes));
    };
    make(path.join(out, `.staging-${dead}-aaaaaa`), 2048);
    make(path.join(out, '.staging-Xy12Zq')); // older name without a process id
    make(path.join(tables, `.staging-${dead}-bbbbbb`), 10); // a landing folder of a cross-device move
    make(path.join(out, `.staging-${process.ppid}-live`)); // a running process (this test's parent)
    fs.writeFileSync(path.join(out, '.staging-notes'), 'a file, not a folder');
    fs.writeFileSync(path.join(tables, 'kept'), 'a table');
    const removed = removeStaleStaging(dir).sort((a, b) => a.relative.localeCompare(b.relative));
    assert.deepEqual(
      removed,
      [
        { relative: `out/.staging-${dead}-aaaaaa`, bytes: 2048 },
        { relative: 'out/.staging-Xy12Zq', bytes: 0 },
        { relative: `out/tables/.staging-${dead}-bbbbbb`, bytes: 10 },
      ].sort((a, b) => a.relative.localeCompare(b.relative)),
    );
    assert.deepEqual(fs.readdirSync(out).sort(), [`.staging-${process.ppid}-live`, '.staging-notes', 'tables']);
    assert.deepEqual(fs.readdirSync(tables), ['kept']);
    assert.deepEqual(removeStaleStaging(path.join(dir, 'missing')), []);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

function spawnSyncPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(child.stdout);
}
