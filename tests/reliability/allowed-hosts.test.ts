/**
 * `image_parameters.allowed_hosts` (spec 01 §1.12) at set-up, and — our addition — on every URL
 * actually requested: redirect targets, next-page links, absolute child and login endpoints. A
 * URL outside the set is a user error naming it; the host outside is never contacted; nothing
 * is written.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { assertFailed, cleanup, outSnapshot, runWith, sendJson, startFaultServer, strip, type FaultServer } from './helpers.ts';

/** `allowed` is in the allow-list; `outside` (same IP, other port) is not. */
let allowed: FaultServer;
let outside: FaultServer;
let nextLink = '';

before(async () => {
  outside = await startFaultServer((_q, res) => sendJson(res, 200, { data: [{ id: 'outside' }], token: 't' }));
  allowed = await startFaultServer((q, res) => {
    if (q.target.startsWith('/api/redirect-out')) return void res.writeHead(302, { Location: `${outside.url}/api/users` }).end();
    if (q.target.startsWith('/api/redirect-in')) return void res.writeHead(302, { Location: '/api/users' }).end();
    if (q.target.startsWith('/api/paged')) return sendJson(res, 200, { data: [{ id: 1 }], next: nextLink });
    if (q.target.startsWith('/other/')) return sendJson(res, 200, { data: [{ id: 'other' }] });
    sendJson(res, 200, { data: [{ id: 1 }], next: null, token: 't' });
  });
});
after(async () => {
  await allowed.close();
  await outside.close();
});

function config(api: Record<string, unknown>, jobs: unknown[], hosts?: unknown[]): unknown {
  return {
    image_parameters: { allowed_hosts: hosts ?? [{ scheme: 'http', host: '127.0.0.1', port: allowed.port, endpoint: '/api' }] },
    parameters: { api: { baseUrl: `${allowed.url}/api/`, retryConfig: { maxRetries: 0 }, ...api }, config: { outputBucket: 'b', jobs } },
  };
}

const RESPONSE_URL = { pagination: { method: 'response.url', urlKey: 'next' } };

async function refused(name: string, cfg: unknown, url: string): Promise<void> {
  const before = outside.requests.length;
  const r = await runWith(cfg);
  const line = assertFailed(r, 1, name);
  assert.equal(
    line,
    `logger.ERROR: URL "${url}" is not in the allowed hosts whitelist. {"configPath":"image_parameters.allowed_hosts"} []`,
    name,
  );
  assert.equal(outside.requests.length, before, `${name}: the host outside the list was contacted`);
  cleanup(r);
}

test('the allowed host itself works (control)', async () => {
  const r = await runWith(config({}, [{ endpoint: 'redirect-in', dataField: 'data' }]));
  assert.equal(r.code, 0, r.lines.map(strip).join('\n'));
  assert.ok(
    Object.keys(outSnapshot(r.dir)).some((f) => f.startsWith('tables/b.redirect')),
    'table written',
  );
  cleanup(r);
});

test('set-up: a job URL outside the list fails before any request', async () => {
  const before = allowed.requests.length;
  await refused(
    'base URL elsewhere',
    config({ baseUrl: `${outside.url}/api/` }, [{ endpoint: 'users', params: { a: 'b c' } }]),
    `${outside.url}/api/users?a=b+c`,
  );
  await refused(
    'wrong scheme',
    config({}, [{ endpoint: 'users' }], [{ scheme: 'https', host: '127.0.0.1', port: allowed.port }]),
    `${allowed.url}/api/users`,
  );
  await refused(
    'a port given as a string never matches',
    config({}, [{ endpoint: 'users' }], [{ host: '127.0.0.1', port: String(allowed.port) }]),
    `${allowed.url}/api/users`,
  );
  assert.equal(allowed.requests.length, before, 'no request at all');
});

test('an absolute-path endpoint passes the set-up check (string join, as the reference) but not the request check', async () => {
  const before = allowed.requests.length;
  await refused(
    'absolute path',
    config({}, [
      { endpoint: 'users', dataField: 'data' },
      { endpoint: '/other/x', dataField: 'data' },
    ]),
    `${allowed.url}/other/x`,
  );
  assert.deepEqual(
    allowed.requests.slice(before).map((q) => q.target),
    ['/api/users'],
    '/other/x is never requested',
  );
});

test('a redirect that leaves the allowed set', async () => {
  await refused('redirect', config({}, [{ endpoint: 'redirect-out', dataField: 'data' }]), `${outside.url}/api/users`);
});

test('a next-page link that leaves the allowed set', async () => {
  nextLink = `${outside.url}/api/page2`;
  await refused('absolute next link', config(RESPONSE_URL, [{ endpoint: 'paged', dataField: 'data' }]), `${outside.url}/api/page2`);
  nextLink = `//127.0.0.1:${outside.port}/api/page2`;
  await refused('network-path next link', config(RESPONSE_URL, [{ endpoint: 'paged', dataField: 'data' }]), `${outside.url}/api/page2`);
  nextLink = '/other/page2';
  await refused(
    'next link outside the endpoint prefix',
    config(RESPONSE_URL, [{ endpoint: 'paged', dataField: 'data' }]),
    `${allowed.url}/other/page2`,
  );
});

test('absolute child and login endpoints outside the set', async () => {
  await refused(
    'child',
    config({}, [
      { endpoint: 'users', dataField: 'data', children: [{ endpoint: `${outside.url}/api/u/{id}`, placeholders: { id: 'id' } }] },
    ]),
    `${outside.url}/api/u/1`,
  );
  await refused(
    'login',
    config(
      {
        authentication: {
          type: 'login',
          loginRequest: { endpoint: `${outside.url}/api/login` },
          apiRequest: { headers: { 'X-Token': 'token' } },
        },
      },
      [{ endpoint: 'users', dataField: 'data' }],
    ),
    `${outside.url}/api/login`,
  );
});

test('next-page links that try to confuse URL parsers never reach the other host', async () => {
  const a = allowed.port;
  const b = outside.port;
  const links = [
    `http://127.0.0.1:${a}@127.0.0.1:${b}/api/x`,
    `http://user:pass@127.0.0.1:${b}/api/x`,
    `http://127.0.0.1:${b}#@127.0.0.1:${a}/api/x`,
    `http://127.0.0.1:${b}?@127.0.0.1:${a}/api/x`,
    `http://127.0.0.1:${a}\\@127.0.0.1:${b}/api/x`,
    `http://127.0.0.1:${b}\\@127.0.0.1:${a}/api/x`,
    `http://127.0.0.1:${b}%2F@127.0.0.1:${a}/api/x`,
    `HTTP://127.0.0.1:${b}/api/x`,
    `http:127.0.0.1:${b}/api/x`,
    `http://127.0.0.1.:${b}/api/x`,
    `http://127.1:${b}/api/x`,
    `http://localhost:${b}/api/x`,
    `http://[::ffff:127.0.0.1]:${b}/api/x`,
    `http://127.0.0.1:${a}:${b}/api/x`,
    ` http://127.0.0.1:${b}/api/x`,
    `http://127.0.0.1:${b}/api/x\n@127.0.0.1:${a}`,
  ];
  for (const link of links) {
    nextLink = link;
    const before = outside.requests.length;
    const r = await runWith(config(RESPONSE_URL, [{ endpoint: 'paged', dataField: 'data' }]));
    assert.equal(outside.requests.length, before, `${JSON.stringify(link)} reached the host outside the list`);
    if (r.code !== 0) {
      assert.equal(r.code, 1, `${JSON.stringify(link)}: ${strip(r.lines.at(-1))}`);
      assertFailed(r, 1, link);
    }
    cleanup(r);
  }
});
