/**
 * V8's compile cache for the command: where code caches live (under os.tmpdir(), or in
 * NODE_COMPILE_CACHE), and Node's cache turned on where modules are loaded after the command's
 * entry (src/cli.ts: the output worker's thread, the cache fill, a run from the sources); Node
 * then stores their compiled code, and later runs skip compiling it. The built command's run loads
 * only the extractor's bundle, with a cache of its own in the same folders
 * (src/runtime/scriptCache.ts). A cache that cannot be written only costs that time, never the run.
 *
 * The image ships a cache filled at build time (EX_GENERIC_COMPILE_CACHE, outside /tmp: the
 * platform mounts a fresh /tmp over the image's). Node keeps its cache in a subfolder named after
 * the Node version, the V8 flags and the uid (`v24.21.0-x64-964aae3f-0`), and the platform runs the
 * container as a uid of its own, so the shipped folder is copied under the running uid's name
 * into the cache folder in /tmp: any uid reads the cache the build filled.
 */
import fs from 'node:fs';
import module from 'node:module';
import os from 'node:os';
import path from 'node:path';

/** Node's name for a cache subfolder ends with `-⟨uid⟩` (Node 22–24, src/compile_cache.cc). */
const UID_SUFFIX = /-\d+$/;

/**
 * The cache folder, created here one level deep: Node creates it recursively and, measured with
 * Node 24.21, that loops forever on a parent it cannot create in (a TMPDIR under /proc, say).
 * Undefined when it cannot be made: the run goes on without the cache.
 */
export function cacheDir(dir: string): string | undefined {
  try {
    fs.mkdirSync(dir, { mode: 0o700 });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') return undefined;
  }
  return dir;
}

/**
 * Copies each subfolder of the shipped cache into `dir` under this uid's name, unless that name
 * is taken (this uid's own cache, or the copy of an earlier run). A copy rather than a link, so
 * that Node writes into it as into a cache of its own (the image's folder is read-only for the
 * job); it is a few hundred KB. A shipped cache of another Node version or other V8 flags is
 * copied too and simply not used: Node looks only for its own name.
 */
function copyShippedCache(shipped: string, dir: string): void {
  const uid = process.getuid?.();
  if (uid === undefined) return;
  for (const entry of fs.readdirSync(shipped)) {
    if (!UID_SUFFIX.test(entry)) continue;
    const target = path.join(dir, entry.replace(UID_SUFFIX, `-${uid}`));
    if (fs.existsSync(target)) continue;
    try {
      fs.cpSync(path.join(shipped, entry), target, { recursive: true });
    } catch {
      // Not copied (no room in /tmp): this run compiles, as without a shipped cache.
    }
  }
}

/** Where code caches are read and written (src/runtime/scriptCache.ts keeps the extractor's there too). */
export interface CacheFolders {
  /** This process's cache folder: read first, and written. */
  writable: string;
  /** The image's cache (EX_GENERIC_COMPILE_CACHE), read-only for a job: read after `writable`. */
  shipped?: string;
}

/**
 * The cache folders, without touching the disk: a run of the built command needs no more
 * (src/cli.ts): it compiles no module after its own entry, only the extractor's bundle, whose
 * cache src/runtime/scriptCache.ts reads from these folders and writes (making the folder then).
 * Turning Node's cache on, creating its folder and copying the shipped one cost every start ~1 ms
 * for nothing (docs/performance.md, issue 28). `fill` (the image build's `--fill-compile-cache`)
 * writes into the shipped cache itself.
 */
export function compileCacheFolders(fill = false): CacheFolders | undefined {
  const shipped = process.env['EX_GENERIC_COMPILE_CACHE'] || undefined;
  // NODE_COMPILE_CACHE, when set, is Node's own business (it reads it before any of our code).
  const own = process.env['NODE_COMPILE_CACHE'];
  if (own !== undefined) return own === '' ? undefined : { writable: own, ...(shipped ? { shipped } : {}) };
  if (fill && shipped !== undefined) return { writable: shipped };
  return { writable: path.join(os.tmpdir(), 'node-compile-cache'), ...(shipped !== undefined ? { shipped } : {}) };
}

/**
 * Turns Node's cache on for the modules loaded from now on (the output worker's thread, the
 * cache fill, a run from the sources) and returns the folders; without a usable folder, does
 * nothing and returns undefined.
 */
export function enableCompileCache(fill = false): CacheFolders | undefined {
  try {
    const folders = compileCacheFolders(fill);
    if (folders === undefined || process.env['NODE_COMPILE_CACHE'] !== undefined) return folders;
    if (cacheDir(folders.writable) === undefined) return undefined;
    if (folders.shipped !== undefined) copyShippedCache(folders.shipped, folders.writable);
    module.enableCompileCache(folders.writable);
    return folders;
  } catch {
    // No usable cache directory: run without the cache.
    return undefined;
  }
}
