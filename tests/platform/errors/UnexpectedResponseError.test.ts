/**
 * Answers of the wrong shape, from a real server on 127.0.0.1: one error for all of them, naming
 * the service and the request, with the token an answer echoes hidden (as a value only).
 */
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { UnexpectedResponseError } from '../../../src/platform/errors/UnexpectedResponseError.ts';
import { encryptObject, getConfiguration, jobEvents, PlatformApiError, PlatformClient } from '../../../src/platform/index.ts';

const TOKEN = 'e';
let server: http.Server;
let base: string;

before(async () => {
  server = http.createServer((req, res) => {
    const send = (status: number, body: string) => {
      res.writeHead(status, { 'Content-Type': 'application/json' });
      res.end(body);
    };
    req.resume();
    req.on('end', () => {
      const url = req.url ?? '';
      if (url === '/v2/storage?exclude=components')
        return send(
          200,
          JSON.stringify({
            services: [
              { id: 'queue', url: base },
              { id: 'encryption', url: base },
            ],
          }),
        );
      if (url === '/jobs') return send(201, JSON.stringify({ created: true, token: TOKEN }));
      if (url === '/jobs/7') return send(200, `<html>token ${TOKEN}: not JSON, the generic error page</html>`);
      if (url.startsWith('/v2/storage/events')) return send(200, JSON.stringify({ events: 'none', token: TOKEN }));
      if (url.includes('/configs/')) return send(200, JSON.stringify({ id: '1', echo: TOKEN }));
      if (url.startsWith('/encrypt')) return send(200, JSON.stringify(['a list']));
      return send(404, '{"error":"Route not found"}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(() => new Promise<void>((resolve) => server.close(() => resolve())));

function client(): PlatformClient {
  return new PlatformClient({ storageUrl: base, token: TOKEN, env: {}, allowHttpLoopback: true, retryDelaysMs: [] });
}

async function failure(promise: Promise<unknown>): Promise<UnexpectedResponseError> {
  try {
    await promise;
  } catch (e) {
    assert.ok(e instanceof UnexpectedResponseError && e instanceof PlatformApiError, String(e));
    return e;
  }
  assert.fail('no error');
}

test('each wrong shape: one error naming the service, the request and what the answer is not', async () => {
  const platform = client();
  const cases: [() => Promise<unknown>, string][] = [
    [() => platform.createJob({ component: 'c', config: '1' }), `Job Queue API: unexpected answer to POST ${base}/jobs: not a job record.`],
    [() => platform.getJob('7'), `Job Queue API: unexpected answer to GET ${base}/jobs/7: HTTP 200: a body that is not JSON.`],
    [
      () => jobEvents(platform, '7'),
      `Storage API: unexpected answer to GET ${base}/v2/storage/events?runId=7&sortOrder=asc&limit=100: not a list of events.`,
    ],
    [
      () => getConfiguration(platform, { component: 'c', configId: '1' }),
      `Storage API: unexpected answer to GET ${base}/v2/storage/branch/default/components/c/configs/1: not a configuration.`,
    ],
    [
      () => encryptObject(platform, { '#a': 'b' }, { projectId: '1' }),
      `Encryption API: unexpected answer to POST ${base}/encrypt?projectId=1: not an object.`,
    ],
  ];
  for (const [call, message] of cases) assert.equal((await failure(call())).message, message);
});

test('the token an answer echoes is hidden in the body kept, the words around it whole', async () => {
  const platform = client();
  assert.equal((await failure(platform.createJob({ component: 'c', config: '1' }))).body, '{"created":true,"token":"[hidden]"}');
  assert.equal((await failure(platform.getJob('7'))).body, '<html>token [hidden]: not JSON, the generic error page</html>');
  assert.equal((await failure(jobEvents(platform, '7'))).body, '{"events":"none","token":"[hidden]"}');
});
