/** The ex-generic-platform command, in process against the fake stack and as a real process. */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, beforeEach, describe, test } from 'node:test';
import { runPlatformCli, STACKS } from '../../src/platform/index.ts';
import { freePort } from '../ssh/sshd.ts';
import { TOKEN, startFakeStack, type FakeStack } from './fakeStack.ts';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
let fake: FakeStack;
let emptyDir: string;

before(async () => {
  fake = await startFakeStack();
  emptyDir = fs.mkdtempSync(path.join(os.tmpdir(), 'platform-cli-'));
});
after(async () => {
  await fake.close();
  fs.rmSync(emptyDir, { recursive: true, force: true });
});
beforeEach(() => {
  fake.seen.length = 0;
  fake.services = [{ id: 'queue', url: fake.queueUrl }];
});

interface Outcome {
  code: number;
  stdout: string[];
  stderr: string[];
}

async function cli(argv: string[], env: NodeJS.ProcessEnv = { KBC_TOKEN: TOKEN }, cwd = emptyDir): Promise<Outcome> {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const clock = { ms: 1_000_000 };
  const code = await runPlatformCli({
    argv,
    env,
    cwd,
    stdout: (t) => stdout.push(...t.replace(/\n$/, '').split('\n')),
    stderr: (t) => stderr.push(...t.replace(/\n$/, '').split('\n')),
    allowHttpLoopback: true,
    sleep: async (ms) => {
      clock.ms += ms;
    },
    nowMs: () => clock.ms,
    pollIntervalMs: 1,
  });
  return { code, stdout, stderr };
}

function noToken(o: Outcome): void {
  const all = [...o.stdout, ...o.stderr].join('\n');
  assert.ok(!all.includes(TOKEN) && !all.includes('wrong-token'), all);
}

describe('ex-generic-platform (in process, fake stack)', () => {
  test('services lists the index', async () => {
    fake.services = [
      { id: 'queue', url: fake.queueUrl },
      { id: 'encryption', url: 'https://encryption.fake.test' },
    ];
    const o = await cli(['services', '--stack', fake.storageUrl]);
    assert.deepEqual(o, { code: 0, stdout: [`queue\t${fake.queueUrl}`, 'encryption\thttps://encryption.fake.test'], stderr: [] });
  });

  test('apis lists the portal', async () => {
    const o = await cli(['apis', '--portal', fake.portalUrl], {});
    assert.equal(o.code, 0);
    assert.deepEqual(o.stdout, [
      'stack fake.test',
      `storage\t${fake.storageUrl}\tStorage API\t${fake.portalUrl}/specs/storage.json`,
      `queue\t${fake.queueUrl}\tJob Queue API\t${fake.portalUrl}/specs/queue.yaml`,
    ]);
  });

  test('run --wait: prints the job as it moves, exit 0 on success', async () => {
    const o = await cli([
      'run',
      '--stack',
      fake.storageUrl,
      '--component',
      'keboola.ex-generic-ts',
      '--config',
      'ok',
      '--row',
      'a',
      '--row',
      'b',
      '--wait',
      '--timeout',
      '60',
    ]);
    assert.equal(o.code, 0, o.stderr.join('\n'));
    assert.deepEqual(
      o.stdout.map((l) => l.replace(/\d{4}/g, 'N')),
      [`job N: created ${fake.queueUrl}/jobs/N`, `job N: processing ${fake.queueUrl}/jobs/N`, `job N: success ${fake.queueUrl}/jobs/N`].map(
        (l) => l.replace(/\d{4}/g, 'N'),
      ),
    );
    assert.equal(
      fake.seen.find((s) => s.method === 'POST')!.body,
      '{"mode":"run","component":"keboola.ex-generic-ts","config":"ok","configRowIds":["a","b"]}',
    );
    noToken(o);
  });

  test('run without --wait prints the created job; --json prints the record', async () => {
    const o = await cli(['run', '--stack', fake.storageUrl, '--component', 'c', '--config', 'ok', '--json']);
    assert.equal(o.code, 0);
    const record = JSON.parse(o.stdout.join('\n'));
    assert.equal(record.status, 'created');
    assert.equal(record.customField, 'kept');
  });

  test('a job that ends in error: exit 1, one line on stderr', async () => {
    const o = await cli(['run', '--stack', fake.storageUrl, '--component', 'c', '--config', 'fails', '--wait']);
    assert.equal(o.code, 1);
    assert.equal(o.stderr.length, 1);
    assert.match(o.stderr[0]!, /^ex-generic-platform: job \d+ ended with status "error": Extractor failed: boom$/);
  });

  test('wait timeout: exit 1, one line', async () => {
    const o = await cli(['run', '--stack', fake.storageUrl, '--component', 'c', '--config', 'stuck', '--wait', '--timeout', '0.05']);
    assert.equal(o.code, 1);
    assert.equal(o.stderr.length, 1);
    assert.match(o.stderr[0]!, /^ex-generic-platform: Job \d+ did not finish within 0\.05 s \(last status "processing"\)\.$/);
  });

  test('job --id reads a job', async () => {
    const created = await cli(['run', '--stack', fake.storageUrl, '--component', 'c', '--config', 'ok', '--json']);
    const id = JSON.parse(created.stdout.join('\n')).id as string;
    const o = await cli(['job', '--stack', fake.storageUrl, '--id', id, '--wait']);
    assert.equal(o.code, 0);
    assert.equal(o.stdout.at(-1), `job ${id}: success ${fake.queueUrl}/jobs/${id}`);
  });

  test('invalid token: exit 1, one line on stderr, the token never printed', async () => {
    fake.echoToken = true;
    const o = await cli(['run', '--stack', fake.storageUrl, '--component', 'c', '--config', 'ok'], { KBC_TOKEN: 'wrong-token' });
    assert.equal(o.code, 1);
    assert.deepEqual(o.stdout, []);
    assert.equal(o.stderr.length, 1);
    assert.match(o.stderr[0]!, /^ex-generic-platform: Invalid Token: /);
    noToken(o);
  });

  test('a one-character token: hidden where it stands as a value, the words around it kept whole', async () => {
    fake.echoToken = true;
    const o = await cli(['job', '7', '--stack', fake.storageUrl], { KBC_TOKEN: 'e' });
    assert.equal(o.code, 1);
    assert.equal(o.stderr.length, 1);
    assert.match(
      o.stderr[0]!,
      /^ex-generic-platform: Invalid Token: the Job Queue API at 127\.0\.0\.1:\d+ rejected the Storage API token /,
    );
    assert.ok(!o.stderr[0]!.includes('[hidden]'), o.stderr[0]);
  });

  test('unknown service: exit 1, one line', async () => {
    fake.services = [{ id: 'import', url: fake.storageUrl }];
    const o = await cli(['run', '--stack', fake.storageUrl, '--component', 'c', '--config', 'ok']);
    assert.deepEqual(o, { code: 1, stdout: [], stderr: ['ex-generic-platform: Service "queue" not found in the stack index.'] });
  });

  test('unreachable stack: exit 1, one line', async () => {
    const port = await freePort();
    const o = await cli(['services', '--stack', `http://127.0.0.1:${port}`]);
    assert.deepEqual(o, {
      code: 1,
      stdout: [],
      stderr: [`ex-generic-platform: Cannot reach http://127.0.0.1:${port}: connection refused`],
    });
  });

  test('the token from a .env file; the environment wins over it', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'platform-env-'));
    try {
      fs.writeFileSync(path.join(dir, '.env'), `KBC_TOKEN=${TOKEN}\nKBC_URL=${fake.storageUrl}\n`);
      const ok = await cli(['run', '--component', 'c', '--config', 'ok'], {}, dir);
      assert.equal(ok.code, 0, ok.stderr.join('\n'));
      const overridden = await cli(['run', '--component', 'c', '--config', 'ok'], { KBC_TOKEN: 'wrong-token' }, dir);
      assert.equal(overridden.code, 1);
      noToken(overridden);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test('missing token and usage errors', async () => {
    const missing = await cli(['run', '--stack', fake.storageUrl, '--component', 'c', '--config', 'ok'], {});
    assert.deepEqual(missing, {
      code: 1,
      stdout: [],
      stderr: ['ex-generic-platform: No Storage API token: set KBC_TOKEN (in the environment or a .env file).'],
    });
    // Usage errors exit 1, as the extractor's do.
    assert.equal((await cli(['run', '--stack', fake.storageUrl, '--config', 'ok'])).code, 1);
    assert.equal((await cli(['services'])).code, 1);
    assert.equal((await cli(['services', '--stack', 'mars-1'])).code, 1);
    assert.equal((await cli(['frobnicate'])).code, 1);
    assert.equal((await cli(['services', '--stack', fake.storageUrl, '--component', 'x'])).code, 1);
    assert.equal((await cli(['run', '--stack', fake.storageUrl, '--component', 'c', '--config', 'ok', '--timeout', '5'])).code, 1);
    assert.deepEqual(
      fake.seen.filter((s) => s.method === 'POST'),
      [],
    );
  });
});

function runBin(args: string[], env: NodeJS.ProcessEnv): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(ROOT, 'src', 'platform', 'cli.ts'), ...args], {
      cwd: emptyDir,
      env: { PATH: process.env['PATH'] ?? '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      const lines = (s: string): string[] => (s === '' ? [] : s.replace(/\n$/, '').split('\n'));
      resolve({ code: code ?? -1, stdout: lines(stdout), stderr: lines(stderr) });
    });
  });
}

describe('ex-generic-platform (real process)', { timeout: 60_000 }, () => {
  test('--help lists the commands and every stack', async () => {
    const o = await runBin(['--help'], {});
    assert.equal(o.code, 0);
    const text = o.stdout.join('\n');
    for (const s of STACKS) assert.ok(text.includes(s.name) && text.includes(s.storageUrl), s.name);
    for (const c of ['services', 'apis', 'run', 'job log', 'config push', '--wait', '--stack', 'KBC_TOKEN']) assert.ok(text.includes(c), c);
  });

  test('an unreachable stack: one line on stderr, exit 1, token not printed', async () => {
    const port = await freePort();
    const o = await runBin(['run', '--stack', `https://127.0.0.1:${port}`, '--component', 'c', '--config', '1'], { KBC_TOKEN: TOKEN });
    assert.deepEqual(o, {
      code: 1,
      stdout: [],
      stderr: [`ex-generic-platform: Cannot reach https://127.0.0.1:${port}: connection refused`],
    });
  });

  test('plain http is refused outside tests', async () => {
    const o = await runBin(['services', '--stack', fake.storageUrl], { KBC_TOKEN: TOKEN });
    assert.equal(o.code, 1);
    assert.equal(o.stderr.length, 1);
    assert.match(o.stderr[0]!, /https only/);
    assert.deepEqual(fake.seen, []);
  });
});
