/**
 * Preloaded into a measured process (`--import`): writes its peak RSS (KiB) to $BENCH_RSS_FILE at exit.
 *
 * Plain JavaScript on purpose: a `.ts` preload makes Node load its TypeScript stripper into the
 * measured process (and into its output worker, which inherits the preload), ~17 MB of RSS that
 * the bench then counted as the extractor's (measured: `node --import ./bench/maxrss.ts -e ''`
 * 61 MB, with this file 44 MB, `node -e ''` 41 MB). And node:fs by `getBuiltinModule`, not an
 * ES import: the import's facade loads fs/promises, readline and the stream stack (~25 internal
 * modules) into every measured process, which the extractor itself no longer loads (issue 28).
 */
const fs = process.getBuiltinModule('node:fs');

const file = process.env['BENCH_RSS_FILE'];
if (file) process.on('exit', () => fs.writeFileSync(file, String(process.resourceUsage().maxRSS)));
