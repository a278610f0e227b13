/**
 * One huge page (issue 19, defect 10): a response of hundreds of thousands of records is held as
 * its text plus a chunk of decoded records (src/php/lazyArray.ts), not as every record decoded.
 * The built command runs as a child process against a real local server; its peak RSS is its own
 * maxRSS. `npm test` builds dist/ first (pretest).
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { promisify } from 'node:util';
import { makeDataDir, readTables } from '../helpers/dataDir.ts';
import { startServer, type TestServer } from '../helpers/httpServer.ts';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const CLI = path.join(ROOT, 'dist', 'cli.js');
/** Preloaded into the child: writes its peak RSS (KiB) to $RSS_FILE at exit. */
const MAXRSS = `data:text/javascript,${encodeURIComponent(
  "import fs from 'node:fs'; process.on('exit', () => fs.writeFileSync(process.env.RSS_FILE, String(process.resourceUsage().maxRSS)));",
)}`;

function page(n: number): Buffer {
  const parts: string[] = [];
  for (let i = 0; i < n; i++) parts.push(`{"id":${i},"name":"n${i}","v":${i}.5,"tags":[${i % 3}]}`);
  return Buffer.from(`{"items":[${parts.join(',')}],"total":${n}}`);
}

const SMALL = page(1000);
const HUGE = page(300_000);

let api: TestServer;
before(async () => {
  api = await startServer((req, res) => {
    const body = req.target.includes('huge') ? HUGE : SMALL;
    res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': String(body.length) });
    res.end(body);
  });
});
after(() => api.close());

interface Measured {
  peakMb: number;
  tables: Record<string, string>;
}

async function measure(endpoint: string, env: Record<string, string> = {}): Promise<Measured> {
  const dir = makeDataDir({
    parameters: { api: { baseUrl: `${api.url}/` }, config: { outputBucket: 'b', jobs: [{ endpoint, dataField: 'items' }] } },
  });
  const rssFile = path.join(dir, 'maxrss');
  try {
    await promisify(execFile)(process.execPath, ['--import', MAXRSS, CLI], {
      env: { PATH: process.env['PATH'] ?? '', KBC_DATADIR: dir, RSS_FILE: rssFile, ...env },
      encoding: 'utf8',
      maxBuffer: 16 * 1024 * 1024,
    });
    return { peakMb: Number(fs.readFileSync(rssFile, 'utf8')) / 1024, tables: readTables(dir) };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

test('one page of 300,000 records: same tables, and far less memory than with every record decoded', async (t) => {
  const base = await measure('small');
  const lazy = await measure('huge');
  const whole = await measure('huge', { EX_GENERIC_LAZY_RECORDS_BYTES: String(1024 * 1024 * 1024) });
  assert.deepEqual(lazy.tables, whole.tables);
  assert.equal(lazy.tables['b.huge']!.split('\n').length, 300_000 + 2);
  const bodyMb = HUGE.length / (1024 * 1024);
  const lazyGrowth = lazy.peakMb - base.peakMb;
  const wholeGrowth = whole.peakMb - base.peakMb;
  const figures = `body ${bodyMb.toFixed(0)} MB; peak RSS: 1,000 records ${base.peakMb.toFixed(0)} MB, lazy ${lazy.peakMb.toFixed(0)} MB, whole ${whole.peakMb.toFixed(0)} MB`;
  // Measured (2 cores, Node 24): growth ~4.5 × the body lazily (the bytes until they are text,
  // the text, a chunk of records, young generations), ~13-18 × with every record decoded. Before
  // the bytes were freed once text and a huge batch was spooled in frames of a MiB: ~8.8 ×.
  assert.ok(lazyGrowth < 0.75 * wholeGrowth, figures);
  assert.ok(lazyGrowth < 7 * bodyMb, figures);
  t.diagnostic(figures);
});
