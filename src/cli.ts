#!/usr/bin/env node
/**
 * The extractor command: one run on $KBC_DATADIR (default /data), exit code 0, 1 or 2.
 *
 * Kept tiny so that V8's compile cache is on before the extractor's code is read: Node then stores
 * the compiled code of the modules loaded after this call (under os.tmpdir(), per user, or in
 * NODE_COMPILE_CACHE), and later runs skip compiling it. A cache that cannot be written only
 * costs that time, never the run.
 *
 * `--fill-compile-cache` loads the extractor and the output worker's code without running them:
 * the image build uses it so that every job's fresh container starts with a filled cache.
 *
 * Loaded in a worker thread, it is the automatic parser's output worker (see below).
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

try {
  // NODE_COMPILE_CACHE, when set, is Node's own business (it reads it before any of our code).
  const dir = process.env['NODE_COMPILE_CACHE'] === undefined ? cacheDir() : undefined;
  if (dir !== undefined) module.enableCompileCache(dir);
} catch {
  // No usable cache directory: run without the cache.
}
/**
 * The automatic parser's output worker runs this command in a worker thread, with this argument
 * (OUTPUT_WORKER_ARG of src/mapping/auto/outputWorker.ts; a test runs a worker), and loads the
 * output phase's own small bundle only.
 */
const outputWorker = process.argv.includes('--auto-output-worker') ? await import('./mapping/auto/outputWorkerEntry.ts') : undefined;
if (process.argv[2] === '--fill-compile-cache') {
  await import('./extractor.ts');
  await import('./mapping/auto/outputWorkerEntry.ts');
} else if (outputWorker === undefined || !outputWorker.startIfOutputWorker()) {
  const { main, setOutputWorkerScript } = await import('./extractor.ts');
  setOutputWorkerScript(new URL(import.meta.url));
  process.exitCode = await main();
}
