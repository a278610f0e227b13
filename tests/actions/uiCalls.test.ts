/**
 * The request lines and headers of the reference's UI-generated test calls (spec 05 §11,
 * `tests/calls/000…010`), rebuilt here against a local server that records what it receives.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { json, startServer, type TestServer } from '../helpers/httpServer.ts';
import { runAction } from './run.ts';

let api: TestServer;
before(async () => {
  api = await startServer((req, res) => {
    if (req.target.startsWith('/login')) return json(res, 200, { authorization: { token: 'login-token' } });
    json(res, 200, { nested: { orders: [{ id: 1 }] } });
  });
});
after(() => api.close());

async function call(name: string, api_: Record<string, unknown>, config: Record<string, unknown>, job: Record<string, unknown> = {}) {
  const before = api.requests.length;
  const r = await runAction({
    action: 'test_request',
    parameters: {
      __SELECTED_JOB: '0',
      api: { baseUrl: `${api.url}/${name}/`, ...api_ },
      config: { jobs: [{ endpoint: 'orders', dataField: 'nested.orders', ...job }], ...config },
    },
  });
  assert.equal(r.code, 0);
  assert.deepEqual(r.answer().records, [{ id: 1 }], r.stdout);
  return api.requests.slice(before);
}

test('000 bearer: the default Authorization function is dropped, the bearer header set', async () => {
  const [req] = await call(
    '000-bearer',
    { http: { headers: { Authorization: { function: 'concat', args: ['Bearer ', { attr: '#__BEARER_TOKEN' }] } } } },
    { __AUTH_METHOD: 'bearer', '#__BEARER_TOKEN': 'token' },
  );
  assert.equal(req!.target, '/000-bearer/orders');
  assert.equal(req!.headers.authorization, 'Bearer token');
  assert.equal(req!.rawHeaders.filter((h) => h.toLowerCase() === 'authorization').length, 1);
});

test('001/002 api-key in a header and in the query: sent once, with the token', async () => {
  const [header] = await call(
    '001-token-header',
    { http: { headers: { key: { attr: '#__AUTH_TOKEN' } } } },
    { __AUTH_METHOD: 'api-key', '#__AUTH_TOKEN': 'token' },
  );
  assert.equal(header!.headers.key, 'token');
  const [query] = await call(
    '002-token-body',
    { http: { defaultOptions: { params: { key: { attr: '#__AUTH_TOKEN' } } } } },
    { __AUTH_METHOD: 'api-key', '#__AUTH_TOKEN': 'token' },
  );
  assert.equal(query!.target, '/002-token-body/orders?key=token');
});

test('003 basic and 005 query authentication', async () => {
  const [basic] = await call('003-basic', {}, { __AUTH_METHOD: 'basic', username: 'name', '#password': 'pass' });
  assert.equal(basic!.headers.authorization, 'Basic bmFtZTpwYXNz');
  const [query] = await call(
    '005-query',
    { authentication: { type: 'query', query: { name: { attr: 'name' }, pass: { attr: '#pass' } } } },
    { name: 'jmeno', '#pass': 'heslo' },
  );
  assert.equal(query!.target, '/005-query/orders?name=jmeno&pass=heslo');
});

test('006 login with headers: the API header from the login response', async () => {
  const [login, req] = await call(
    '006-login',
    {
      authentication: {
        type: 'login',
        loginRequest: { endpoint: '/login', method: 'GET', headers: { 'X-Login': { attr: '#secret' } } },
        apiRequest: { headers: { 'X-ApiToken': { response: 'authorization.token' } } },
      },
    },
    { '#secret': 'pw' },
  );
  assert.equal(login!.target, '/login');
  assert.equal(login!.headers['x-login'], 'pw');
  assert.equal(req!.headers['x-apitoken'], 'login-token');
});

test('007–009 first-page parameters', async () => {
  const [pagenum] = await call('007', { pagination: { method: 'pagenum', firstPageParams: true, limit: 100 } }, {});
  assert.equal(pagenum!.target, '/007/orders?page=1&limit=100');
  const [offset] = await call('008', { pagination: { method: 'offset', limit: 100 } }, {});
  assert.equal(offset!.target, '/008/orders?offset=0&limit=100');
  const [fromJob] = await call('009', { pagination: { method: 'offset', limit: 100, offsetFromJob: true } }, {}, { params: { limit: 50 } });
  assert.equal(fromJob!.target, '/009/orders?limit=50&offset=0');
});

test('010 a default header from attr is sent as its value (fill), without authentication', async () => {
  const [req] = await call('010', { http: { headers: { Authorization: { attr: '#BEARER_TOKEN' } } } }, { '#BEARER_TOKEN': 'token' });
  assert.equal(req!.headers.authorization, 'token');
});
