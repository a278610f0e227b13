/** run --fan-out against the fake platform (06 §7): slices, rows, failures, Ctrl-C, refusals, limits. */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { after, afterEach, before, describe, test } from 'node:test';
import { type FakePlatform, countingRunner, startFakePlatform, type JobInput } from '../../src/platform/fake/fakePlatform.ts';
import type { StoredConfiguration } from '../../src/platform/fake/storage.ts';
import { cli } from './fakePlatformCli.ts';

const COMPONENT = 'keboola.ex-generic-v2';
let platform: FakePlatform;
/** Iterations whose `shop` is in this set make their job fail (the test's stand-in for an API error). */
const failingShops = new Set<string>();

function shopsOf(input: JobInput): string[] {
  return input.configurations.flatMap((c) =>
    ((c['parameters'] as { iterations?: { shop: string }[] }).iterations ?? []).map((i) => i.shop),
  );
}

before(async () => {
  platform = await startFakePlatform({
    stepMs: 5,
    runSteps: 3,
    runner: (input) => {
      const bad = shopsOf(input).find((s) => failingShops.has(s));
      return bad ? { status: 'error', message: `API error for shop ${bad}` } : countingRunner(input);
    },
  });
});
after(() => platform.close());
afterEach(() => failingShops.clear());

function store(id: string, configuration: Record<string, unknown>, extra: Partial<StoredConfiguration> = {}, on = platform): void {
  on.storage.store(COMPONENT, id, configuration, extra);
}

function shops(count: number): { shop: string }[] {
  return Array.from({ length: count }, (_, i) => ({ shop: `s${i + 1}` }));
}

function iterationsConfig(iterations: unknown[], config: Record<string, unknown> = { incrementalOutput: true }): Record<string, unknown> {
  return {
    parameters: { api: { baseUrl: 'https://api.example.com/' }, config: { jobs: [{ endpoint: 'orders' }], ...config }, iterations },
  };
}

function createdBodies(on = platform): Record<string, unknown>[] {
  return on.seen.filter((s) => s.server === 'queue' && s.method === 'POST' && s.path === '/jobs').map((s) => JSON.parse(s.body));
}

const fanOut = (config: string, ...more: string[]) => ['run', '--component', COMPONENT, '--config', config, '--fan-out', ...more];

describe('run --fan-out iterations', () => {
  test('100 iterations, 4 slices: 4 jobs of 25 iterations each, one report line per job, exit 0', async () => {
    store('hundred', iterationsConfig(shops(100)));
    platform.seen.length = 0;
    const o = await cli(platform, fanOut('hundred', 'iterations', '--slices', '4'));
    assert.equal(o.code, 0, o.stderr.join('\n'));
    const bodies = createdBodies();
    assert.equal(bodies.length, 4);
    for (const body of bodies) {
      assert.equal(body['config'], 'hundred');
      assert.equal((body['configData'] as { parameters: { iterations: unknown[] } }).parameters.iterations.length, 25);
    }
    const firstShops = bodies.map(
      (b) => (b['configData'] as { parameters: { iterations: { shop: string }[] } }).parameters.iterations[0]!.shop,
    );
    assert.deepEqual(firstShops.sort(), ['s1', 's26', 's51', 's76']);
    assert.equal(o.stdout.length, 5);
    assert.match(o.stdout[0]!, /^slice 1\/4 \(iterations 1–25\) +job \d+ +success +[\d.]+ s {2}Component processing finished\.$/);
    assert.match(o.stdout[3]!, /^slice 4\/4 \(iterations 76–100\) +job \d+ +success/);
    assert.equal(o.stdout[4], '4 jobs: 4 success');
    assert.match(o.stderr[0]!, /^fan-out: 4 jobs; the project runs at most 10 jobs at once$/);
  });

  test('one failing slice: exit 1, the last line names the slice, the job and the message', async () => {
    store('failing', iterationsConfig(shops(8)));
    failingShops.add('s6');
    const o = await cli(platform, fanOut('failing', 'iterations', '--slices', '4'));
    assert.equal(o.code, 1);
    assert.equal(o.stdout.at(-1), '4 jobs: 3 success, 1 error');
    assert.match(
      o.stderr.at(-1)!,
      /^ex-generic-platform: 1 of 4 jobs did not succeed, first slice 3\/4 \(iterations 5–6\): job \d+ error: API error for shop s6$/,
    );
  });

  test('--fail-fast: the first failure kills the jobs still running', async () => {
    store('fastfail', iterationsConfig(shops(4)));
    failingShops.add('s1');
    const o = await cli(platform, [...fanOut('fastfail', 'iterations', '--slices', '4'), '--fail-fast', '--concurrency', '1']);
    assert.equal(o.code, 1);
    assert.ok(
      o.stderr.some((l) => /a job failed \(--fail-fast\)|did not succeed/.test(l)),
      o.stderr.join('\n'),
    );
    assert.ok(createdBodies().length >= 1);
    assert.match(o.stderr.at(-1)!, /first slice 1\/4 \(iteration 1\): job \d+ error: API error for shop s1$/);
  });

  test('Ctrl-C: creation stops, the jobs that run are killed, the report shows it', async (t) => {
    // A platform of its own whose jobs run for a minute: only the kill can end them.
    const slow = await startFakePlatform({ stepMs: 20, runSteps: 3000 });
    t.after(() => slow.close());
    store('interrupted', iterationsConfig(shops(6)), {}, slow);
    const interrupt = new AbortController();
    let created = 0;
    const o = await cli(slow, [...fanOut('interrupted', 'iterations', '--slices', '6'), '--concurrency', '1'], {
      interrupt: interrupt.signal,
      onStderr: (line) => {
        if (line.startsWith('created ') && ++created === 2) interrupt.abort();
      },
    });
    assert.equal(o.code, 1);
    assert.equal(createdBodies(slow).length, 2, 'no job is created after Ctrl-C');
    const kills = slow.seen.filter((s) => s.server === 'queue' && s.path.endsWith('/kill'));
    assert.equal(kills.length, 2);
    for (const line of o.stdout.slice(0, 2)) assert.match(line, /job \d+ +(cancelled|terminated) /);
    assert.match(o.stdout[2]!, /^2 jobs: .*; 4 not started$/);
    assert.match(o.stderr.at(-1)!, /^ex-generic-platform: interrupted; 6 of 6 jobs did not succeed/);
  });

  test('Ctrl-C on the real process: SIGINT kills the running jobs, exit 1', { timeout: 30_000 }, async (t) => {
    // A platform of its own whose jobs run for a minute: only the kill can end them.
    const slow = await startFakePlatform({ stepMs: 20, runSteps: 3000 });
    t.after(() => slow.close());
    store('sigint', iterationsConfig(shops(4)), {}, slow);
    const cliPath = path.join(import.meta.dirname, '..', '..', 'src', 'platform', 'cli.ts');
    const child = spawn(process.execPath, [cliPath, ...fanOut('sigint', 'iterations', '--slices', '4'), '--timeout', '20'], {
      env: {
        PATH: process.env['PATH'] ?? '',
        KBC_URL: slow.storageUrl,
        KBC_TOKEN: slow.token,
        EX_GENERIC_PLATFORM_ALLOW_HTTP_LOOPBACK: '1',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let interrupted = false;
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => {
      stderr += c.toString();
      // Interrupt once (a second Ctrl-C ends the process at once), when the last job is created.
      if (!interrupted && stderr.includes('created slice 4/4')) {
        interrupted = true;
        child.kill('SIGINT');
      }
    });
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    assert.equal(code, 1, stderr);
    assert.match(stderr, /interrupted: killing 4 unfinished jobs/);
    assert.equal(slow.seen.filter((s) => s.path.endsWith('/kill')).length, 4);
    assert.match(stdout, /^4 jobs: 4 (cancelled|terminated)$/m);
  });

  test('at most N creations in flight', async () => {
    store('pool', iterationsConfig(shops(12)));
    let inFlight = 0;
    let most = 0;
    const counting: typeof fetch = async (input, init) => {
      const create = init?.method === 'POST' && String(input).endsWith('/jobs');
      if (create) most = Math.max(most, ++inFlight);
      try {
        return await fetch(input, init);
      } finally {
        if (create) inFlight--;
      }
    };
    const { runPlatformCli } = await import('../../src/platform/main.ts');
    const code = await runPlatformCli({
      argv: [...fanOut('pool', 'iterations', '--slices', '12'), '--concurrency', '3'],
      env: { KBC_TOKEN: platform.token, KBC_URL: platform.storageUrl },
      stdout: () => {},
      stderr: () => {},
      allowHttpLoopback: true,
      pollIntervalMs: 5,
      fetch: counting,
    });
    assert.equal(code, 0);
    assert.ok(most <= 3 && most >= 1, `at most 3 creates at once, saw ${most}`);
  });

  test('more jobs than the project runs at once: the limit is printed', async () => {
    store('many', iterationsConfig(shops(12)));
    const o = await cli(platform, fanOut('many', 'iterations', '--slices', '12'));
    assert.equal(o.code, 0, o.stderr.join('\n'));
    assert.equal(o.stderr[0], 'fan-out: 12 jobs; the project runs at most 10 jobs at once (2 will wait in the queue)');
    assert.match(o.stderr[1]!, /configuration lock/);
  });
});

describe('run --fan-out rows', () => {
  test('one job per enabled row, in run order; --native: one job with parallelism', async () => {
    const row = (id: string, isDisabled = false): StoredConfiguration => ({
      id,
      name: `Row ${id}`,
      description: '',
      isDisabled,
      version: 1,
      changeDescription: '',
      configuration: { parameters: { config: { id } } },
      state: {},
      rows: [],
      rowsSortOrder: [],
    });
    store('rows', iterationsConfig([]), { rows: [row('b'), row('off', true), row('a')], rowsSortOrder: ['b', 'off', 'a'] });
    platform.seen.length = 0;
    const o = await cli(platform, fanOut('rows', 'rows'));
    assert.equal(o.code, 0, o.stderr.join('\n'));
    assert.deepEqual(
      createdBodies().map((b) => b['configRowIds']),
      [['b'], ['a']],
    );
    assert.match(o.stdout[0]!, /^row b "Row b" +job \d+ +success/);
    platform.seen.length = 0;
    const native = await cli(platform, [...fanOut('rows', 'rows'), '--native', '--slices', '2']);
    assert.equal(native.code, 0, native.stderr.join('\n'));
    assert.deepEqual(createdBodies(), [{ mode: 'run', component: COMPONENT, config: 'rows', parallelism: '2' }]);
  });
});

describe('refusals: the reason and the fix, nothing created', () => {
  const refusals: [string, () => void, string[], RegExp][] = [
    [
      'iterations without incrementalOutput',
      () => store('full', iterationsConfig(shops(4), {})),
      fanOut('full', 'iterations'),
      /^ex-generic-platform: parameters\.iterations\[0\]\.incrementalOutput: slices run as separate jobs and a non-incremental load clears the table, so the last slice to finish would overwrite the others; set "incrementalOutput": true/,
    ],
    [
      'one iteration not incremental',
      () => store('mixed', iterationsConfig([{ shop: 'a' }, { shop: 'b', incrementalOutput: false }])),
      fanOut('mixed', 'iterations'),
      /^ex-generic-platform: parameters\.iterations\[1\]\.incrementalOutput: /,
    ],
    [
      'a configuration with rows, by iterations',
      () =>
        store('withrows', iterationsConfig(shops(4)), {
          rows: [
            {
              id: 'r',
              name: 'r',
              description: '',
              isDisabled: false,
              version: 1,
              changeDescription: '',
              configuration: {},
              state: {},
              rows: [],
              rowsSortOrder: [],
            },
          ],
        }),
      fanOut('withrows', 'iterations'),
      /^ex-generic-platform: rows: configuration withrows has rows, and iteration slices run with configData, which ignores rows; use --fan-out rows/,
    ],
    [
      'time.previousStart under configData',
      () =>
        store('stateful', {
          parameters: {
            config: { incrementalOutput: true, jobs: [{ endpoint: 'orders', params: { since: { time: 'previousStart' } } }] },
            iterations: shops(4),
          },
        }),
      fanOut('stateful', 'iterations'),
      /^ex-generic-platform: parameters\.config\.jobs\[0\]\.params\.since: reads time\.previousStart, but configData jobs read and save no state/,
    ],
    [
      'a disabled configuration without --force',
      () => store('disabled', iterationsConfig(shops(4)), { isDisabled: true }),
      fanOut('disabled', 'iterations'),
      /^ex-generic-platform: isDisabled: configuration disabled is disabled; pass --force to run it anyway/,
    ],
    [
      'no iterations',
      () => store('noiter', iterationsConfig([])),
      fanOut('noiter', 'iterations'),
      /^ex-generic-platform: parameters\.iterations: there are no iterations to slice/,
    ],
    [
      'rows fan-out without rows',
      () => store('norows', iterationsConfig([])),
      fanOut('norows', 'rows'),
      /^ex-generic-platform: rows: configuration norows has no enabled rows/,
    ],
  ];
  for (const [name, setUp, argv, message] of refusals) {
    test(name, async () => {
      setUp();
      platform.seen.length = 0;
      const o = await cli(platform, argv);
      assert.equal(o.code, 1);
      assert.equal(o.stderr.length, 1, o.stderr.join('\n'));
      assert.match(o.stderr[0]!, message);
      assert.deepEqual(createdBodies(), []);
    });
  }

  test('distinct output buckets make non-incremental slices safe', async () => {
    store('buckets', iterationsConfig([{ outputBucket: 'in.c-a' }, { outputBucket: 'in.c-b' }], {}));
    const o = await cli(platform, fanOut('buckets', 'iterations', '--slices', '2'));
    assert.equal(o.code, 0, o.stderr.join('\n'));
  });

  test('--force runs a disabled configuration with mode forceRun', async () => {
    store('forced', iterationsConfig(shops(2)), { isDisabled: true });
    platform.seen.length = 0;
    const o = await cli(platform, [...fanOut('forced', 'iterations', '--slices', '2'), '--force']);
    assert.equal(o.code, 0, o.stderr.join('\n'));
    assert.deepEqual(
      createdBodies().map((b) => b['mode']),
      ['forceRun', 'forceRun'],
    );
  });

  test('usage: --fan-out with --row, an unknown way, --native by iterations: exit 1', async () => {
    for (const argv of [
      [...fanOut('hundred', 'rows'), '--row', 'a'],
      fanOut('hundred', 'columns'),
      [...fanOut('hundred', 'iterations'), '--native'],
    ]) {
      const o = await cli(platform, argv);
      assert.equal(o.code, 1, argv.join(' '));
      assert.equal(o.stderr.length, 1);
    }
  });
});
