/**
 * `npm run bench`: bounded benchmark of the built extractor (dist/cli.js) against a local API
 * (bench/server.ts, its own process, 127.0.0.1). Every measured program runs as a child process;
 * wall time is measured from spawn to exit, peak RSS is the process's own maxRSS (bench/maxrss.mjs).
 *
 *   P1 throughput  200 pages × 500 nested records, offset pagination: extractor vs floor
 *                  (bench/floor.ts: keep-alive fetch + JSON.parse of the same pages). Median of 5,
 *                  the programs interleaved. Shown beside them, as a reference point: a naive
 *                  single-threaded flattener without the reference's PHP rules (bench/naive.ts).
 *   P2 memory      the same shape at 1,000,000 records: peak RSS, and growth against P1's peak.
 *   P3 latency     one page of 1000 ids, a child job per id answered after 20 ms: wall time at
 *                  concurrency 1 / at the default; both runs' tables must be byte-identical.
 *   P4 rate limit  P3's job against /limited/ (a token bucket of 100 requests/s, 429 + Retry-After
 *                  beyond it, RateLimit headers on every answer), nothing configured: wall time /
 *                  the ideal 10 s for 1000 child requests, 429 answers / requests; tables must be
 *                  byte-identical to P3's sequential run. Shown beside it: the same with
 *                  api.http.rateLimit {requestsPerSecond: 100} configured.
 *   P5 prefetch    200 offset pages of 20 records, each answered after 20 ms: wall time without
 *                  prefetch / with prefetch 20 (and concurrency 20), medians of 3 interleaved;
 *                  outputs byte-identical.
 *   Tiny job       one request of 10 records: median wall time / the median of `node -e 0`,
 *                  interleaved (most scheduled jobs are this small: start-up is their cost).
 *
 * Beside each peak RSS, the peak of its anonymous part (RssAnon, sampled; `sampleAnon`): what the
 * process holds of its own, without the file-backed pages of Node's binary and libraries.
 *
 * Options: --quick (smaller P2 and P3, for a smoke run); --tiny (the tiny job alone, ~10 s: the
 * start-up work measures with it, its last line `bench: tiny_ratio=… tiny_peak_rss_mb=…`). The last line printed is
 *   bench: p1_ratio=X p1_peak_rss_mb=… p2_peak_rss_mb=Y p2_growth=Z p3_speedup=W p3_peak_rss_mb=…
 *          p4_time_ratio=… p4_429_share=… p5_speedup=… tiny_ratio=… tiny_peak_rss_mb=…
 *          p1_peak_anon_mb=… p2_peak_anon_mb=…
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';

const root = path.resolve(import.meta.dirname, '..');
const node = process.execPath;
const quick = process.argv.includes('--quick');
const tinyOnly = process.argv.includes('--tiny');
const P1_TOTAL = 100_000;
const P2_TOTAL = quick ? 200_000 : 1_000_000;
const P3_IDS = quick ? 200 : 1000;
const LIMIT = 500;
const P1_ROUNDS = 5;
const RUN_TIMEOUT_MS = 180_000;

interface Measured {
  wallMs: number;
  peakRssMb: number;
  /** Peak RssAnon (sampled), MB: RSS without the file-backed pages of Node's binary and libraries. */
  peakAnonMb: number;
  code: number | null;
  stdout: string;
}

const ANON_SAMPLE_MS = 5;

/**
 * The highest RssAnon of a running process, read from /proc/<pid>/status every ANON_SAMPLE_MS by
 * this process (the measured one runs no extra code for it). RSS counts the pages of Node's binary
 * and libraries (~35 MB for `node -e 0`, ~52 MB once a run has compiled and started a worker):
 * shared with every process that runs node, and dropped and read again under a container's memory
 * limit. RssAnon is what the process itself holds. NaN where /proc cannot be read.
 */
function sampleAnon(pid: number | undefined): () => number {
  let peakKb: number | undefined;
  const read = (): void => {
    try {
      const kb = Number(/RssAnon:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]);
      if (Number.isFinite(kb)) peakKb = Math.max(peakKb ?? 0, kb);
    } catch {
      // gone, or no /proc
    }
  };
  const timer = setInterval(read, ANON_SAMPLE_MS);
  return () => {
    clearInterval(timer);
    return peakKb === undefined ? Number.NaN : peakKb / 1024;
  };
}

function measure(args: string[], env: NodeJS.ProcessEnv = {}): Promise<Measured> {
  const rssFile = path.join(os.tmpdir(), `bench-rss-${process.pid}-${Math.random().toString(16).slice(2)}`);
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(node, ['--import', path.join(root, 'bench', 'maxrss.mjs'), ...args], {
      cwd: root,
      env: { ...process.env, ...env, BENCH_RSS_FILE: rssFile },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let stdout = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), RUN_TIMEOUT_MS);
    const anonPeak = sampleAnon(child.pid);
    child.on('error', reject);
    child.on('close', (code) => {
      const wallMs = performance.now() - started;
      clearTimeout(timer);
      const peakAnonMb = anonPeak();
      let peakRssMb = NaN;
      try {
        peakRssMb = Number(fs.readFileSync(rssFile, 'utf8')) / 1024;
        fs.rmSync(rssFile, { force: true });
      } catch {
        // killed before exit
      }
      resolve({ wallMs, peakRssMb, peakAnonMb, code, stdout });
    });
  });
}

async function startServer(): Promise<{ base: string; stop: () => void }> {
  const child = spawn(node, [path.join(root, 'bench', 'server.ts'), '--stdin', '--max-seconds', '900'], {
    cwd: root,
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines = readline.createInterface({ input: child.stdout });
  const port = await new Promise<number>((resolve, reject) => {
    lines.once('line', (line) => resolve(Number(/port=(\d+)/.exec(line)?.[1])));
    child.once('exit', () => reject(new Error('bench server exited')));
  });
  return { base: `http://127.0.0.1:${port}`, stop: () => child.kill('SIGTERM') };
}

function dataDir(config: unknown): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ge-bench-'));
  fs.writeFileSync(path.join(dir, 'config.json'), JSON.stringify(config));
  return dir;
}

function itemsConfig(base: string, total: number): unknown {
  return {
    parameters: {
      api: { baseUrl: `${base}/`, pagination: { method: 'offset', limit: LIMIT } },
      config: { outputBucket: 'bench', jobs: [{ endpoint: 'items', dataField: 'items', params: { total } }] },
    },
  };
}

function childConfig(base: string, http?: unknown): unknown {
  return {
    parameters: {
      api: { baseUrl: `${base}/`, ...(http ? { http } : {}) },
      config: {
        outputBucket: 'bench',
        jobs: [
          {
            endpoint: 'ids',
            dataType: 'ids',
            params: { n: P3_IDS },
            children: [{ endpoint: 'item/{id}', dataType: 'item', dataField: 'item', params: { delay: 20 }, placeholders: { id: 'id' } }],
          },
        ],
      },
    },
  };
}

const P5_PAGES = 200;
const P5_LIMIT = 20;
const P5_ROUNDS = 3;
/** Pages ahead, and as many requests on the wire (prefetch N pays only with N requests at once). */
const P5_PREFETCH = 20;

/** P5: 200 offset pages (the last one short), each answered after 20 ms. */
function pagesConfig(base: string, prefetch: number): unknown {
  const total = P5_PAGES * P5_LIMIT - 1;
  return {
    parameters: {
      api: {
        baseUrl: `${base}/`,
        ...(prefetch > 0 ? { http: { concurrency: prefetch } } : {}),
        pagination: { method: 'offset', limit: P5_LIMIT, ...(prefetch > 0 ? { prefetch } : {}) },
      },
      config: { outputBucket: 'bench', jobs: [{ endpoint: 'items', dataField: 'items', params: { total, delay: 20 } }] },
    },
  };
}

const TINY_ROUNDS = 15;

/** The tiny job against `node -e 0`, interleaved: medians of wall time, and of the job's peak RSS. */
async function tinyCase(base: string): Promise<{ nodeMs: number; tinyMs: number; tinyRssMb: number; tinyAnonMb: number; dirs: string[] }> {
  const config = {
    parameters: {
      api: { baseUrl: `${base}/` },
      config: { outputBucket: 'bench', jobs: [{ endpoint: 'ids', dataType: 'ids', params: { n: 10 } }] },
    },
  };
  const bare: Measured[] = [];
  const tiny: (Measured & { dir: string })[] = [];
  for (let i = 0; i < TINY_ROUNDS; i++) {
    bare.push(await measure(['-e', '0']));
    tiny.push(await extractor(config));
  }
  return {
    nodeMs: median(bare.map((m) => m.wallMs)),
    tinyMs: median(tiny.map((m) => m.wallMs)),
    tinyRssMb: median(tiny.map((m) => m.peakRssMb)),
    tinyAnonMb: median(tiny.map((m) => m.peakAnonMb)),
    dirs: tiny.map((m) => m.dir),
  };
}

async function limitedStats(base: string, key: string): Promise<{ requests: number; tooMany: number }> {
  const res = await fetch(`${base}/stats/${key}`);
  return (await res.json()) as { requests: number; tooMany: number };
}

async function extractor(config: unknown, env: NodeJS.ProcessEnv = {}): Promise<Measured & { dir: string }> {
  const dir = dataDir(config);
  const m = await measure([path.join(root, 'dist', 'cli.js')], { KBC_DATADIR: dir, ...env });
  if (m.code !== 0) throw new Error(`extractor failed (exit ${m.code}) in ${dir}:\n${m.stdout.split('\n').slice(-5).join('\n')}`);
  return { ...m, dir };
}

/** Tables (name → bytes) and the state without the run's own start time. */
function outputOf(dir: string): string {
  const tables = path.join(dir, 'out', 'tables');
  const parts = fs
    .readdirSync(tables)
    .sort()
    .map((f) => `${f}\n${fs.readFileSync(path.join(tables, f), 'latin1')}`);
  const state = fs.readFileSync(path.join(dir, 'out', 'state.json'), 'utf8').replace(/"previousStart":\d+/, '');
  return parts.join('\n\0') + '\n\0' + state;
}

function dirBytes(dir: string): number {
  return fs.readdirSync(dir).reduce((n, f) => n + fs.statSync(path.join(dir, f)).size, 0);
}

const tableBytes = (dataDir: string): number => dirBytes(path.join(dataDir, 'out', 'tables'));

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const fmt = (n: number, d = 2): string => n.toFixed(d);
/** A peak RssAnon, or nothing where it could not be read. */
const anon = (mb: number): string => (Number.isNaN(mb) ? '' : fmt(mb, 0));

if (!fs.existsSync(path.join(root, 'dist', 'cli.js'))) throw new Error('dist/cli.js missing: run `npm run build` first');

/** `--tiny`: the tiny job alone, as the full bench measures it (the same function, the same rounds). */
async function tinyOnlyBench(): Promise<void> {
  const server = await startServer();
  let dirs: string[] = [];
  try {
    const tiny = await tinyCase(server.base);
    dirs = tiny.dirs;
    console.log(
      `node -e 0 ${fmt(tiny.nodeMs / 1000, 3)} s, tiny job ${fmt(tiny.tinyMs / 1000, 3)} s (medians of ${TINY_ROUNDS}, interleaved), peak anonymous memory ${anon(tiny.tinyAnonMb)} MB`,
    );
    console.log(`bench: tiny_ratio=${fmt(tiny.tinyMs / tiny.nodeMs)} tiny_peak_rss_mb=${fmt(tiny.tinyRssMb, 0)}`);
  } finally {
    server.stop();
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  }
}

if (tinyOnly) {
  await tinyOnlyBench();
  process.exit(0);
}
const benchStarted = performance.now();
const server = await startServer();
const rows: string[][] = [['case', 'wall s', 'peak RSS MB', 'anon MB', 'notes']];
const cleanup: string[] = [];
try {
  // Warm the server's page cache so neither side pays for rendering.
  await measure([path.join(root, 'bench', 'floor.ts'), server.base, String(P1_TOTAL), String(LIMIT)]);

  const floors: Measured[] = [];
  const naives: Measured[] = [];
  const p1: (Measured & { dir: string })[] = [];
  const naiveDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-naive-'));
  cleanup.push(naiveDir);
  for (let i = 0; i < P1_ROUNDS; i++) {
    floors.push(await measure([path.join(root, 'bench', 'floor.ts'), server.base, String(P1_TOTAL), String(LIMIT)]));
    naives.push(await measure([path.join(root, 'bench', 'naive.ts'), server.base, String(P1_TOTAL), String(LIMIT), naiveDir]));
    const run = await extractor(itemsConfig(server.base, P1_TOTAL));
    p1.push(run);
    cleanup.push(run.dir);
  }
  const failed = [...floors, ...naives].find((m) => m.code !== 0);
  if (failed) throw new Error(`a P1 reference program exited with ${failed.code}`);
  const naiveMs = median(naives.map((m) => m.wallMs));
  const floorMs = median(floors.map((m) => m.wallMs));
  const p1Ms = median(p1.map((m) => m.wallMs));
  const p1Rss = median(p1.map((m) => m.peakRssMb));
  const p1Anon = median(p1.map((m) => m.peakAnonMb));
  const p1Ratio = p1Ms / floorMs;
  rows.push([
    'P1 floor (fetch+JSON.parse)',
    fmt(floorMs / 1000),
    fmt(median(floors.map((m) => m.peakRssMb)), 0),
    anon(median(floors.map((m) => m.peakAnonMb))),
    `${P1_TOTAL / LIMIT} pages × ${LIMIT}, median of ${P1_ROUNDS}`,
  ]);
  rows.push([
    'P1 naive flattener (1 thread)',
    fmt(naiveMs / 1000),
    fmt(median(naives.map((m) => m.peakRssMb)), 0),
    anon(median(naives.map((m) => m.peakAnonMb))),
    `no PHP rules, ${fmt(dirBytes(naiveDir) / 1048576, 0)} MB CSV, ratio ${fmt(naiveMs / floorMs)} (reference point)`,
  ]);
  rows.push([
    'P1 extractor',
    fmt(p1Ms / 1000),
    fmt(p1Rss, 0),
    anon(p1Anon),
    `${fmt(P1_TOTAL / (p1Ms / 1000), 0)} records/s, ${fmt(tableBytes(p1[0]!.dir) / 1048576, 0)} MB CSV, ratio ${fmt(p1Ratio)}`,
  ]);

  const p2 = await extractor(itemsConfig(server.base, P2_TOTAL));
  cleanup.push(p2.dir);
  const p2Growth = p2.peakRssMb / p1Rss;
  rows.push([
    'P2 extractor',
    fmt(p2.wallMs / 1000),
    fmt(p2.peakRssMb, 0),
    anon(p2.peakAnonMb),
    `${P2_TOTAL} records, ${fmt(tableBytes(p2.dir) / 1048576, 0)} MB CSV, growth ×${fmt(p2Growth)} vs P1`,
  ]);

  const seq = await extractor(childConfig(server.base), { EX_GENERIC_CONCURRENCY: '1' });
  const par = await extractor(childConfig(server.base), { EX_GENERIC_CONCURRENCY: '' });
  cleanup.push(seq.dir, par.dir);
  const identical = outputOf(seq.dir) === outputOf(par.dir);
  const p3Speedup = seq.wallMs / par.wallMs;
  rows.push(['P3 concurrency 1', fmt(seq.wallMs / 1000), fmt(seq.peakRssMb, 0), anon(seq.peakAnonMb), `${P3_IDS} child jobs × 20 ms`]);
  rows.push([
    'P3 concurrency default',
    fmt(par.wallMs / 1000),
    fmt(par.peakRssMb, 0),
    anon(par.peakAnonMb),
    `speedup ×${fmt(p3Speedup)}, outputs ${identical ? 'byte-identical' : 'DIFFER'}`,
  ]);
  if (!identical) throw new Error(`P3 outputs differ: ${seq.dir} vs ${par.dir}`);

  // P4: the budget is the server's; the extractor reads it from the answers.
  const p4 = await extractor(childConfig(`${server.base}/limited/signals`));
  const p4Stats = await limitedStats(server.base, 'signals');
  const p4c = await extractor(childConfig(`${server.base}/limited/configured`, { rateLimit: { requestsPerSecond: 100 } }));
  const p4cStats = await limitedStats(server.base, 'configured');
  cleanup.push(p4.dir, p4c.dir);
  const p4Ideal = P3_IDS / 100;
  const p4Ratio = p4.wallMs / 1000 / p4Ideal;
  const p4Share = p4Stats.tooMany / p4Stats.requests;
  const p4Identical = outputOf(p4.dir) === outputOf(seq.dir) && outputOf(p4c.dir) === outputOf(seq.dir);
  rows.push([
    'P4 rate limit, from headers',
    fmt(p4.wallMs / 1000),
    fmt(p4.peakRssMb, 0),
    anon(p4.peakAnonMb),
    `${p4Stats.requests} requests, ${p4Stats.tooMany} × 429, ideal ${fmt(p4Ideal, 0)} s, ratio ${fmt(p4Ratio)}, outputs ${p4Identical ? 'byte-identical' : 'DIFFER'}`,
  ]);
  rows.push([
    'P4 rate limit, configured',
    fmt(p4c.wallMs / 1000),
    fmt(p4c.peakRssMb, 0),
    anon(p4c.peakAnonMb),
    `requestsPerSecond 100: ${p4cStats.requests} requests, ${p4cStats.tooMany} × 429, ratio ${fmt(p4c.wallMs / 1000 / p4Ideal)}`,
  ]);
  if (!p4Identical) throw new Error(`P4 outputs differ from P3's sequential run: ${p4.dir}, ${p4c.dir} vs ${seq.dir}`);

  // Interleaved, median of 3: one run is short enough for the machine's noise to decide it.
  const p5Seqs: (Measured & { dir: string })[] = [];
  const p5Aheads: (Measured & { dir: string })[] = [];
  for (let i = 0; i < P5_ROUNDS; i++) {
    p5Seqs.push(await extractor(pagesConfig(server.base, 0)));
    p5Aheads.push(await extractor(pagesConfig(server.base, P5_PREFETCH)));
  }
  cleanup.push(...p5Seqs.map((m) => m.dir), ...p5Aheads.map((m) => m.dir));
  const byWall = (runs: (Measured & { dir: string })[]): Measured & { dir: string } =>
    [...runs].sort((x, y) => x.wallMs - y.wallMs)[Math.floor(runs.length / 2)]!;
  const p5Seq = byWall(p5Seqs);
  const p5Ahead = byWall(p5Aheads);
  const p5Speedup = p5Seq.wallMs / p5Ahead.wallMs;
  const p5Identical = [...p5Seqs, ...p5Aheads].every((m) => outputOf(m.dir) === outputOf(p5Seq.dir));
  rows.push([
    'P5 pages, sequential',
    fmt(p5Seq.wallMs / 1000),
    fmt(p5Seq.peakRssMb, 0),
    anon(p5Seq.peakAnonMb),
    `${P5_PAGES} offset pages × 20 ms, median of ${P5_ROUNDS}`,
  ]);
  rows.push([
    `P5 pages, prefetch ${P5_PREFETCH}`,
    fmt(p5Ahead.wallMs / 1000),
    fmt(p5Ahead.peakRssMb, 0),
    anon(p5Ahead.peakAnonMb),
    `speedup ×${fmt(p5Speedup)}, outputs ${p5Identical ? 'byte-identical' : 'DIFFER'}`,
  ]);
  if (!p5Identical) throw new Error(`P5 outputs differ: ${p5Seq.dir} vs ${p5Ahead.dir}`);

  const tiny = await tinyCase(server.base);
  cleanup.push(...tiny.dirs);
  const tinyRatio = tiny.tinyMs / tiny.nodeMs;
  const p3PeakRss = Math.max(seq.peakRssMb, par.peakRssMb);
  rows.push(['node -e 0', fmt(tiny.nodeMs / 1000, 3), '', '', `median of ${TINY_ROUNDS}, interleaved with the tiny job`]);
  rows.push([
    'Tiny job (1 request)',
    fmt(tiny.tinyMs / 1000, 3),
    fmt(tiny.tinyRssMb, 0),
    anon(tiny.tinyAnonMb),
    `ratio ${fmt(tinyRatio)} to node -e 0, median of ${TINY_ROUNDS}`,
  ]);

  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => r[c]!.length)));
  for (const r of rows)
    console.log(
      r
        .map((cell, c) => (c === 0 || c === r.length - 1 ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!)))
        .join('  ')
        .trimEnd(),
    );
  console.log(
    `targets: p1_ratio ≤ 1.5, every peak RSS ≤ 96 MB, p2_growth ≤ 1.25, p3_speedup ≥ 8, p4_time_ratio ≤ 1.15, p4_429_share ≤ 0.01, p5_speedup ≥ 5, tiny_ratio ≤ 2; total bench time ${fmt((performance.now() - benchStarted) / 1000, 0)} s${quick ? ' (--quick)' : ''}`,
  );
  console.log(
    `bench: p1_ratio=${fmt(p1Ratio)} p1_peak_rss_mb=${fmt(p1Rss, 0)} p2_peak_rss_mb=${fmt(p2.peakRssMb, 0)} p2_growth=${fmt(p2Growth)} p3_speedup=${fmt(p3Speedup)} p3_peak_rss_mb=${fmt(p3PeakRss, 0)} p4_time_ratio=${fmt(p4Ratio)} p4_429_share=${fmt(p4Share, 3)} p5_speedup=${fmt(p5Speedup)} tiny_ratio=${fmt(tinyRatio)} tiny_peak_rss_mb=${fmt(tiny.tinyRssMb, 0)} p1_peak_anon_mb=${anon(p1Anon)} p2_peak_anon_mb=${anon(p2.peakAnonMb)}`,
  );
} finally {
  server.stop();
  for (const dir of cleanup) fs.rmSync(dir, { recursive: true, force: true });
}
