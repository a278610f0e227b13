/**
 * The compile cache the image ships (EX_GENERIC_COMPILE_CACHE, src/runtime/compileCache.ts): filled
 * at build time under one uid, read by a run under another uid with a fresh, empty /tmp — as the
 * platform's runner starts the container. Runs the built command (`npm test` builds dist/ first).
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { promisify } from 'node:util';
import { makeDataDir } from '../helpers/dataDir.ts';
import { json, startServer, type TestServer } from '../helpers/httpServer.ts';

const CLI = path.resolve(import.meta.dirname, '..', '..', 'dist', 'cli.js');
const run = promisify(execFile);

let api: TestServer;
before(async () => {
  api = await startServer((_req, res) => json(res, 200, { items: [{ id: 1 }] }));
});
after(() => api.close());

/**
 * Node names its cache subfolders `v⟨version⟩-⟨arch⟩-⟨V8 tag⟩-⟨uid⟩`: the build's uid is not the
 * job's. As root (CI), the run really is another uid, with the shipped folder read-only for it;
 * otherwise the shipped subfolder is renamed as if another uid had filled it.
 */
function asAnotherUid(shipped: string, freshTmp: string): { uid?: number; gid?: number } {
  // Beside Node's subfolder, the extractor bundle's own cache file (src/runtime/scriptCache.ts).
  const scriptCaches = fs.readdirSync(shipped).filter((name) => name.endsWith('.v8cache'));
  assert.equal(scriptCaches.length, 1, `one cache of the extractor's bundle in ${shipped}`);
  const [entry, ...more] = fs.readdirSync(shipped).filter((name) => !name.endsWith('.v8cache'));
  assert.ok(entry !== undefined && more.length === 0, `one cache subfolder in ${shipped}`);
  assert.match(entry, new RegExp(`-${process.getuid?.()}$`), 'the subfolder carries the uid of the fill');
  if (process.getuid?.() !== 0) {
    fs.renameSync(path.join(shipped, entry), path.join(shipped, entry.replace(/-\d+$/, `-${(process.getuid?.() ?? 0) + 4242}`)));
    return {};
  }
  for (const dir of [path.dirname(shipped), shipped, path.join(shipped, entry)]) fs.chmodSync(dir, 0o755);
  for (const file of fs.readdirSync(path.join(shipped, entry))) fs.chmodSync(path.join(shipped, entry, file), 0o644);
  for (const file of scriptCaches) fs.chmodSync(path.join(shipped, file), 0o644);
  fs.chmodSync(freshTmp, 0o1777);
  return { uid: 4242, gid: 4242 };
}

test('a cache filled into EX_GENERIC_COMPILE_CACHE under another uid is read by a run with an empty /tmp', {
  skip: process.getuid === undefined,
}, async () => {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'ge-shipped-cache-'));
  const shipped = path.join(work, 'app-compile-cache');
  const freshTmp = path.join(work, 'tmp');
  fs.mkdirSync(freshTmp);
  const dir = makeDataDir({
    parameters: { api: { baseUrl: `${api.url}/` }, config: { outputBucket: 'b', jobs: [{ endpoint: 'items', dataField: 'items' }] } },
  });
  const env = { PATH: process.env['PATH'] ?? '', EX_GENERIC_COMPILE_CACHE: shipped };
  try {
    const fill = await run(process.execPath, [CLI, '--fill-compile-cache'], { env: { ...env, TMPDIR: work }, encoding: 'utf8' });
    assert.equal(fill.stdout + fill.stderr, '');
    assert.deepEqual(fs.readdirSync(work).sort(), ['app-compile-cache', 'tmp'], 'the fill wrote nothing under TMPDIR');
    const ids = asAnotherUid(shipped, freshTmp);
    fs.chmodSync(dir, 0o777);
    const result = await run(process.execPath, [CLI], {
      env: { ...env, TMPDIR: freshTmp, KBC_DATADIR: dir, NODE_DEBUG_NATIVE: 'COMPILE_CACHE' },
      encoding: 'utf8',
      ...ids,
    });
    assert.match(result.stderr, /code cache for script \S+\/dist\/extractor\.cjs was accepted/);
    assert.equal(fs.readFileSync(path.join(dir, 'out', 'tables', 'b.items'), 'utf8'), '"id"\n"1"\n');
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('without debug output a run on the shipped cache prints nothing on stderr', async () => {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'ge-shipped-cache-'));
  const shipped = path.join(work, 'app-compile-cache');
  const dir = makeDataDir({
    parameters: { api: { baseUrl: `${api.url}/` }, config: { outputBucket: 'b', jobs: [{ endpoint: 'items', dataField: 'items' }] } },
  });
  const env = { PATH: process.env['PATH'] ?? '', EX_GENERIC_COMPILE_CACHE: shipped, TMPDIR: work };
  try {
    await run(process.execPath, [CLI, '--fill-compile-cache'], { env, encoding: 'utf8' });
    // The image's folder is read-only for the job: nothing may be reported when a write fails.
    fs.chmodSync(shipped, 0o555);
    const result = await run(process.execPath, [CLI], { env: { ...env, KBC_DATADIR: dir }, encoding: 'utf8' });
    assert.equal(result.stderr, '');
    assert.match(result.stdout, /Extractor finished successfully/);
  } finally {
    fs.chmodSync(shipped, 0o755);
    fs.rmSync(work, { recursive: true, force: true });
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
