import { test } from 'node:test';
import assert from 'node:assert/strict';
import { extract, logged } from './helpers.ts';

test('response.param P7: scrollRequest switches endpoint and method, merges params', async () => {
  const o = await extract({
    pagination: {
      method: 'response.param',
      responseParam: 'cursor.next',
      queryParam: 'token',
      scrollRequest: { endpoint: 'scan/continue', method: 'GET', params: { ttl: '5m' } },
    },
    jobs: [{ endpoint: 'scan', method: 'POST', params: { index: 'books' }, dataField: 'hits' }],
    routes: {
      'POST /api/scan {"index":"books"}': { hits: [{ id: 1 }], cursor: { next: 't-1' } },
      'GET /api/scan/continue?ttl=5m&token=t-1': { hits: [{ id: 2 }], cursor: { next: 't-2' } },
      'GET /api/scan/continue?ttl=5m&token=t-2': { hits: [], cursor: { next: false } },
    },
  });
  assert.equal(o.code, 0, o.lines.join('\n'));
  assert.deepEqual(o.requests, [
    'POST /api/scan {"index":"books"}',
    'GET /api/scan/continue?ttl=5m&token=t-1',
    'GET /api/scan/continue?ttl=5m&token=t-2',
  ]);
  assert.deepEqual(logged(o, /No more pages found/), ['INFO: No more pages found, stopping pagination.']);
});

test('response.param with includeParams keeps the job params; the raw value replaces in place; "0" stops', async () => {
  const o = await extract({
    pagination: { method: 'response.param', responseParam: 'next', queryParam: 'page', includeParams: true },
    jobs: [{ endpoint: 'list', params: { page: 1, q: 'x' } }],
    routes: {
      'GET /api/list?page=1&q=x': { items: [{ id: 1 }], next: 2 },
      'GET /api/list?page=2&q=x': { items: [{ id: 2 }], next: '0' },
    },
  });
  assert.equal(o.code, 0, o.lines.join('\n'));
  assert.deepEqual(o.requests, ['GET /api/list?page=1&q=x', 'GET /api/list?page=2&q=x']);
});

test('response.param without includeParams sends only the value (and default params)', async () => {
  const o = await extract({
    pagination: { method: 'response.param', responseParam: 'next', queryParam: 'token' },
    api: { http: { defaultOptions: { params: { key: 'k' } } } },
    jobs: [{ endpoint: 'list', params: { q: 'x' } }],
    routes: {
      'GET /api/list?key=k&q=x': { items: [{ id: 1 }], next: 'a b' },
      'GET /api/list?key=k&token=a+b': { items: [{ id: 2 }] },
    },
  });
  assert.equal(o.code, 0, o.lines.join('\n'));
  assert.deepEqual(o.requests, ['GET /api/list?key=k&q=x', 'GET /api/list?key=k&token=a+b']);
});

test('response.param configuration errors', async () => {
  const cases: [unknown, string, string][] = [
    [
      { method: 'response.param', queryParam: 'q' },
      "Missing required 'pagination.responseParam' parameter.",
      'parameters.api.pagination.responseParam',
    ],
    [
      { method: 'response.param', responseParam: 'n' },
      "Missing required 'pagination.queryParam' parameter.",
      'parameters.api.pagination.queryParam',
    ],
    [
      { method: 'response.param', responseParam: 'n', queryParam: 'q', scrollRequest: 'x' },
      "'pagination.scrollRequest' must be a job-like array.",
      'parameters.api.pagination.scrollRequest',
    ],
  ];
  for (const [pagination, message, path] of cases) {
    const o = await extract({ pagination, jobs: [{ endpoint: 'u' }] });
    assert.equal(o.code, 1, o.lines.join('\n'));
    assert.deepEqual(o.requests, []);
    assert.ok(o.errorLine().includes(`logger.ERROR: ${message} `), o.errorLine());
    assert.ok(o.errorLine().includes(`"configPath":"${path}"`), o.errorLine());
  }
});
