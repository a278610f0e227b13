#!/usr/bin/env node
/**
 * The extractor command: one run on $KBC_DATADIR (default /data), exit code 0, 1 or 2.
 *
 * Kept tiny so that V8's compile cache (src/runtime/compileCache.ts) is on before the extractor's
 * code is read. `--fill-compile-cache` loads the extractor and the output worker's code without
 * running them (the image build), and in a worker thread started with the output worker's marker
 * this is the automatic parser's output worker (src/runtime/outputWorkerDispatch.ts). The build
 * bundles this file with src/runtime/ into dist/cli.js (scripts/bundle.ts): a plain run loads
 * that file and the extractor's bundle, nothing else.
 */
import { enableCompileCache } from './runtime/compileCache.ts';
import { isCacheFill, loadOutputWorker, startOutputWorkerIfAsked } from './runtime/outputWorkerDispatch.ts';

enableCompileCache();
if (isCacheFill()) {
  await import('./extractor.ts');
  await loadOutputWorker();
} else if (!(await startOutputWorkerIfAsked())) {
  const { main } = await import('./extractor.ts');
  // This file is the output worker's script too: its thread runs the command's entry.
  process.exitCode = await main({ outputWorkerScript: new URL(import.meta.url) });
}
