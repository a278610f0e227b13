/**
 * V8's compile cache for the command (src/cli.ts turns it on before the extractor's code is read):
 * Node then stores the compiled code of the modules loaded after that (under os.tmpdir(), per
 * user, or in NODE_COMPILE_CACHE), and later runs skip compiling it. A cache that cannot be
 * written only costs that time, never the run.
 */
import fs from 'node:fs';
import module from 'node:module';
import os from 'node:os';
import path from 'node:path';

/**
 * The cache folder, created here one level deep: Node creates it recursively and, measured with
 * Node 24.21, that loops forever on a parent it cannot create in (a TMPDIR under /proc, say).
 * Undefined when it cannot be made: the run goes on without the cache.
 */
function cacheDir(): string | undefined {
  const dir = path.join(os.tmpdir(), 'node-compile-cache');
  try {
    fs.mkdirSync(dir, { mode: 0o700 });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') return undefined;
  }
  return dir;
}

/** Turns the cache on for the modules loaded from now on; without a usable folder, does nothing. */
export function enableCompileCache(): void {
  try {
    // NODE_COMPILE_CACHE, when set, is Node's own business (it reads it before any of our code).
    const dir = process.env['NODE_COMPILE_CACHE'] === undefined ? cacheDir() : undefined;
    if (dir !== undefined) module.enableCompileCache(dir);
  } catch {
    // No usable cache directory: run without the cache.
  }
}
