/**
 * The extractor bundle's own code cache (src/runtime/scriptCache.ts): written after the work, so it
 * holds the functions the work compiled; read by the next load; never one of another build or of
 * other V8 flags. Real files in a temporary folder; V8 decides what it accepts. Each load that
 * reads a cache runs in a process of its own: within one, V8 reuses a script it compiled before
 * and never looks at the cache.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import module from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, test } from 'node:test';
import v8 from 'node:v8';
import type { CacheFolders } from '../../src/runtime/compileCache.ts';
import { CACHES_KEPT, loadScript, SCRIPT_WRAPPER } from '../../src/runtime/scriptCache.ts';

const SCRIPT_CACHE = path.resolve(import.meta.dirname, '..', '..', 'src', 'runtime', 'scriptCache.ts');

let work: string;
beforeEach(() => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'ge-script-cache-'));
});
afterEach(() => fs.rmSync(work, { recursive: true, force: true }));

/**
 * A CommonJS script whose `work()` calls functions that V8 compiles only when they run, wrapped
 * in its module function as the build writes the extractor's bundle; beside it (`.plain.cjs`) the
 * same code for Node's own loader.
 */
function writeScript(name: string, salt: string): string {
  const helpers = Array.from({ length: 40 }, (_, i) => `function helper${i}(x) { return [x, ${i}, '${salt}'].join('-').length + ${i}; }`);
  const calls = Array.from({ length: 40 }, (_, i) => `helper${i}(n)`).join(' + ');
  const file = path.join(work, name);
  const code = `${helpers.join('\n')}\nexports.work = (n) => ${calls};\nexports.salt = '${salt}';\n`;
  fs.writeFileSync(file, `${SCRIPT_WRAPPER.head}${code}${SCRIPT_WRAPPER.tail}`);
  fs.writeFileSync(`${file}.plain.cjs`, code);
  return file;
}

const cacheFiles = (dir: string): string[] => fs.readdirSync(dir).filter((f) => f.endsWith('.v8cache'));

/** Loads `file` in a fresh process, runs its work, saves the cache: what the load saw, and the work's result. */
function loadInFreshProcess(file: string, folders: CacheFolders): { cache: string; result: number } {
  const code = `import { loadScript } from ${JSON.stringify(SCRIPT_CACHE)};
const loaded = loadScript(${JSON.stringify(file)}, ${JSON.stringify(folders)});
const result = loaded.exports.work(1);
loaded.saveCache();
console.log(JSON.stringify({ cache: loaded.cache, result }));`;
  return JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', code], { encoding: 'utf8' }));
}

/** What Node's own CommonJS loader makes of the script's code. */
const required = (file: string): { work: (n: number) => number } => module.createRequire(import.meta.url)(`${file}.plain.cjs`);

test('a first load finds no cache; the cache written after the work is accepted by the next load', () => {
  const file = writeScript('bundle.cjs', 'a');
  assert.deepEqual(loadInFreshProcess(file, { writable: work }), { cache: 'none', result: required(file).work(1) });
  assert.equal(cacheFiles(work).length, 1);
  const written = fs.statSync(path.join(work, cacheFiles(work)[0]!)).mtimeMs;
  assert.deepEqual(loadInFreshProcess(file, { writable: work }), { cache: 'accepted', result: required(file).work(1) });
  assert.equal(fs.statSync(path.join(work, cacheFiles(work)[0]!)).mtimeMs, written, 'an accepted cache is not written again');
});

test('the cache holds the functions compiled by the work, not only the top level', () => {
  const before = path.join(work, 'before');
  const after = path.join(work, 'after');
  fs.mkdirSync(before);
  fs.mkdirSync(after);
  const file = writeScript('bundle.cjs', 'b');
  loadScript(file, { writable: before }).saveCache();
  const loaded = loadScript(file, { writable: after });
  (loaded.exports as { work: (n: number) => number }).work(2);
  loaded.saveCache();
  const size = (dir: string): number => fs.statSync(path.join(dir, cacheFiles(dir)[0]!)).size;
  assert.ok(size(after) > size(before) + 40 * 100, `${size(after)} bytes after the work, ${size(before)} before it`);
});

test("a rebuilt script of the same size does not read the old build's cache", () => {
  const file = writeScript('bundle.cjs', 'c');
  loadScript(file, { writable: work }).saveCache();
  const old = fs.statSync(file).mtime;
  writeScript('bundle.cjs', 'd');
  fs.utimesSync(file, old, new Date(old.getTime() + 2000));
  const rebuilt = loadScript(file, { writable: work });
  assert.equal(rebuilt.cache, 'none');
  assert.equal((rebuilt.exports as { salt: string }).salt, 'd');
});

test('a damaged cache is rejected and replaced; the shipped folder is read when the writable one has none', () => {
  const shipped = path.join(work, 'shipped');
  const writable = path.join(work, 'tmp');
  fs.mkdirSync(shipped);
  fs.mkdirSync(writable);
  const file = writeScript('bundle.cjs', 'e');
  loadInFreshProcess(file, { writable: shipped });
  assert.equal(loadInFreshProcess(file, { writable, shipped }).cache, 'accepted');
  assert.deepEqual(cacheFiles(writable), [], 'nothing written beside an accepted shipped cache');
  const name = cacheFiles(shipped)[0]!;
  fs.writeFileSync(path.join(writable, name), Buffer.alloc(64, 7));
  assert.deepEqual(loadInFreshProcess(file, { writable, shipped }), { cache: 'rejected', result: required(file).work(1) });
  assert.equal(loadInFreshProcess(file, { writable, shipped }).cache, 'accepted', 'replaced by a good one');
});

test('no cache is written under V8 flags other than those at load (the next run would reject it)', () => {
  const file = writeScript('bundle.cjs', 'f');
  const loaded = loadScript(file, { writable: work });
  v8.setFlagsFromString('--heap-growing-percent=25');
  try {
    loaded.saveCache();
  } finally {
    v8.setFlagsFromString('--heap-growing-percent=0');
  }
  assert.deepEqual(cacheFiles(work), []);
  loaded.saveCache();
  assert.equal(cacheFiles(work).length, 1, 'with the flags back, it is written');
});

test('the cache folder is made when a cache is written, not when the script is read', () => {
  const file = writeScript('bundle.cjs', 'g');
  const writable = path.join(work, 'node-compile-cache');
  const loaded = loadScript(file, { writable });
  assert.equal(fs.existsSync(writable), false, 'reading made no folder');
  loaded.saveCache();
  assert.equal(cacheFiles(writable).length, 1);
  assert.equal(fs.statSync(writable).mode & 0o777, 0o700);
});

test("old builds' caches of the script are removed when a new one is written: the newest few stay, other scripts' stay", () => {
  const file = writeScript('bundle.cjs', 'h');
  const other = path.join(work, 'other.cjs-1-2-3.v8cache');
  fs.writeFileSync(other, 'another script');
  const start = fs.statSync(file).mtime.getTime();
  const names: string[] = [];
  for (let build = 0; build < CACHES_KEPT + 3; build++) {
    // A rebuild: the same file, a newer modification time, so a cache of a name of its own.
    fs.utimesSync(file, new Date(start), new Date(start + (build + 1) * 2000));
    loadScript(file, { writable: work }).saveCache();
    names.push(cacheFiles(work).find((f) => f.startsWith('bundle.cjs-') && !names.includes(f))!);
    assert.ok(cacheFiles(work).filter((f) => f.startsWith('bundle.cjs-')).length <= CACHES_KEPT);
  }
  assert.deepEqual(
    cacheFiles(work)
      .filter((f) => f.startsWith('bundle.cjs-'))
      .sort(),
    names.slice(-CACHES_KEPT).sort(),
  );
  assert.ok(fs.existsSync(other));
});
