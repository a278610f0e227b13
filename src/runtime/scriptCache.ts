/**
 * The extractor's bundle loaded as a script with a V8 code cache of our own (src/cli.ts), for the
 * functions a run calls, not only those compiled when the file is read.
 *
 * Node's compile cache (src/runtime/compileCache.ts) writes an ES module's cache when the module
 * is compiled, before it runs: it holds the module's top level, and every run compiled again the
 * ~500 functions it calls (V8 compiles a function when it is first called). A `vm.Script`'s cache
 * can be made after the run instead (`createCachedData` includes every function compiled by then):
 * measured on a one-request job, 114 → 91 ms (docs/performance.md, issue 28). So the bundle is
 * CommonJS (dist/extractor.cjs, scripts/bundle.ts), read here with the cache if there is one, and
 * the cache is written after a run that found none (or found it rejected: another V8, other flags).
 *
 * V8 checks a cache against its version, its flags and the source's length only, so the file's name
 * carries V8's tag (version and flags), the bundle's size and its modification time: a rebuilt
 * bundle finds no cache of the old one. A cache that cannot be read or written only costs the
 * compile time, never the run.
 */
import fs from 'node:fs';
import module from 'node:module';
import path from 'node:path';
import v8 from 'node:v8';
import vm from 'node:vm';
import { type CacheFolders, cacheDir } from './compileCache.ts';

export interface LoadedScript {
  /** What the script assigned to `module.exports`. */
  exports: unknown;
  /** What became of the cache at load: V8 used it, refused it, or there was none. */
  cache: 'accepted' | 'rejected' | 'none';
  /**
   * Writes the cache when none was accepted at load (into the writable folder), with what has been
   * compiled so far; call it once the work whose functions should be cached is done, with V8's
   * flags as they were at load (a cache made under other flags is rejected by the next run).
   */
  saveCache(): void;
}

/**
 * Node's own CommonJS wrapper, so the bundle reads as it would under require(). The build writes
 * it into the file (scripts/bundle.ts): the text read is compiled as is, one ~740 KB string,
 * where wrapping it here made a second one (young-generation space: one scavenge more).
 */
export const SCRIPT_WRAPPER = { head: '(function (exports, require, module, __filename, __dirname) {', tail: '\n})' } as const;

/** The cache file's name for `file` under V8's current flags. */
function cacheName(file: string): string {
  const stat = fs.statSync(file);
  return `${path.basename(file)}-${v8.cachedDataVersionTag()}-${stat.size}-${Math.trunc(stat.mtimeMs)}.v8cache`;
}

/** The first cache of `name` in the folders (the writable one first: it may be newer), if any. */
function readCache(folders: CacheFolders | undefined, name: string): Buffer | undefined {
  for (const dir of [folders?.writable, folders?.shipped]) {
    if (dir === undefined) continue;
    try {
      return fs.readFileSync(path.join(dir, name));
    } catch {
      // Not there: the next folder, or none.
    }
  }
  return undefined;
}

/** Caches of one script kept in the writable folder: the newest, by modification time. */
export const CACHES_KEPT = 4;

/**
 * Writes through a temporary name, so a concurrent run never reads half a cache. The folder is
 * made here, when a cache is written, not at every start (src/runtime/compileCache.ts).
 */
function writeCache(dir: string, name: string, data: Buffer): void {
  const temporary = path.join(dir, `${name}.${process.pid}.tmp`);
  try {
    if (cacheDir(dir) === undefined) return;
    fs.writeFileSync(temporary, data, { mode: 0o600 });
    fs.renameSync(temporary, path.join(dir, name));
  } catch {
    fs.rmSync(temporary, { force: true });
    return;
  }
  pruneCaches(dir, name);
}

/**
 * Each build of the bundle has a cache of its own name (~700 KB) and none was ever removed: a
 * developer's /tmp held 200 of them (150 MB). Beyond the CACHES_KEPT newest of the script, older
 * ones go when a new one is written — a few, so that two checkouts used in turn keep theirs.
 */
function pruneCaches(dir: string, name: string): void {
  const script = name.slice(0, name.indexOf('-') + 1);
  try {
    const caches = fs
      .readdirSync(dir)
      .filter((entry) => entry.startsWith(script) && entry.endsWith('.v8cache') && entry !== name)
      .map((entry) => ({
        file: path.join(dir, entry),
        mtimeMs: fs.statSync(path.join(dir, entry), { throwIfNoEntry: false })?.mtimeMs ?? 0,
      }))
      .sort((a, b) => b.mtimeMs - a.mtimeMs);
    for (const { file } of caches.slice(CACHES_KEPT - 1)) fs.rmSync(file, { force: true });
  } catch {
    // Not pruned (the folder went away, a file is not ours to remove): only disk space.
  }
}

/**
 * Runs the CommonJS script `file`, written in ASCII and wrapped in its module function
 * (`SCRIPT_WRAPPER`; its `require` resolves from its own place; it may not use a dynamic
 * `import()`, which a `vm.Script` has only under Node's experimental flags) and returns its
 * exports. Without cache folders it is compiled as usual, and `saveCache` does nothing.
 */
export function loadScript(file: string, folders: CacheFolders | undefined): LoadedScript {
  const name = cacheName(file);
  const cachedData = readCache(folders, name);
  // One byte per character: the build writes the bundle in ASCII (scripts/bundle.ts), and a
  // one-byte string is half the memory of the two-byte one a single other character would make.
  const source = fs.readFileSync(file, 'latin1');
  const script = new vm.Script(source, {
    filename: file,
    ...(cachedData !== undefined ? { cachedData } : {}),
  });
  const scriptModule = { exports: {} as unknown };
  const wrapper = script.runInThisContext() as (...args: unknown[]) => void;
  wrapper(scriptModule.exports, module.createRequire(file), scriptModule, file, path.dirname(file));
  const cache = cachedData === undefined ? 'none' : script.cachedDataRejected ? 'rejected' : 'accepted';
  debug(`V8 code cache for script ${file} ${cache === 'none' ? 'was not found' : `was ${cache}`}`);
  return {
    exports: scriptModule.exports,
    cache,
    saveCache: () => {
      // Flags changed since the load (a run's heap tuning left on): the next run would reject it.
      if (cache === 'accepted' || folders === undefined || cacheName(file) !== name) return;
      writeCache(folders.writable, name, script.createCachedData());
      debug(`V8 code cache for script ${file} written to ${folders.writable}`);
    },
  };
}

/** On Node's own debug channel for its compile cache (NODE_DEBUG_NATIVE=COMPILE_CACHE), as Node words it. */
function debug(message: string): void {
  if (/\bCOMPILE_CACHE\b/.test(process.env['NODE_DEBUG_NATIVE'] ?? '')) fs.writeSync(2, `[compile cache] ${message}\n`);
}
