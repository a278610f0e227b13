/**
 * The API description's errors about `config.http.headers` (src/config/api.ts) name where the
 * headers were written: `parameters.config.http` or the iteration that supplies its own `http`.
 */
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { outIsEmpty, run } from '../helpers/dataDir.ts';
import { json, startServer, type TestServer } from '../helpers/httpServer.ts';

let server: TestServer | undefined;
after(async () => {
  await server?.close();
});

async function api(): Promise<TestServer> {
  server ??= await startServer((_req, res) => json(res, 200, [{ id: 1 }]));
  return server;
}

function config(s: TestServer, http: unknown, iterations: unknown[]): unknown {
  return {
    parameters: {
      api: { baseUrl: `${s.url}/`, http: { requiredHeaders: ['X-AppKey'] } },
      config: { outputBucket: 'b', jobs: [{ endpoint: 'users' }], http },
      iterations,
    },
  };
}

test('a required header missing from an iteration’s http.headers: the ERROR names the iteration, before any request', async () => {
  const s = await api();
  const before = s.requests.length;
  const r = await run(config(s, { headers: { 'X-AppKey': 'k' } }, [{}, { http: { headers: { 'X-AppKey': '' } } }]));
  assert.equal(r.code, 1, r.lines.join('\n'));
  assert.equal(s.requests.length, before);
  assert.match(
    r.lines.at(-1)!,
    /logger\.ERROR: Missing required header X-AppKey in 'config\.http\.headers'\. \{"configPath":"parameters\.iterations\[1\]\.http\.headers\.X-AppKey"\} \[\]$/,
  );
  assert.ok(outIsEmpty(r.dir));
});

test('a required header missing from parameters.config.http.headers keeps that path, also with iterations', async () => {
  const s = await api();
  const r = await run(config(s, { headers: { Other: 'x' } }, [{ userData: { a: 1 } }]));
  assert.equal(r.code, 1, r.lines.join('\n'));
  assert.match(r.lines.at(-1)!, /\{"configPath":"parameters\.config\.http\.headers\.X-AppKey"\} \[\]$/);
});

test('a header function of an iteration’s http.headers that fails: the path names the iteration', async () => {
  const s = await api();
  const r = await run(config(s, { headers: { 'X-AppKey': 'k' } }, [{ http: { headers: { 'X-AppKey': { function: 'nope', args: [] } } } }]));
  assert.equal(r.code, 1, r.lines.join('\n'));
  assert.match(r.lines.at(-1)!, /"configPath":"parameters\.iterations\[0\]\.http\.headers\.X-AppKey"\} \[\]$/);
});

test('every iteration with its required header runs', async () => {
  const s = await api();
  const before = s.requests.length;
  const r = await run(config(s, { headers: { 'X-AppKey': 'k' } }, [{}, { http: { headers: { 'X-AppKey': 'other' } } }]));
  assert.equal(r.code, 0, r.lines.join('\n'));
  assert.deepEqual(
    s.requests.slice(before).map((q) => q.headers['x-appkey']),
    ['k', 'other'],
  );
});
