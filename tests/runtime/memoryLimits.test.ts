/**
 * Running inside a memory limit (runtime/memoryLimits.ts): the output worker's reservations fit
 * an address-space cap, and memory running out ends with one ERROR line instead of V8's fatal
 * error. Real processes under real limits (`ulimit -v`, a small V8 heap).
 */
import assert from 'node:assert/strict';
import { execFile, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { makeDataDir } from '../helpers/dataDir.ts';
import { startServer } from '../helpers/httpServer.ts';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const CLI = path.join(ROOT, 'dist', 'cli.js');
const onLinux = fs.existsSync('/proc/self/status');

function vmSizeKib(script: string): number {
  const r = spawnSync(
    process.execPath,
    ['-e', `${script};console.log(require('fs').readFileSync('/proc/self/status','utf8').match(/VmSize:\\s+(\\d+)/)[1])`],
    {
      encoding: 'utf8',
    },
  );
  return Number(r.stdout.trim());
}

test('under an address-space cap a plain process fits in, a run with its output worker fits too (exit 0, not a V8 fatal error)', {
  skip: onLinux ? false : 'needs /proc and ulimit',
  timeout: 60_000,
}, async () => {
  const server = await startServer((req, res) => {
    const page = Number(/[?&]page=(\d+)/.exec(req.target)?.[1] ?? 1);
    res.setHeader('Content-Type', 'application/json');
    res.end(JSON.stringify(page > 3 ? [] : Array.from({ length: 2000 }, (_, i) => ({ id: i, nested: { a: i, list: [1, 2] } }))));
  });
  const dir = makeDataDir({
    parameters: {
      api: { baseUrl: `${server.url}/`, pagination: { method: 'pagenum' } },
      config: { outputBucket: 'b', jobs: [{ endpoint: 'rows' }] },
    },
  });
  try {
    // Room for one more isolate's heap, not for the 512 MiB code range V8 reserves by default.
    const cap = vmSizeKib('') + 450 * 1024;
    // Asynchronously: the test's own server answers the run.
    const r = await new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
      execFile(
        'sh',
        ['-c', `ulimit -v ${cap} && exec "$0" "$1"`, process.execPath, CLI],
        { env: { PATH: process.env['PATH'] ?? '', KBC_DATADIR: dir, EX_GENERIC_OUTPUT_WORKER: 'always' }, timeout: 60_000 },
        (error, stdout, stderr) => resolve({ status: error ? ((error as { code?: number }).code ?? null) : 0, stdout, stderr }),
      );
    });
    assert.equal(r.status, 0, `${r.stdout.slice(-500)}\n${r.stderr.slice(0, 500)}`);
    assert.match(r.stdout, /Extractor finished successfully/);
    assert.deepEqual(fs.readdirSync(path.join(dir, 'out', 'tables')).sort(), [
      'b.rows',
      'b.rows.manifest',
      'b.rows_nested_list',
      'b.rows_nested_list.manifest',
    ]);
  } finally {
    await server.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test("memory running out, a little at a time, ends with one ERROR-ready line and exit 2, not V8's fatal error", {
  skip: onLinux ? false : 'needs /proc',
}, () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ge-oom-'));
  const script = path.join(dir, 'grow.ts');
  fs.writeFileSync(
    script,
    `import { guardMemory, readMemoryLimits } from ${JSON.stringify(path.join(ROOT, 'src', 'runtime', 'memoryLimits.ts'))};
guardMemory(readMemoryLimits(), (message) => { process.stdout.write(message + '\\n'); process.exit(2); });
const kept: unknown[] = [];
const grow = (): void => { kept.push(Array.from({ length: 2000 }, (_, i) => ({ i, text: 'r' + i }))); setImmediate(grow); };
grow();
`,
  );
  try {
    const r = spawnSync(process.execPath, ['--max-old-space-size=48', '--max-semi-space-size=1', script], {
      encoding: 'utf8',
      timeout: 60_000,
    });
    assert.equal(r.status, 2, `${r.stdout}\n${r.stderr.slice(0, 500)}`);
    assert.match(
      r.stdout,
      /^Out of memory: the run holds \d+ MiB of the \d+ MiB JavaScript heap this process may use[^\n]*\. Give the run more memory, or make the API's pages smaller \(a "limit" parameter of the pagination\)\.\n$/,
    );
    assert.doesNotMatch(r.stderr, /FATAL ERROR/);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test("under a container's limit the guard counts the memory the process holds, not the pages of Node's binary: it lets a run below the limit go on, and ends one that grows past it", {
  skip: onLinux ? false : 'needs /proc',
  timeout: 60_000,
}, () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ge-container-'));
  const script = path.join(dir, 'container.ts');
  // A container limit whose 85 % lies halfway between the process's own memory (RssAnon) and its
  // RSS (which also counts the binary's file pages, ~35 MB): RSS is over it from the start, the
  // process's own memory reaches it only when it grows.
  fs.writeFileSync(
    script,
    `import fs from 'node:fs';
import { guardMemory } from ${JSON.stringify(path.join(ROOT, 'src', 'runtime', 'memoryLimits.ts'))};
const status = fs.readFileSync('/proc/self/status', 'utf8');
const bytes = (line: RegExp): number => Number(line.exec(status)![1]) * 1024;
const rss = bytes(/^VmRSS:\\s+(\\d+) kB$/m);
const own = bytes(/^RssAnon:\\s+(\\d+) kB$/m);
const container = Math.ceil((own + (rss - own) / 2) / 0.85);
let phase = 'steady';
guardMemory({ container }, (message) => { process.stdout.write(phase + ': ' + message + '\\n'); process.exit(2); });
// Garbage only: many collections, the process's own memory about where it was.
const churn = (): void => { for (let i = 0; i < 50; i++) Array.from({ length: 10000 }, (_, j) => ({ j })); };
churn();
setTimeout(() => {
  churn();
  setTimeout(() => {
    phase = 'growing';
    const kept: Buffer[] = [];
    const grow = (): void => { kept.push(Buffer.alloc(4 * 1024 * 1024, 1)); churn(); setImmediate(grow); };
    grow();
  }, 50);
}, 50);
`,
  );
  try {
    const r = spawnSync(process.execPath, ['--max-semi-space-size=1', script], { encoding: 'utf8', timeout: 60_000 });
    assert.equal(r.status, 2, `${r.stdout}\n${r.stderr.slice(0, 500)}`);
    assert.match(
      r.stdout,
      /^growing: Out of memory: the run holds \d+ MiB of memory of its own against the container's memory limit of \d+ MiB\. Give the run more memory, or make the API's pages smaller \(a "limit" parameter of the pagination\)\.\n$/,
    );
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('the limits are read from the kernel: ulimit -v is the address-space limit', { skip: onLinux ? false : 'needs /proc' }, () => {
  const r = spawnSync(
    'sh',
    [
      '-c',
      `ulimit -v 3000000 && exec "$0" -e "$1"`,
      process.execPath,
      `import(${JSON.stringify(path.join(ROOT, 'src', 'runtime', 'memoryLimits.ts'))}).then((m) => console.log(JSON.stringify([m.readMemoryLimits().addressSpace, m.workerResourceLimits({ addressSpace: 3000000 * 1024 })])))`,
    ],
    { encoding: 'utf8' },
  );
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual(JSON.parse(r.stdout), [3000000 * 1024, { codeRangeSizeMb: 64, maxOldGenerationSizeMb: 732 }]);
});
