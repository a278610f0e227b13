/** test_request (spec 05 §4–§5) against a real local server. */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { makeDataDir } from '../helpers/dataDir.ts';
import { json, startServer, type TestServer } from '../helpers/httpServer.ts';
import { lastLine, outIsEmpty, runAction } from './run.ts';

/** 10 MB of text with every kind of character the answer escapes (DEL, quotes, non-ASCII, an emoji). */
const LONG_TEXT = `${'x'.repeat(99_980)}\u007f"\\\n\u0001é😀/`.repeat(100);

const CLI = path.resolve(import.meta.dirname, '..', '..', 'dist', 'cli.js');

let api: TestServer;
before(async () => {
  api = await startServer((req, res) => {
    const path = req.target.split('?')[0]!;
    if (path === '/users')
      return json(res, 200, {
        data: [
          { id: 1, name: 'a' },
          { id: 2, name: 'b' },
        ],
        meta: { total: 2 },
      });
    if (path.startsWith('/users/')) return json(res, 200, { orders: [{ order: `${path.split('/')[2]}-x` }] });
    if (path === '/missing') return json(res, 404, { error: 'nope' });
    if (path === '/login') return json(res, 200, { access_token: 'tok-from-login' });
    if (path === '/empty') return json(res, 200, []);
    if (path === '/needs-key')
      return req.headers['x-api-key'] === 'k-123' ? json(res, 200, [{ ok: 1 }]) : json(res, 401, { error: 'no key' });
    if (path === '/long') return json(res, 200, { text: LONG_TEXT });
    if (path === '/to') {
      res.writeHead(302, { Location: new URL(req.target, 'http://x').searchParams.get('location')! });
      return res.end();
    }
    if (path === '/whoami') {
      const [user, password] = Buffer.from(String(req.headers.authorization).slice('Basic '.length), 'base64').toString().split(':');
      return json(res, 401, { error: `wrong password ${password} for ${user}` });
    }
    if (path === '/text') {
      res.writeHead(200, { 'Content-Type': 'text/plain' });
      return res.end('hello');
    }
    return json(res, 200, { echo: req.target });
  });
});
after(() => api.close());

function request(config: Record<string, unknown>, extra: Record<string, unknown> = {}, selected = '0') {
  return runAction({ action: 'test_request', parameters: { __SELECTED_JOB: selected, api: { baseUrl: `${api.url}/`, ...extra }, config } });
}

test('the answer: response, request, records, debug_log in that order; bearer token masked', async () => {
  const r = await request({ __AUTH_METHOD: 'bearer', '#__BEARER_TOKEN': 'sekret-token', jobs: [{ endpoint: 'users', dataField: 'data' }] });
  assert.equal(r.code, 0);
  assert.equal(r.stderr, '');
  const a = r.answer();
  assert.deepEqual(Object.keys(a), ['response', 'request', 'records', 'debug_log']);
  assert.deepEqual(Object.keys(a.response), ['status_code', 'reason', 'data', 'headers']);
  assert.equal(a.response.status_code, 200);
  assert.equal(a.response.reason, 'OK');
  assert.equal(a.response.headers['Content-Type'], 'application/json');
  assert.deepEqual(a.records, [
    { id: 1, name: 'a' },
    { id: 2, name: 'b' },
  ]);
  assert.deepEqual(a.request, {
    url: `${api.url}/users`,
    method: 'GET',
    data: null,
    headers: {
      'User-Agent': 'python-requests/2.32.3',
      'Accept-Encoding': 'gzip, deflate',
      Accept: '*/*',
      Connection: 'keep-alive',
      authorization: 'Bearer --HIDDEN--',
    },
  });
  assert.ok(a.debug_log.startsWith('Component initialized\n'));
  assert.match(a.debug_log, /"GET \/users HTTP\/1\.1" 200/);
  assert.equal(api.requests.at(-1)!.headers.authorization, 'Bearer sekret-token');
  assert.ok(!r.stdout.includes('sekret-token'));
  assert.ok(outIsEmpty(r.dir));
});

test('a chain with children and placeholders: one child request per parent record, the last response reported', async () => {
  const before = api.requests.length;
  const r = await request(
    {
      jobs: [
        {
          endpoint: 'users',
          dataField: 'data',
          children: [{ endpoint: 'users/{user-id}/orders', dataField: 'orders', placeholders: { 'user-id': 'id' } }],
        },
      ],
    },
    {},
    '0_0',
  );
  const a = r.answer();
  assert.deepEqual(
    api.requests.slice(before).map((q) => q.target),
    ['/users', '/users/1/orders', '/users/2/orders'],
  );
  assert.deepEqual(a.records, [{ order: '1-x' }, { order: '2-x' }]);
  assert.equal(a.request.url, `${api.url}/users/2/orders`);
});

test('pagination parameters on the first page only; query from defaults, job params and attr (as strings)', async () => {
  const before = api.requests.length;
  await request(
    { jobs: [{ endpoint: 'list', params: { q: { attr: 'n' } } }], n: 5 },
    { pagination: { method: 'pagenum', firstPageParams: true, limit: 100 } },
  );
  await request({ jobs: [{ endpoint: 'list' }] }, { pagination: { method: 'offset', limit: 100 } });
  await request(
    { jobs: [{ endpoint: 'list', params: { limit: 50 } }] },
    { pagination: { method: 'offset', limit: 100, offsetFromJob: true } },
  );
  await request({ jobs: [{ endpoint: 'list' }] }, { pagination: { method: 'pagenum', limit: 100 } });
  assert.deepEqual(
    api.requests.slice(before).map((q) => q.target),
    ['/list?q=5&page=1&limit=100', '/list?offset=0&limit=100', '/list?limit=50&offset=0', '/list'],
  );
  const missing = await request({ jobs: [{ endpoint: 'list', scroller: 'other' }] }, { pagination: { method: 'offset', limit: 1 } });
  assert.equal(lastLine(missing), "keboola.component.exceptions.UserException: Paginator 'other' not found in the configuration.\n");
});

test('POST sends the params as JSON unfilled; FORM as a form body with method POST', async () => {
  const post = (await request({ jobs: [{ endpoint: 'p', method: 'POST', params: { parameter: 'value', n: { attr: 'x' } } }] })).answer();
  assert.equal(post.request.method, 'POST');
  assert.equal(post.request.data, '{"parameter": "value", "n": {"attr": "x"}}');
  assert.equal(post.request.url, `${api.url}/p`);
  assert.equal(post.request.headers['Content-Type'], 'application/json');
  const form = (await request({ jobs: [{ endpoint: 'f', method: 'FORM', params: { parameter: 'value' } }] })).answer();
  assert.equal(form.request.method, 'POST');
  assert.equal(form.request.data, 'parameter=value');
  assert.equal(api.requests.at(-1)!.body, 'parameter=value');
  assert.equal(api.requests.at(-1)!.headers['content-type'], 'application/x-www-form-urlencoded');
});

test('an HTTP error status is an answer; a non-JSON success body and bad selections are envelopes', async () => {
  const notFound = (await request({ jobs: [{ endpoint: 'missing', method: 'POST', params: { a: 1 } }] })).answer();
  assert.equal(notFound.response.status_code, 404);
  assert.equal(notFound.response.reason, 'Not Found');
  assert.deepEqual(notFound.response.data, { error: 'nope' });
  assert.deepEqual(notFound.records, []);
  assert.equal(
    lastLine(await request({ jobs: [{ endpoint: 'text' }] })),
    'requests.exceptions.JSONDecodeError: Expecting value: line 1 column 1 (char 0)\n',
  );
  assert.equal(lastLine(await request({ jobs: [{ endpoint: 'users', method: 'get' }] })), 'ValueError: Unsupported method: get\n');
  assert.equal(lastLine(await request({ jobs: [{ endpoint: 'users' }] }, {}, '3')), 'IndexError: list index out of range\n');
  assert.equal(
    lastLine(await request({ jobs: [{ endpoint: 'users' }] }, {}, 'x')),
    "ValueError: invalid literal for int() with base 10: 'x'\n",
  );
  const notFoundPath = (await request({ jobs: [{ endpoint: 'users', dataField: 'nope.deeper' }] })).answer();
  assert.deepEqual(notFoundPath.records, ['Path nope.deeper not found in the response data']);
  const auto = (await request({ jobs: [{ endpoint: 'users' }] })).answer();
  assert.deepEqual(auto.records, [
    { id: 1, name: 'a' },
    { id: 2, name: 'b' },
  ]);
  const topPlaceholder = await request({ jobs: [{ endpoint: 'users/{id}', placeholders: { id: 'id' } }] });
  assert.match(
    lastLine(topPlaceholder),
    /^placeholders_utils\.UserException: \('No value found for placeholder id in parent result\. \(level: 1\)'/,
  );
});

test('secrets masked: # and __ user parameters, basic, api-key header and query, login-derived token', async () => {
  const basic = await request({ __AUTH_METHOD: 'basic', username: 'name', '#password': 'pass', jobs: [{ endpoint: 'users' }] });
  assert.equal(basic.answer().request.headers.Authorization, '--HIDDEN--');
  assert.equal(api.requests.at(-1)!.headers.authorization, 'Basic bmFtZTpwYXNz');
  const headerKey = await request(
    { __AUTH_METHOD: 'api-key', '#__AUTH_TOKEN': 'key-token', jobs: [{ endpoint: 'users' }] },
    { http: { headers: { key: { attr: '#__AUTH_TOKEN' } } } },
  );
  assert.equal(headerKey.answer().request.headers.key, '--HIDDEN--');
  assert.equal(api.requests.at(-1)!.headers.key, 'key-token');
  const queryKey = await request(
    { __AUTH_METHOD: 'api-key', '#__AUTH_TOKEN': 'key-token', jobs: [{ endpoint: 'users' }] },
    { http: { defaultOptions: { params: { key: { attr: '#__AUTH_TOKEN' } } } } },
  );
  assert.equal(api.requests.at(-1)!.target, '/users?key=key-token');
  assert.ok(!queryKey.stdout.includes('key-token'));
  const login = await request(
    { jobs: [{ endpoint: 'users' }], '#secret': 'top-secret', echo: { attr: '#secret' } },
    {
      authentication: {
        type: 'login',
        loginRequest: { endpoint: 'login', method: 'FORM', params: { client: { attr: '#secret' } } },
        apiRequest: { headers: { Authorization: { function: 'concat', args: ['Bearer ', { response: 'access_token' }] } } },
      },
    },
  );
  assert.equal(api.requests.at(-2)!.body, 'client=top-secret');
  assert.equal(api.requests.at(-1)!.headers.authorization, 'Bearer tok-from-login');
  assert.equal(login.answer().request.headers.Authorization, '--HIDDEN--');
  assert.ok(!login.stdout.includes('tok-from-login') && !login.stdout.includes('top-secret'));
});

test('basic: the password itself is a secret, not only the header (an API echoing the decoded credentials)', async () => {
  const password = 'pä ss/w+rd9x';
  const r = await request({ __AUTH_METHOD: 'basic', username: 'name', '#password': password, jobs: [{ endpoint: 'whoami' }] });
  assert.deepEqual(r.answer().response.data, { error: 'wrong password --HIDDEN-- for name' });
  for (const form of [password, JSON.stringify(password).slice(1, -1), 'p\\u00e4 ss']) assert.ok(!r.stdout.includes(form), r.stdout);
});

test('a signature or hash computed from a # parameter is masked like the parameter (header, query, echoed body)', async () => {
  const key = { attr: '#key' };
  const r = await request(
    { '#key': 'hmacKey-secret-1', jobs: [{ endpoint: 'signed', dataField: '.', params: { sig: { function: 'md5', args: [key] } } }] },
    { http: { headers: { 'X-Sig': { function: 'hash_hmac', args: ['sha256', 'payload', key] } } } },
  );
  const received = api.requests.at(-1)!;
  const sent = [String(received.headers['x-sig']), new URL(received.target, 'http://x').searchParams.get('sig')!];
  assert.equal(sent[0].length, 64);
  for (const value of sent) assert.ok(!r.stdout.includes(value), `${value} in ${r.stdout}`);
  assert.equal(r.answer().request.headers['X-Sig'], '--HIDDEN--');
  assert.deepEqual(r.answer().response.data, { echo: '/signed?sig=--HIDDEN--' });
});

test('a redirect to another origin goes without a header holding such a derived signature', async () => {
  const foreign = await startServer((_req, res) => json(res, 200, [{ landed: true }]));
  try {
    const r = await request(
      {
        '#key': 'hmacKey-secret-1',
        jobs: [{ endpoint: `to?${new URLSearchParams({ location: `${foreign.url}/landing` })}`, dataField: '.' }],
      },
      { http: { headers: { 'X-Sig': { function: 'hash_hmac', args: ['sha256', 'payload', { attr: '#key' }] } } } },
    );
    assert.deepEqual(r.answer().records, [{ landed: true }]);
    assert.equal(String(api.requests.at(-1)!.headers['x-sig']).length, 64);
    assert.equal(foreign.requests[0]!.headers['x-sig'], undefined);
  } finally {
    await foreign.close();
  }
});

test('the helper allow-list checks the top-level job URL by path', async () => {
  const allowed = (entries: unknown[]) =>
    runAction({
      action: 'test_request',
      image_parameters: { allowed_hosts: entries },
      parameters: { __SELECTED_JOB: '0', api: { baseUrl: `${api.url}/api` }, config: { jobs: [{ endpoint: 'users' }] } },
    });
  const ok = await allowed([{ host: '127.0.0.1', port: api.port, path: '/api' }]);
  assert.equal(ok.answer().response.status_code, 200);
  const refused = await allowed([{ host: '127.0.0.1', path: '/ap' }]);
  assert.equal(
    lastLine(refused),
    `keboola.component.exceptions.UserException: URL "${api.url}/api/users" is not in the allowed hosts whitelist.\n`,
  );
});

test('secrets masked in every form: a token with reserved characters is percent-encoded in the URL and the debug log', async () => {
  const token = 'k/1+2=3 é&x';
  const query = await request(
    { __AUTH_METHOD: 'api-key', '#__AUTH_TOKEN': token, jobs: [{ endpoint: 'users' }] },
    { http: { defaultOptions: { params: { key: { attr: '#__AUTH_TOKEN' } } } } },
  );
  assert.equal(api.requests.at(-1)!.target, '/users?key=k%2F1%2B2%3D3+%C3%A9%26x');
  const queryAuth = await request(
    { '#key': token, jobs: [{ endpoint: 'users' }] },
    { authentication: { type: 'query', query: { apikey: { attr: '#key' } } } },
  );
  for (const r of [query, queryAuth]) {
    const a = r.answer();
    assert.match(a.request.url, /\?(key|apikey)=--HIDDEN--$/);
    assert.ok(!a.debug_log.includes('%2F1%2B2'), a.debug_log);
    for (const form of [token, encodeURIComponent(token), 'k%2F1%2B2%3D3+%C3%A9%26x', '\\u00e9&x'])
      assert.ok(!r.stdout.includes(form), `${form} in ${r.stdout}`);
  }
});

test('masking never mangles: a short secret is hidden where it stands as a value, not inside a path word (issue 26 #2)', async () => {
  const r = await request(
    { __AUTH_METHOD: 'api-key', '#__AUTH_TOKEN': 'token', jobs: [{ endpoint: '001-token-header/orders', dataField: '.' }] },
    { http: { defaultOptions: { params: { key: { attr: '#__AUTH_TOKEN' } } } } },
  );
  const a = r.answer();
  assert.equal(a.request.url, `${api.url}/001-token-header/orders?key=--HIDDEN--`);
  assert.ok(a.debug_log.includes('/001-token-header/orders?key=--HIDDEN--'), a.debug_log);
  assert.ok(!a.debug_log.includes('--HIDDEN---header'), a.debug_log);
});

test('a response that echoes a configured secret is masked in response.data and records (issue 26 #4)', async () => {
  const r = await request(
    { __AUTH_METHOD: 'api-key', '#__AUTH_TOKEN': 'tok-42', jobs: [{ endpoint: 'echo', dataField: '.' }] },
    { http: { defaultOptions: { params: { key: { attr: '#__AUTH_TOKEN' } } } } },
  );
  const a = r.answer();
  assert.deepEqual(a.response.data, { echo: '/echo?key=--HIDDEN--' });
  assert.deepEqual(a.records, [{ echo: '/echo?key=--HIDDEN--' }]);
  assert.ok(!r.stdout.includes('tok-42'));
});

test('headers written in parameters.config.http.headers are sent, as the run sends them (issue 26 #4)', async () => {
  const r = await request({ '#key': 'k-123', http: { headers: { 'X-Api-Key': { attr: '#key' } } }, jobs: [{ endpoint: 'needs-key' }] });
  const a = r.answer();
  assert.equal(a.response.status_code, 200, r.stdout);
  assert.deepEqual(a.records, [{ ok: 1 }]);
  assert.equal(a.request.headers['X-Api-Key'], '--HIDDEN--');
});

test('a 10 MB string body is answered whole, byte for byte as Python prints it', async () => {
  const dir = makeDataDir({
    action: 'test_request',
    parameters: { __SELECTED_JOB: '0', api: { baseUrl: `${api.url}/` }, config: { jobs: [{ endpoint: 'long', dataField: '.' }] } },
  });
  const child = spawn(process.execPath, [CLI], { env: { ...process.env, KBC_DATADIR: dir }, stdio: ['ignore', 'pipe', 'pipe'] });
  const chunks: Buffer[] = [];
  child.stdout.on('data', (c: Buffer) => chunks.push(c));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  assert.equal(code, 0);
  const stdout = Buffer.concat(chunks).toString('utf8');
  // Python's ensure_ascii, built another way: JSON.stringify, then every unit outside printable ASCII escaped.
  const dumped = JSON.stringify(LONG_TEXT).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  assert.ok(stdout.startsWith(`{"response": {"status_code": 200, "reason": "OK", "data": {"text": ${dumped}}, "headers": {`));
  assert.ok(stdout.includes(`"records": [{"text": ${dumped}}], "debug_log": `));
});

test('an endpoint that keeps answering 503 and asks for a 30 s pause: the built CLI answers the 503 at once, one request', async () => {
  // The pause would end after the 25 s retry budget: the platform, which waits 30 s, gets the helper's answer for that response.
  const server = await startServer((_req, res) => {
    res.writeHead(503, { 'Retry-After': '30', 'Content-Type': 'text/plain' });
    res.end('maintenance');
  });
  const r = await runAction({
    action: 'test_request',
    parameters: { __SELECTED_JOB: '0', config: { jobs: [{ endpoint: 'orders' }] }, api: { baseUrl: `${server.url}/` } },
  });
  await server.close();
  assert.equal(r.code, 0);
  assert.equal(r.stderr, '');
  assert.equal(server.requests.length, 1);
  const answer = r.answer();
  assert.equal(answer.response.status_code, 503);
  assert.equal(answer.response.data, 'maintenance');
  assert.match(
    answer.debug_log,
    /Retries stopped after 1 attempt of GET .*: the next wait \(30\.0 s\) would end after the sync action's retry budget \(25 s/,
  );
});
