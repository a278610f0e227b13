#!/usr/bin/env node
/**
 * The extractor command (`ex-generic`, src/commandLine.ts): with no arguments one run on
 * $KBC_DATADIR (default /data), exit code 0, 1 or 2; `validate`, `plan`, `--help`, `--version`.
 *
 * Kept tiny: the extractor's code is read after the arguments, with its code cache
 * (src/runtime/scriptCache.ts; Node's own compile cache, src/runtime/compileCache.ts, only where
 * modules are loaded after this one). `--fill-compile-cache` loads the extractor and the output
 * worker's code, and runs one small extraction against a local API so that the cache holds what a
 * run calls (the image build, src/runtime/cacheFill.ts), and in a worker thread started with the
 * output worker's marker this is the automatic parser's output worker
 * (src/runtime/outputWorkerDispatch.ts). The build bundles this file with src/runtime/ into
 * dist/cli.js (scripts/bundle.ts): a plain run loads that file and the extractor's bundle,
 * dist/extractor.cjs (with its code cache, src/runtime/scriptCache.ts), nothing else.
 */
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseCommandLine, USAGE } from './commandLine.ts';
import { fillByRun } from './runtime/cacheFill.ts';
import { type CacheFolders, compileCacheFolders, enableCompileCache } from './runtime/compileCache.ts';
import { isCacheFill, loadOutputWorker, startOutputWorkerIfAsked } from './runtime/outputWorkerDispatch.ts';
import { type LoadedScript, loadScript } from './runtime/scriptCache.ts';

type Extractor = typeof import('./extractor.ts');

/** The package's version (package.json next to dist/ or src/). */
function version(): string {
  try {
    return (JSON.parse(fs.readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;
  } catch {
    return 'unknown';
  }
}

/**
 * The extractor: the built bundle next to this file (dist/extractor.cjs) with its code cache, or
 * the sources when run from src/ (no bundle there; Node's compile cache alone).
 */
async function loadExtractor(folders: CacheFolders | undefined): Promise<{ extractor: Extractor; saveCache: LoadedScript['saveCache'] }> {
  const bundle = new URL('./extractor.cjs', import.meta.url);
  if (!fs.existsSync(bundle)) {
    // From the sources: their modules are compiled from here on, by Node (its compile cache).
    enableCompileCache();
    return { extractor: await import('./extractor.ts'), saveCache: () => {} };
  }
  const loaded = loadScript(fileURLToPath(bundle), folders);
  return { extractor: loaded.exports as Extractor, saveCache: loaded.saveCache };
}

if (isCacheFill()) {
  const cacheFolders = enableCompileCache(true);
  const { extractor, saveCache } = await loadExtractor(cacheFolders);
  if (cacheFolders !== undefined) await fillByRun(extractor.run, cacheFolders.writable);
  saveCache();
  await loadOutputWorker();
} else if (!(await startOutputWorkerIfAsked(enableCompileCache))) {
  const command = parseCommandLine(process.argv.slice(2));
  if (command.kind === 'help') process.stdout.write(`${USAGE}\n`);
  else if (command.kind === 'version') process.stdout.write(`ex-generic ${version()}\n`);
  else if (command.kind === 'error') {
    process.stderr.write(`ex-generic: ${command.message}\nRun 'ex-generic --help' for the commands and options.\n`);
    process.exitCode = 1;
  } else {
    const { extractor, saveCache } = await loadExtractor(compileCacheFolders());
    // This file is the output worker's script too: its thread runs the command's entry.
    process.exitCode = await extractor.main({ outputWorkerScript: new URL(import.meta.url), command });
    // After the work, so that the cache holds the functions it called (a first run pays the write);
    // after a run that extracted, not one that stopped early with less of them compiled.
    if (process.exitCode === 0 && command.kind === 'run') saveCache();
  }
}
