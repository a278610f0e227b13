/**
 * Moving the staged tables into `out/tables` when it is another file system (issue 19 #6):
 * a real tmpfs mounted on `out/tables` where the test runs as root, and the EXDEV that the
 * kernel returns raised at the rename seam elsewhere (the copy, fsync and final renames are
 * real file operations either way).
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { OutputStaging } from '../../src/output/staging.ts';
import { makeDataDir, readTables, runIn } from '../helpers/dataDir.ts';
import { startServer, type TestServer } from '../helpers/httpServer.ts';

let api: TestServer;
before(async () => {
  api = await startServer((req, res) => {
    res.setHeader('Content-Type', 'application/json');
    // `/big/<n>`: n users of 1 KiB each.
    const big = /^\/big\/(\d+)/.exec(req.target);
    const n = big ? Number(big[1]) : 2;
    res.end(JSON.stringify(Array.from({ length: n }, (_, i) => ({ id: i + 1, name: big ? 'x'.repeat(1024) : `user ${i + 1}` }))));
  });
});
after(() => api.close());

function config(endpoint = 'users'): unknown {
  return { parameters: { api: { baseUrl: `${api.url}/` }, config: { outputBucket: 'b', debug: true, jobs: [{ endpoint }] } } };
}

function stagingLeft(dir: string): string[] {
  const out = path.join(dir, 'out');
  return (fs.readdirSync(out, { recursive: true }) as string[]).filter((f) => path.basename(f).startsWith('.staging-'));
}

/** Mounts a tmpfs on `dir`; the reason it cannot, or undefined. */
function mountTmpfs(dir: string, size: string): string | undefined {
  if (process.getuid?.() !== 0) return 'needs root to mount a tmpfs';
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir], { stdio: 'pipe' });
    return undefined;
  } catch (error) {
    return `mount -t tmpfs failed: ${String((error as { stderr?: Buffer }).stderr ?? error).trim()}`;
  }
}

function umount(dir: string): void {
  execFileSync('umount', [dir], { stdio: 'pipe' });
}

const canMount = ((): string | undefined => {
  const probe = fs.mkdtempSync(path.join(os.tmpdir(), 'ge-mount-probe-'));
  const reason = mountTmpfs(probe, '64k');
  if (reason === undefined) umount(probe);
  fs.rmSync(probe, { recursive: true, force: true });
  return reason;
})();

test('out/tables on a tmpfs of its own: the tables are copied into place', { skip: canMount }, async () => {
  const dir = makeDataDir(config());
  const tables = path.join(dir, 'out', 'tables');
  fs.mkdirSync(tables, { recursive: true });
  assert.equal(mountTmpfs(tables, '1m'), undefined);
  try {
    assert.notEqual(fs.statSync(tables).dev, fs.statSync(path.join(dir, 'out')).dev);
    const r = await runIn(dir);
    assert.equal(r.code, 0, r.lines.slice(-2).join('\n'));
    assert.deepEqual(readTables(dir), {
      'b.users': '"id","name"\n"1","user 1"\n"2","user 2"\n',
      'b.users.manifest': '{"destination":"in.c-b.users","incremental":false}',
    });
    assert.ok(r.lines.some((l) => l.includes('out/tables is on another file system than out/: the tables were copied into place.')));
    assert.deepEqual(stagingLeft(dir), []);
  } finally {
    umount(tables);
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('out/tables on a tmpfs too small for the tables: the run fails and out/tables stays empty', { skip: canMount }, async () => {
  // 400 rows of 1 KiB do not fit into 128 KiB: the copy fails part-way with ENOSPC.
  const dir = makeDataDir(config('big/400'));
  const tables = path.join(dir, 'out', 'tables');
  fs.mkdirSync(tables, { recursive: true });
  assert.equal(mountTmpfs(tables, '128k'), undefined);
  try {
    const r = await runIn(dir);
    assert.equal(r.code, 2);
    const last = r.lines.at(-1) ?? '';
    assert.match(last, /logger\.ERROR: Moving the tables into \S+\/out\/tables failed: ENOSPC: no space left on device/);
    assert.ok(!last.includes('"trace"'), last);
    assert.deepEqual(fs.readdirSync(tables), [], 'no table, no half-copied file, no landing folder');
    assert.ok(!fs.existsSync(path.join(dir, 'out', 'state.json')));
    assert.deepEqual(stagingLeft(dir), []);
  } finally {
    umount(tables);
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

/**
 * The kernel's rule for a mount on `out/tables`: a rename whose source is outside it fails
 * with EXDEV; renames inside it work.
 */
function crossDeviceRename(tablesDir: string): (from: string, to: string) => void {
  return (from, to) => {
    if (!from.startsWith(tablesDir + path.sep)) {
      throw Object.assign(new Error(`EXDEV: cross-device link not permitted, rename '${from}' -> '${to}'`), { code: 'EXDEV' });
    }
    fs.renameSync(from, to);
  };
}

test('EXDEV at the rename seam: copy, fsync, rename on the destination; other files in out/tables are kept', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ge-exdev-'));
  const tables = path.join(dir, 'out', 'tables');
  fs.mkdirSync(tables, { recursive: true });
  fs.writeFileSync(path.join(tables, 'kept'), 'from before');
  try {
    const staging = new OutputStaging(dir, { rename: crossDeviceRename(tables) });
    const sink = staging.sink('b');
    const users = sink.open('users', ['id', 'name']);
    users.write(['1', 'a']);
    const orders = sink.open('orders', ['id']);
    orders.write(['7']);
    staging.setManifest('b.users', '{"incremental":false}');
    assert.equal(staging.commit(), 'copy');
    assert.deepEqual(readTables(dir), {
      'b.orders': '"id"\n"7"\n',
      'b.users': '"id","name"\n"1","a"\n',
      'b.users.manifest': '{"incremental":false}',
      kept: 'from before',
    });
    assert.deepEqual(stagingLeft(dir), []);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('same file system: the tables are renamed into place', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ge-rename-'));
  try {
    const staging = new OutputStaging(dir);
    assert.match(path.basename(staging.dir), new RegExp(`^\\.staging-${process.pid}-`));
    staging.sink(null).open('t', ['a']).write(['1']);
    assert.equal(staging.commit(), 'rename');
    assert.deepEqual(readTables(dir), { t: '"a"\n"1"\n' });
    assert.deepEqual(stagingLeft(dir), []);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('a run that ends without output removes the out/ it created, and only that', () => {
  const created = makeDataDir({});
  new OutputStaging(created).discard();
  assert.equal(fs.existsSync(path.join(created, 'out')), false);

  const existing = makeDataDir({});
  fs.mkdirSync(path.join(existing, 'out'));
  new OutputStaging(existing).discard();
  assert.deepEqual(fs.readdirSync(path.join(existing, 'out')), []);

  const withState = makeDataDir({});
  const staging = new OutputStaging(withState);
  fs.writeFileSync(path.join(withState, 'out', 'state.json'), '{}');
  staging.discard();
  assert.deepEqual(fs.readdirSync(path.join(withState, 'out')), ['state.json']);
});

test('a failed run leaves the data folder as it found it: no out/ when there was none', async () => {
  const refused = {
    parameters: { api: { baseUrl: 'http://127.0.0.1:9/', retryConfig: { maxRetries: 0 } }, config: { jobs: [{ endpoint: 'x' }] } },
  };
  const r = await runIn(makeDataDir(refused));
  assert.equal(r.code, 1);
  assert.deepEqual(fs.readdirSync(r.dir), ['config.json']);
});
