/**
 * The built command (the bundle `dist/cli.js` → the bundle `dist/extractor.cjs`, scripts/bundle.ts):
 * what a run loads. Start-up cost is mostly module loading, so these checks keep the heavy parts out of
 * a plain run: one bundle file, ssh2 only when `sshProxy` is configured, no ajv compiler; and the
 * compile cache that the image fills at build time is the one a run uses.
 * `npm test` builds dist/ first (pretest).
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

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const CLI = path.join(ROOT, 'dist', 'cli.js');
const BUNDLE = path.join(ROOT, 'dist', 'extractor.cjs');
const WORKER_BUNDLE = path.join(ROOT, 'dist', 'outputWorker', 'entry.js');

let api: TestServer;
before(async () => {
  api = await startServer((_req, res) => json(res, 200, { items: [{ id: 1 }] }));
});
after(() => api.close());

test('dist/extractor.cjs is one bundle: no relative imports, ssh2 only when a tunnel opens', () => {
  assert.ok(fs.existsSync(BUNDLE), `${BUNDLE} is missing: run npm run build`);
  const code = fs.readFileSync(BUNDLE, 'utf8');
  assert.doesNotMatch(code, /\b(from\s*|require\()["']\.\.?\//, 'a static import of another dist/ file');
  assert.doesNotMatch(code, /\bfrom\s*["']ssh2["']/, 'a static import of ssh2');
  // Read as Latin-1 (src/runtime/scriptCache.ts): any other character would be misread.
  assert.doesNotMatch(code, /[^\0-\x7f]/, 'ASCII only');
  // A script has no dynamic import (src/runtime/scriptCache.ts): ssh2 is required when a tunnel opens.
  assert.doesNotMatch(code, /\bimport\(/, 'a dynamic import');
  assert.deepEqual(
    [...code.matchAll(/.*\brequire_ssh2\(\).*/g)].map((m) => m[0].trim()),
    ['var loadSsh2 = () => ssh2 ??= Promise.resolve().then(() => __toESM(require_ssh2(), 1));'],
    'ssh2 required when a tunnel opens, and only then',
  );
});

test('dist/cli.js is one bundle: the compile cache and the dispatch inside, the extractor and the worker loaded when needed', () => {
  const code = fs.readFileSync(CLI, 'utf8');
  assert.ok(code.startsWith('#!/usr/bin/env node\n'), 'the npm bin needs its shebang');
  assert.doesNotMatch(code, /\bfrom\s*["']\.\.?\//, 'a static import of another dist/ file');
  const dynamic = [...code.matchAll(/\bimport\(\s*["']([^"']+)["']\s*\)/g)].map((m) => m[1]);
  // ./extractor.js: the sources' fallback when there is no bundle (src/cli.ts); dist always has one.
  assert.deepEqual([...new Set(dynamic)].sort(), ['./extractor.js', './outputWorker/entry.js']);
  assert.match(code, /new URL\("\.\/extractor\.cjs", import\.meta\.url\)/);
});

test('the output worker has a bundle of its own, without the HTTP stack, the logger or the validators', () => {
  const code = fs.readFileSync(WORKER_BUNDLE, 'utf8');
  assert.doesNotMatch(code, /\bfrom\s*["']\.\.?\//, 'a static import of another dist/ file');
  assert.doesNotMatch(code, /["']node:(http|https|net|tls|zlib)["']/);
  assert.doesNotMatch(code, /winston|ajv/i);
  assert.ok(code.length < fs.statSync(BUNDLE).size / 5, 'a fraction of the extractor bundle');
});

/** What a one-request run of the built command with a preloaded hook printed, and what the hook wrote. */
interface HookedRun {
  stdout: string;
  stderr: string;
  /** The hook's file, as it wrote it. */
  listed: string;
  /** The run's data folder. */
  dir: string;
}

/**
 * Runs the built command once on a one-request data folder with `--import` of a hook whose source
 * is `hookSource(listFile)`, then `check`s it; the hook's folder and the data folder are removed after.
 */
async function withHookedRun(hookSource: (listFile: string) => string, check: (run: HookedRun) => void): Promise<void> {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'ge-cli-'));
  const hook = path.join(tmp, 'hook.mjs');
  const list = path.join(tmp, 'list.txt');
  fs.writeFileSync(hook, hookSource(list));
  const dir = makeDataDir({
    parameters: { api: { baseUrl: `${api.url}/` }, config: { outputBucket: 'b', jobs: [{ endpoint: 'items', dataField: 'items' }] } },
  });
  try {
    // Asynchronous: the API answering the run lives in this process.
    const run = await promisify(execFile)(process.execPath, ['--import', hook, CLI], {
      env: { PATH: process.env['PATH'] ?? '', KBC_DATADIR: dir },
      encoding: 'utf8',
    });
    check({ stdout: run.stdout, stderr: run.stderr, listed: fs.readFileSync(list, 'utf8'), dir });
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

test('a plain run loads the bundle and no ssh2, ajv compiler or other module file', async () => {
  // Records every module file the run loads (builtins are not files).
  await withHookedRun(
    (list) => `import { registerHooks } from 'node:module';
import fs from 'node:fs';
registerHooks({ load(url, context, next) { if (url.startsWith('file:')) fs.appendFileSync(${JSON.stringify(list)}, url + '\\n'); return next(url, context); } });
`,
    (run) => {
      assert.equal(run.stderr, '');
      const loaded = run.listed
        .trim()
        .split('\n')
        .map((u) => path.relative(ROOT, new URL(u).pathname));
      // The extractor's bundle is read as a script (src/runtime/scriptCache.ts), not through the loader.
      assert.deepEqual(loaded, ['dist/cli.js']);
      assert.equal(fs.readFileSync(path.join(run.dir, 'out', 'tables', 'b.items'), 'utf8'), '"id"\n"1"\n');
    },
  );
});

test("a plain one-request run loads none of Node's modules it does not use: no crypto, fs/promises, readline, worker_threads or the argument parser", async () => {
  // Node's own modules loaded by the end of the run; the hook itself takes fs without an ES import.
  await withHookedRun(
    (list) => `const fs = process.getBuiltinModule('node:fs');
process.on('exit', () => fs.writeFileSync(${JSON.stringify(list)}, process.moduleLoadList.join('\\n')));
`,
    (run) => {
      const loaded = new Set(run.listed.split('\n'));
      assert.ok(loaded.has('NativeModule http'), 'the list holds the modules the run needs');
      // Each was measured at 1–10 ms of a start (docs/performance.md, issue 28): crypto is loaded when
      // something hashes, the others only by an ES import's facade of node:fs or node:util; node:util's
      // parser (~0.8 ms) only for a command line that has arguments.
      for (const unused of [
        'crypto',
        'internal/fs/promises',
        'internal/readline/interface',
        'worker_threads',
        'internal/util/parse_args/parse_args',
      ]) {
        assert.ok(!loaded.has(`NativeModule ${unused}`), `${unused} was loaded`);
      }
      assert.equal(fs.readFileSync(path.join(run.dir, 'out', 'tables', 'b.items'), 'utf8'), '"id"\n"1"\n');
    },
  );
});

test('a plain one-request run creates neither process.stdout nor process.stderr: its lines go to fd 1 directly', async () => {
  // The hook notes who reads the two getters (creating the stream is their first read), and
  // reads neither itself.
  await withHookedRun(
    (list) => `const fs = process.getBuiltinModule('node:fs');
const created = [];
for (const name of ['stdout', 'stderr']) {
  const own = Object.getOwnPropertyDescriptor(process, name);
  Object.defineProperty(process, name, { configurable: true, enumerable: true, get() { created.push(name); return own.get.call(process); } });
}
process.on('exit', () => fs.writeFileSync(${JSON.stringify(list)}, created.join('\\n')));
`,
    (run) => {
      // Each stream's creation was measured at 1–3 ms of a one-request job (docs/performance.md, issue 28).
      assert.equal(run.listed, '');
      assert.match(run.stdout, /logger\.INFO: Summary: 1 request .*\n.*logger\.INFO: Extractor finished successfully\. \[\] \[\]\n$/);
    },
  );
});

test('--fill-compile-cache loads the extractor and the output worker, runs a sample, and a run then uses that cache', async () => {
  // The image's /tmp: the cache lives under os.tmpdir().
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'ge-cache-'));
  const dir = makeDataDir({
    parameters: { api: { baseUrl: `${api.url}/` }, config: { outputBucket: 'b', jobs: [{ endpoint: 'items', dataField: 'items' }] } },
  });
  const env = { PATH: process.env['PATH'] ?? '', TMPDIR: tmp };
  try {
    const fill = await promisify(execFile)(process.execPath, [CLI, '--fill-compile-cache'], { env, encoding: 'utf8' });
    assert.equal(fill.stdout + fill.stderr, '');
    assert.ok(fs.readdirSync(path.join(tmp, 'node-compile-cache'), { recursive: true }).length > 1, 'a cache entry was written');
    // The fill's sample extraction (src/runtime/cacheFill.ts) leaves its data folder nowhere.
    assert.deepEqual(
      fs.readdirSync(path.join(tmp, 'node-compile-cache')).filter((name) => name.startsWith('fill-')),
      [],
    );
    // Node reports on its compile cache with NODE_DEBUG_NATIVE; a rejected cache (other V8 flags at load) would be rebuilt.
    const run = await promisify(execFile)(process.execPath, [CLI], {
      env: { ...env, KBC_DATADIR: dir, NODE_DEBUG_NATIVE: 'COMPILE_CACHE', EX_GENERIC_OUTPUT_WORKER: 'always' },
      encoding: 'utf8',
    });
    assert.match(run.stderr, /code cache for script \S+\/dist\/extractor\.cjs was accepted/);
    // The worker starts after the run has set its heap flags: they are V8's defaults again while
    // it loads, so its code caches (this one, and Node's own) match (src/runtime/heapTuning.ts).
    assert.match(run.stderr, /code cache for ESM file:\S+\/dist\/outputWorker\/entry\.js was accepted/);
    assert.equal(fs.readFileSync(path.join(dir, 'out', 'tables', 'b.items'), 'utf8'), '"id"\n"1"\n');
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test("the extractor's code cache is written by the first extraction that succeeds, not by validate or a failed run", async () => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'ge-cache-'));
  const good = makeDataDir({
    parameters: { api: { baseUrl: `${api.url}/` }, config: { outputBucket: 'b', jobs: [{ endpoint: 'items', dataField: 'items' }] } },
  });
  const bad = makeDataDir({ parameters: { api: { baseUrl: 'not a url' }, config: { jobs: [{ endpoint: 'items' }] } } });
  const env = { PATH: process.env['PATH'] ?? '', TMPDIR: tmp };
  const scriptCaches = (): string[] => fs.readdirSync(path.join(tmp, 'node-compile-cache')).filter((f) => f.endsWith('.v8cache'));
  try {
    await promisify(execFile)(process.execPath, [CLI, 'validate'], { env: { ...env, KBC_DATADIR: good }, encoding: 'utf8' });
    await assert.rejects(promisify(execFile)(process.execPath, [CLI], { env: { ...env, KBC_DATADIR: bad }, encoding: 'utf8' }));
    // Not even the folder: a run makes it when it writes the cache (Node's own cache stays off).
    assert.deepEqual(fs.readdirSync(tmp), []);
    await promisify(execFile)(process.execPath, [CLI], { env: { ...env, KBC_DATADIR: good }, encoding: 'utf8' });
    assert.equal(scriptCaches().length, 1);
  } finally {
    for (const dir of [tmp, good, bad]) fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('a cache folder that cannot be created does not stop the run (Node alone would loop creating it)', {
  skip: !fs.existsSync('/proc/self'),
}, async () => {
  const dir = makeDataDir({
    parameters: { api: { baseUrl: `${api.url}/` }, config: { outputBucket: 'b', jobs: [{ endpoint: 'items', dataField: 'items' }] } },
  });
  try {
    // mkdir under /proc fails with ENOENT, which Node 24.21's recursive mkdir retries forever.
    const run = await promisify(execFile)(process.execPath, [CLI], {
      env: { PATH: process.env['PATH'] ?? '', TMPDIR: '/proc/ex-generic-no-such-dir', KBC_DATADIR: dir },
      encoding: 'utf8',
      timeout: 20_000,
    });
    assert.match(run.stdout, /Extractor finished successfully/);
    assert.equal(fs.readFileSync(path.join(dir, 'out', 'tables', 'b.items'), 'utf8'), '"id"\n"1"\n');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('the output worker of the built command: same tables; a failed run leaves nothing behind', async () => {
  // Pages of 2 records: offset 0 and 2 answer, offset 4 answers 404 only for the failing run.
  const server = await startServer((req, res) => {
    const offset = Number(new URL(req.target, 'http://x').searchParams.get('offset'));
    if (offset >= 4 && req.target.includes('fail=1')) return json(res, 404, { error: 'gone' });
    json(res, 200, {
      items:
        offset >= 4
          ? []
          : [
              { id: offset, tags: ['a', 'b'] },
              { id: offset + 1, x: { y: 1.5 } },
            ],
    });
  });
  const config = (fail: boolean): unknown => ({
    parameters: {
      api: { baseUrl: `${server.url}/`, pagination: { method: 'offset', limit: 2 } },
      config: {
        debug: true,
        outputBucket: 'b',
        jobs: [{ endpoint: 'items', dataField: 'items', ...(fail ? { params: { fail: 1 } } : {}) }],
      },
    },
  });
  const dirs = [makeDataDir(config(false)), makeDataDir(config(false)), makeDataDir(config(true))];
  const run = (dir: string, mode: string) =>
    promisify(execFile)(process.execPath, [CLI], {
      env: { PATH: process.env['PATH'] ?? '', KBC_DATADIR: dir, EX_GENERIC_OUTPUT_WORKER: mode },
      encoding: 'utf8',
    });
  const tables = (dir: string): Record<string, string> =>
    Object.fromEntries(
      fs.readdirSync(path.join(dir, 'out', 'tables')).map((f) => [f, fs.readFileSync(path.join(dir, 'out', 'tables', f), 'latin1')]),
    );
  try {
    const withWorker = await run(dirs[0]!, 'always');
    assert.match(withWorker.stdout, /Tables written by the output worker \(one pass over the batches\)\./);
    const without = await run(dirs[1]!, 'off');
    assert.doesNotMatch(without.stdout, /output worker/);
    assert.deepEqual(tables(dirs[0]!), tables(dirs[1]!));
    assert.deepEqual(Object.keys(tables(dirs[0]!)).sort(), ['b.items', 'b.items.manifest', 'b.items_tags', 'b.items_tags.manifest']);

    await assert.rejects(run(dirs[2]!, 'always'), (e: { code?: number }) => e.code === 1);
    // The out/ folder the failed run created is removed with it: the data folder as it was found.
    assert.deepEqual(fs.readdirSync(dirs[2]!), ['config.json'], 'no tables, no state, no staging folder');
  } finally {
    await server.close();
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  }
});
