/**
 * `image_parameters.allowed_hosts` before the first request (src/config/allowedHosts.ts): the
 * reference checks the top-level jobs of `parameters.config.jobs`; jobs an iteration supplies are
 * checked too, and the message names the iteration's job.
 */
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { outIsEmpty, run } from '../helpers/dataDir.ts';
import { json, startServer, type TestServer } from '../helpers/httpServer.ts';

const servers: TestServer[] = [];
after(async () => {
  for (const s of servers) await s.close();
});

async function api(): Promise<TestServer> {
  const s = await startServer((_req, res) => json(res, 200, [{ id: 1 }]));
  servers.push(s);
  return s;
}

function config(s: TestServer, iterations: unknown[]): unknown {
  return {
    image_parameters: { allowed_hosts: [{ scheme: 'http', host: '127.0.0.1', port: s.port, endpoint: '/api' }] },
    parameters: {
      api: { baseUrl: `${s.url}/`, retryConfig: { maxRetries: 0 } },
      config: { outputBucket: 'b', jobs: [{ endpoint: 'api/users' }] },
      iterations,
    },
  };
}

test('a job of an iteration outside the allowed hosts: exit 1 before any request, naming the iteration job', async () => {
  const s = await api();
  const r = await run(
    config(s, [{}, { jobs: { first: { endpoint: 'api/orders' }, second: { endpoint: 'other/{id}', placeholders: { id: 7 } } } }]),
  );
  assert.equal(r.code, 1, r.lines.join('\n'));
  assert.equal(s.requests.length, 0);
  assert.match(
    r.lines.at(-1)!,
    new RegExp(
      `logger\\.ERROR: URL "${s.url}/other/7" of parameters\\.iterations\\[1\\]\\.jobs\\["second"\\] is not in the allowed hosts whitelist: ` +
        `change the job's endpoint, or add its host to image_parameters\\.allowed_hosts\\. \\{"configPath":"parameters\\.iterations\\[1\\]\\.jobs\\[\\\\"second\\\\"\\]"\\} \\[\\]$`,
    ),
  );
  assert.ok(outIsEmpty(r.dir));
});

test('parameters.config.jobs keeps the reference message; allowed iteration jobs run', async () => {
  const s = await api();
  const outside = config(s, [{ jobs: [{ endpoint: 'api/orders' }] }]) as { parameters: { config: { jobs: unknown[] } } };
  outside.parameters.config.jobs = [{ endpoint: 'other' }];
  const refused = await run(outside);
  assert.equal(refused.code, 1);
  assert.match(
    refused.lines.at(-1)!,
    new RegExp(`URL "${s.url}/other" is not in the allowed hosts whitelist\\. \\{"configPath":"image_parameters\\.allowed_hosts"\\}`),
  );
  assert.equal(s.requests.length, 0);

  const r = await run(config(s, [{}, { jobs: [{ endpoint: 'api/orders' }] }]));
  assert.equal(r.code, 0, r.lines.join('\n'));
  assert.deepEqual(
    s.requests.map((q) => q.target),
    ['/api/users', '/api/orders'],
  );
});
