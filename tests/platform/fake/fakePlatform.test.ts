/** The fake platform itself, over HTTP: its shapes (spec 06) and its jobs' moves in time. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { type FakePlatform, startFakePlatform } from '../../../src/platform/fake/fakePlatform.ts';
import { FakeStorage } from '../../../src/platform/fake/storage.ts';

async function call(url: string, init: RequestInit & { token?: string } = {}): Promise<{ status: number; body: unknown }> {
  const headers: Record<string, string> = {
    'Content-Type': 'application/json',
    ...(init.token ? { 'X-StorageApi-Token': init.token } : {}),
  };
  const response = await fetch(url, { ...init, headers: { ...headers, ...(init.headers as Record<string, string>) } });
  const text = await response.text();
  return { status: response.status, body: text === '' ? undefined : JSON.parse(text) };
}

function configure(platform: FakePlatform, id: string): void {
  platform.storage.store('c', id, { parameters: {} });
}

/** Polls a job until `done` holds for its record. */
async function until(
  platform: FakePlatform,
  id: string,
  done: (job: Record<string, unknown>) => boolean,
): Promise<Record<string, unknown>> {
  for (;;) {
    const { body } = await call(`${platform.queueUrl}/jobs/${id}`, { token: platform.token });
    if (done(body as Record<string, unknown>)) return body as Record<string, unknown>;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe('fake platform', () => {
  test('index without the token; everything else wants it, with each service’s error shape', async (t) => {
    const platform = await startFakePlatform();
    t.after(() => platform.close());
    const index = await call(`${platform.storageUrl}/v2/storage?exclude=components`);
    assert.deepEqual(
      (index.body as { services: { id: string }[] }).services.map((s) => s.id),
      ['queue', 'encryption'],
    );
    assert.equal('components' in (index.body as object), false);
    assert.deepEqual((await call(`${platform.storageUrl}/v2/storage/tokens/verify`)).body, {
      error: 'Invalid access token',
      code: 'storage.tokenInvalid',
      exceptionId: 'exception-401',
    });
    const queue = await call(`${platform.queueUrl}/jobs/1`, { token: 'wrong' });
    assert.deepEqual(queue, {
      status: 401,
      body: { error: 'Invalid access token', code: 401, status: 'error', exceptionId: 'job-runner-401' },
    });
  });

  test('a job moves created → processing → success; events follow it', async (t) => {
    const platform = await startFakePlatform({ stepMs: 5, runSteps: 2 });
    t.after(() => platform.close());
    configure(platform, '1');
    const created = await call(`${platform.queueUrl}/jobs`, {
      method: 'POST',
      token: platform.token,
      body: JSON.stringify({ component: 'c', config: '1' }),
    });
    assert.equal(created.status, 201);
    const id = (created.body as { id: string }).id;
    assert.equal((created.body as { status: string }).status, 'created');
    const done = await until(platform, id, (j) => j['isFinished'] === true);
    assert.equal(done['status'], 'success');
    const events = await call(`${platform.storageUrl}/v2/storage/events?runId=${id}&sortOrder=asc`, { token: platform.token });
    const messages = (events.body as { message: string }[]).map((e) => e.message);
    assert.equal(messages[0], `Job "${id}" created`);
    assert.match(messages.at(-1)!, /ended with status "success"/);
  });

  test('the parallel limit and the configuration lock hold jobs in waiting; a kill cancels a waiting job', async (t) => {
    const platform = await startFakePlatform({ stepMs: 5, runSteps: 1000, jobsParallelism: 1, configLock: true });
    t.after(() => platform.close());
    configure(platform, '1');
    const create = async () =>
      (
        (
          await call(`${platform.queueUrl}/jobs`, {
            method: 'POST',
            token: platform.token,
            body: JSON.stringify({ component: 'c', config: '1' }),
          })
        ).body as { id: string }
      ).id;
    const first = await create();
    await until(platform, first, (j) => j['status'] === 'processing');
    const second = await create();
    await until(platform, second, (j) => j['status'] === 'waiting');
    const kill = await call(`${platform.queueUrl}/jobs/${second}/kill`, { method: 'POST', token: platform.token });
    assert.equal(kill.status, 202);
    assert.equal((kill.body as { desiredStatus: string }).desiredStatus, 'terminating');
    assert.equal((await until(platform, second, (j) => j['isFinished'] === true))['status'], 'cancelled');
    await call(`${platform.queueUrl}/jobs/${first}/kill`, { method: 'POST', token: platform.token });
    assert.equal((await until(platform, first, (j) => j['isFinished'] === true))['status'], 'terminated');
  });

  test('the queue refuses a disabled configuration and rows that do not exist, as the platform words it', async (t) => {
    const platform = await startFakePlatform();
    t.after(() => platform.close());
    configure(platform, '1');
    platform.storage.configs.get(FakeStorage.key('c', '1'))!.isDisabled = true;
    const post = (body: unknown) =>
      call(`${platform.queueUrl}/jobs`, { method: 'POST', token: platform.token, body: JSON.stringify(body) });
    assert.equal(
      ((await post({ component: 'c', config: '1' })).body as { error: string }).error,
      'Configuration "1" of component "c" is disabled.',
    );
    assert.equal(
      ((await post({ component: 'c', config: '1', mode: 'forceRun', configRowIds: ['x', 'y'] })).body as { error: string }).error,
      'None of rows "x, y" was found.',
    );
  });

  test('encryption: no token needed; a cipher comes back unchanged; a job cannot decrypt another configuration’s cipher', async (t) => {
    const platform = await startFakePlatform({ stepMs: 5, runSteps: 1 });
    t.after(() => platform.close());
    const encrypt = async (query: string, value: string) =>
      (
        await fetch(`${platform.encryptionUrl}/encrypt?${query}`, {
          method: 'POST',
          headers: { 'Content-Type': 'text/plain' },
          body: value,
        })
      ).text();
    const cipher = await encrypt('componentId=c&projectId=58&configId=other', 'secret');
    assert.match(cipher, /^KBC::ConfigSecure::/);
    assert.equal(await encrypt('componentId=c&projectId=58', cipher), cipher);
    assert.equal(await encrypt('componentId=c&projectId=58', '{{ vault.x }}'), '{{ vault.x }}');
    configure(platform, '1');
    platform.storage.configs.get(FakeStorage.key('c', '1'))!.configuration = { parameters: { '#key': cipher } };
    const created = await call(`${platform.queueUrl}/jobs`, {
      method: 'POST',
      token: platform.token,
      body: JSON.stringify({ component: 'c', config: '1' }),
    });
    const done = await until(platform, (created.body as { id: string }).id, (j) => j['isFinished'] === true);
    assert.equal(done['status'], 'error');
    assert.match((done['result'] as { message: string }).message, /^Decryption failed: the value of "#key"/);
  });
});
