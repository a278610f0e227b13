/** The platform client (spec 01 §5) against a fake stack on 127.0.0.1. */
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import {
  InvalidTokenError,
  JobWaitTimeoutError,
  MissingTokenError,
  PlatformApiError,
  PlatformClient,
  PlatformUsageError,
  ServiceNotFoundError,
  StackUnreachableError,
  UntrustedHostError,
  resolveStack,
  type PlatformClientOptions,
} from '../../src/platform/index.ts';
import { UserError } from '../../src/errors/UserError.ts';
import { freePort } from '../ssh/sshd.ts';
import { TOKEN, startFakeStack, type FakeStack } from './fakeStack.ts';

let fake: FakeStack;
const defaultServices = (): FakeStack['services'] => [
  { id: 'import', url: `${fake.storageUrl.replace('127.0.0.1', 'localhost')}/import` },
  { id: 'queue', url: `${fake.queueUrl}/` },
  { id: 'sync-actions', url: `${fake.queueUrl}/sync` },
];

before(async () => {
  fake = await startFakeStack();
});
after(async () => {
  await fake.close();
});
beforeEach(() => {
  fake.seen.length = 0;
  fake.services = defaultServices();
  fake.queueFailure = undefined;
  fake.echoToken = false;
});

/** A client of the fake stack with a fake clock: sleeping advances it and records the pause. */
function client(over: PlatformClientOptions = {}): { platform: PlatformClient; pauses: number[]; clock: { ms: number } } {
  const pauses: number[] = [];
  const clock = { ms: 1_000_000 };
  const platform = new PlatformClient({
    storageUrl: fake.storageUrl,
    token: TOKEN,
    env: {},
    allowHttpLoopback: true,
    sleep: async (ms) => {
      pauses.push(ms);
      clock.ms += ms;
    },
    nowMs: () => clock.ms,
    ...over,
  });
  return { platform, pauses, clock };
}

function tokensSentTo(server: string): (string | undefined)[] {
  return fake.seen.filter((s) => s.server === server).map((s) => s.token);
}

describe('stack index and API portal', () => {
  test('the storage index is read without the token, once per client', async () => {
    const { platform } = client();
    const index = await platform.getStorageIndex();
    assert.deepEqual(
      index.services.map((s) => s.id),
      ['import', 'queue', 'sync-actions'],
    );
    assert.equal(index['host'], 'connection.fake.test', 'unknown members are kept');
    await platform.getStorageIndex();
    assert.equal(await platform.getServiceUrl('queue'), fake.queueUrl, 'trailing / removed');
    assert.deepEqual(
      fake.seen.map((s) => `${s.server} ${s.method} ${s.path}`),
      ['storage GET /v2/storage?exclude=components'],
    );
    assert.deepEqual(tokensSentTo('storage'), [undefined]);
  });

  test('a service missing from the index', async () => {
    const { platform } = client();
    await assert.rejects(platform.getServiceUrl('nope'), (e: Error) => {
      assert.ok(e instanceof ServiceNotFoundError && e instanceof UserError);
      assert.equal(e.message, 'Service "nope" not found in the stack index.');
      return true;
    });
  });

  test('the API portal index, without the token', async () => {
    const { platform } = client();
    const portal = await platform.getPortalIndex(`${fake.portalUrl}/`);
    assert.equal(portal.stack, 'fake.test');
    assert.deepEqual(
      portal.services.map((s) => [s.id, s.apiUrl, s.openApiSpecUrl]),
      [
        ['storage', fake.storageUrl, `${fake.portalUrl}/specs/storage.json`],
        ['queue', fake.queueUrl, `${fake.portalUrl}/specs/queue.yaml`],
      ],
    );
    assert.deepEqual(tokensSentTo('portal'), [undefined]);
  });

  test('an unreachable stack (closed port): one clear error, no retries', async () => {
    const port = await freePort();
    const { platform, pauses } = client({ storageUrl: `http://127.0.0.1:${port}` });
    await assert.rejects(platform.createJob({ component: 'c', config: 'ok' }), (e: Error) => {
      assert.ok(e instanceof StackUnreachableError);
      assert.equal(e.message, `Cannot reach http://127.0.0.1:${port}: connection refused`);
      return true;
    });
    assert.deepEqual(pauses, []);
  });

  test('stacks by name or URL; https only, http just for loopback when enabled', () => {
    assert.equal(resolveStack('us-east-aws').storageUrl, 'https://connection.keboola.com');
    assert.equal(resolveStack('eu-central-aws').portalUrl, 'https://api.eu-central-1.keboola.com');
    assert.equal(resolveStack('eu-north-azure').storageUrl, 'https://connection.north-europe.azure.keboola.com');
    assert.equal(resolveStack('eu-west-gcp').storageUrl, 'https://connection.europe-west3.gcp.keboola.com');
    assert.equal(resolveStack('us-east-gcp').storageUrl, 'https://connection.us-east4.gcp.keboola.com');
    assert.deepEqual(resolveStack('https://connection.acme.keboola.com/'), {
      storageUrl: 'https://connection.acme.keboola.com',
      portalUrl: undefined,
    });
    assert.throws(() => resolveStack('mars-1'), PlatformUsageError);
    assert.throws(() => resolveStack('http://connection.acme.keboola.com'), /https only/);
    assert.throws(() => resolveStack('http://127.0.0.1:8000'), /https only/);
    assert.equal(resolveStack('http://127.0.0.1:8000', true).storageUrl, 'http://127.0.0.1:8000');
    assert.throws(() => resolveStack('http://example.com', true), /https only/);
    assert.throws(() => new PlatformClient({ storageUrl: fake.storageUrl, env: {} }), /https only/);
    assert.throws(() => new PlatformClient({ env: {} }), /No stack given/);
    assert.equal(new PlatformClient({ env: { KBC_URL: 'https://connection.keboola.com/' } }).storageUrl, 'https://connection.keboola.com');
  });
});

describe('jobs', () => {
  test('createJob: token header, body keys mode, component, config, then extras; parent run id', async () => {
    const { platform } = client();
    const job = await platform.createJob({
      component: 'keboola.ex-generic-ts',
      config: 'ok',
      extra: { configRowIds: ['r1'], tag: '1.2.3', variableValuesData: { values: [{ name: 'a', value: 'b' }] } },
      parentRunId: '555',
    });
    assert.equal(job.status, 'created');
    assert.equal(job.isFinished, false);
    assert.equal(job['customField'], 'kept');
    assert.equal(job.runId, `555.${job.id}`);
    const post = fake.seen.find((s) => s.method === 'POST')!;
    assert.equal(post.server, 'queue');
    assert.equal(post.path, '/jobs');
    assert.equal(post.token, TOKEN);
    assert.equal(post.headers['content-type'], 'application/json');
    assert.equal(post.headers['x-kbc-runid'], '555');
    assert.equal(
      post.body,
      '{"mode":"run","component":"keboola.ex-generic-ts","config":"ok","configRowIds":["r1"],"tag":"1.2.3","variableValuesData":{"values":[{"name":"a","value":"b"}]}}',
    );
    await assert.rejects(platform.createJob({ component: 'c', config: 'ok', extra: { mode: 'debug' } }), PlatformUsageError);
    await assert.rejects(platform.createJob({ component: 'c', config: 'ok', mode: 'later' as 'run' }), PlatformUsageError);
  });

  test('runAndWait: created → processing → success; pauses start at 1 s', async () => {
    const { platform, pauses } = client();
    const seenStatuses: string[] = [];
    const job = await platform.runAndWait({
      component: 'keboola.ex-generic-ts',
      config: 'ok',
      mode: 'forceRun',
      wait: { onPoll: (j) => seenStatuses.push(j.status) },
    });
    assert.equal(job.status, 'success');
    assert.equal(job.isFinished, true);
    assert.deepEqual(seenStatuses, ['processing', 'success']);
    assert.deepEqual(pauses, [1000]);
    assert.equal(JSON.parse(fake.seen.find((s) => s.method === 'POST')!.body).mode, 'forceRun');
    assert.deepEqual(
      fake.seen.filter((s) => s.method === 'GET' && s.server === 'queue').map((s) => s.path),
      [`/jobs/${job.id}`, `/jobs/${job.id}`],
    );
  });

  test('waitForJob: pauses double up to 10 s', async () => {
    const { platform, pauses } = client();
    const created = await platform.createJob({ component: 'c', config: 'slow' });
    const job = await platform.waitForJob(created.id);
    assert.equal(job.status, 'success');
    assert.deepEqual(pauses, [1000, 2000, 4000, 8000, 10000, 10000]);
  });

  test('pollJob from a record just read: onStatus on each change, a sleep of its own, a signal that stops it', async () => {
    const { platform, pauses } = client();
    const created = await platform.createJob({ component: 'c', config: 'stuck' });
    const statuses: string[] = [];
    const ownPauses: number[] = [];
    const stop = new AbortController();
    const job = await platform.pollJob(created, {
      intervalMs: 50,
      onStatus: (j) => statuses.push(j.status),
      sleep: async (ms) => {
        ownPauses.push(ms);
        if (ownPauses.length === 3) stop.abort();
      },
      signal: stop.signal,
    });
    assert.equal(job.status, 'processing');
    assert.deepEqual(statuses, ['processing'], 'created → processing, then no change');
    assert.deepEqual(ownPauses, [50, 100, 200]);
    assert.deepEqual(pauses, [], "the client's own sleep is not used");
    assert.equal(fake.seen.filter((s) => s.method === 'GET' && s.server === 'queue').length, 3, 'the record given is not read again');
  });

  test('a job that ends in error is returned; the caller reads status and result', async () => {
    const { platform } = client();
    const job = await platform.runAndWait({ component: 'c', config: 'fails', wait: { intervalMs: 5 } });
    assert.equal(job.status, 'error');
    assert.deepEqual(job['result'], { message: 'Extractor failed: boom' });
  });

  test('wait timeout: JobWaitTimeoutError with the last record', async () => {
    const { platform, pauses } = client();
    const created = await platform.createJob({ component: 'c', config: 'stuck' });
    await assert.rejects(platform.waitForJob(created, { timeoutMs: 5000 }), (e: Error) => {
      assert.ok(e instanceof JobWaitTimeoutError);
      assert.equal(e.job.id, created.id);
      assert.equal(e.job.status, 'processing');
      assert.equal(e.message, `Job ${created.id} did not finish within 5 s (last status "processing").`);
      return true;
    });
    assert.deepEqual(pauses, [1000, 2000, 2000], 'the last pause ends at the deadline');
  });

  test('invalid token: InvalidTokenError, no retry, token never in the message or body', async () => {
    const { platform } = client({ token: 'wrong-token-value' });
    fake.echoToken = true;
    await assert.rejects(platform.createJob({ component: 'c', config: 'ok' }), (e: Error) => {
      assert.ok(e instanceof InvalidTokenError && e instanceof PlatformApiError);
      assert.equal(e.status, 401);
      assert.match(
        e.message,
        /^Invalid Token: the Job Queue API at 127\.0\.0\.1:\d+ rejected the Storage API token \(HTTP 401 from POST http:\/\/127\.0\.0\.1:\d+\/jobs\)/,
      );
      assert.ok(!e.message.includes('wrong-token-value') && !e.body.includes('wrong-token-value'), e.body);
      assert.match(e.body, /\[hidden\]/);
      return true;
    });
    assert.equal(fake.seen.filter((s) => s.server === 'queue').length, 1);
  });

  test('other API errors: PlatformApiError{status, body}; GETs retried on 5xx, POSTs never', async () => {
    const { platform, pauses } = client();
    fake.echoToken = true;
    await assert.rejects(platform.createJob({ component: 'c', config: 'forbidden' }), (e: Error) => {
      assert.ok(e instanceof PlatformApiError && !(e instanceof InvalidTokenError));
      assert.equal(e.status, 403);
      assert.ok(!e.message.includes(TOKEN) && !e.body.includes(TOKEN));
      return true;
    });
    await assert.rejects(
      platform.createJob({ component: 'c', config: 'missing' }),
      (e: PlatformApiError) =>
        e.status === 404 &&
        /^Job Queue API: HTTP 404 from POST http:\/\/127\.0\.0\.1:\d+\/jobs: Configuration missing not found$/.test(e.message),
    );
    fake.queueFailure = 503;
    fake.seen.length = 0;
    await assert.rejects(platform.createJob({ component: 'c', config: 'ok' }), (e: PlatformApiError) => e.status === 503);
    assert.equal(fake.seen.filter((s) => s.server === 'queue').length, 1);
    await assert.rejects(platform.getJob('1'), (e: PlatformApiError) => e.status === 503);
    assert.equal(fake.seen.filter((s) => s.server === 'queue').length, 5);
    assert.deepEqual(pauses, [1000, 2000, 4000]);
  });

  test('no token: a clear error before any request', async () => {
    const { platform } = client({ token: '' });
    await assert.rejects(
      platform.createJob({ component: 'c', config: 'ok' }),
      (e: Error) => e instanceof MissingTokenError && /KBC_TOKEN/.test(e.message),
    );
    await assert.rejects(platform.getJob('1'), MissingTokenError);
    assert.deepEqual(fake.seen, []);
    assert.equal(new PlatformClient({ storageUrl: 'https://connection.keboola.com', env: { KBC_TOKEN: 'x' } }).hasToken, true);
  });
});

describe('the token stays on its own stack', () => {
  test('a host outside the index never receives it', async () => {
    const { platform } = client();
    await assert.rejects(platform.assertTokenTarget(`${fake.outsiderUrl}/jobs`), UntrustedHostError);
    await platform.assertTokenTarget(`${fake.queueUrl}/jobs/1`);
    await platform.assertTokenTarget(`${fake.storageUrl}/v2/storage/tokens/verify`);
    // Same host, other port: another origin.
    await assert.rejects(platform.assertTokenTarget(fake.portalUrl), UntrustedHostError);
    assert.deepEqual(tokensSentTo('outsider'), []);
  });

  test('a redirect is not followed, so the token header cannot travel with it', async () => {
    const { platform } = client();
    await assert.rejects(platform.createJob({ component: 'c', config: 'redirect' }), (e: Error) => {
      assert.ok(e instanceof PlatformApiError);
      assert.equal(e.status, 307);
      assert.match(e.message, /redirect to ".*\/jobs" not followed/);
      return true;
    });
    assert.deepEqual(
      fake.seen.filter((s) => s.server === 'outsider'),
      [],
    );
  });

  test("a job record's url is never polled: the address comes from the index", async () => {
    const { platform } = client();
    const created = await platform.createJob({ component: 'c', config: 'elsewhere' });
    assert.ok(created.url.startsWith(fake.outsiderUrl));
    const job = await platform.waitForJob(created);
    assert.equal(job.status, 'success');
    assert.deepEqual(
      fake.seen.filter((s) => s.server === 'outsider'),
      [],
    );
  });

  test('an index whose queue is plain http on a public host: refused before sending', async () => {
    const calls: string[] = [];
    const stub: typeof fetch = async (input, init) => {
      const url = String(input);
      calls.push(`${init?.method ?? 'GET'} ${url} token=${new Headers(init?.headers).has('X-StorageApi-Token')}`);
      if (url.endsWith('/v2/storage?exclude=components'))
        return Response.json({ services: [{ id: 'queue', url: 'http://queue.example.test' }] });
      return Response.json({ id: '1', status: 'created', isFinished: false, url: '' });
    };
    const platform = new PlatformClient({ storageUrl: 'https://connection.example.test', token: TOKEN, env: {}, fetch: stub });
    await assert.rejects(
      platform.createJob({ component: 'c', config: '1' }),
      (e: Error) => e instanceof UntrustedHostError && /https only/.test(e.message),
    );
    assert.deepEqual(calls, ['GET https://connection.example.test/v2/storage?exclude=components token=false']);
  });

  test('with an injected fetch: the queue of the index, https', async () => {
    const calls: string[] = [];
    const stub: typeof fetch = async (input, init) => {
      const url = String(input);
      const headers = new Headers(init?.headers);
      calls.push(
        `${init?.method ?? 'GET'} ${url} ${headers.get('X-StorageApi-Token') === TOKEN ? 'token' : 'none'} redirect=${init?.redirect}`,
      );
      if (url === 'https://connection.example.test/v2/storage?exclude=components')
        return Response.json({ services: [{ id: 'queue', url: 'https://queue.example.test/' }] });
      return Response.json({ id: 7, status: 'created', isFinished: false, url: 'https://queue.example.test/jobs/7' }, { status: 201 });
    };
    const platform = new PlatformClient({ storageUrl: 'https://connection.example.test/', token: TOKEN, env: {}, fetch: stub });
    const job = await platform.createJob({ component: 'c', config: '1' });
    assert.equal(job.id, '7');
    assert.deepEqual(calls, [
      'GET https://connection.example.test/v2/storage?exclude=components none redirect=manual',
      'POST https://queue.example.test/jobs token redirect=manual',
    ]);
  });
});
