/** Preloaded into a measured process (`--import`): writes its peak RSS (KiB) to $BENCH_RSS_FILE at exit. */
import fs from 'node:fs';

const file = process.env['BENCH_RSS_FILE'];
if (file) process.on('exit', () => fs.writeFileSync(file, String(process.resourceUsage().maxRSS)));
