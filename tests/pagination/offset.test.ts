import { test } from 'node:test';
import assert from 'node:assert/strict';
import { extract, items, logged } from './helpers.ts';

test('offset: defaults limit/offset, stops on a short page, job params first', async () => {
  const o = await extract({
    pagination: { method: 'offset', limit: 2 },
    jobs: [{ endpoint: 'users', params: { type: 'a' } }],
    routes: {
      'GET /api/users?type=a&limit=2&offset=0': items(2, 1),
      'GET /api/users?type=a&limit=2&offset=2': items(2, 3),
      'GET /api/users?type=a&limit=2&offset=4': items(1, 5),
    },
  });
  assert.equal(o.code, 0, o.lines.join('\n'));
  assert.deepEqual(o.requests, [
    'GET /api/users?type=a&limit=2&offset=0',
    'GET /api/users?type=a&limit=2&offset=2',
    'GET /api/users?type=a&limit=2&offset=4',
  ]);
  assert.equal(o.table('users'), '"id"\n"1"\n"2"\n"3"\n"4"\n"5"\n');
  assert.deepEqual(logged(o, /Offset limit reached/), ['INFO: Offset limit reached, stopping scrolling.']);
});

test('offset: limit 1 ends with an empty page; "2.9" uses the integer part; renamed params', async () => {
  const one = await extract({
    pagination: { method: 'offset', limit: '1' },
    jobs: [{ endpoint: 'u', dataField: 'items' }],
    routes: {
      'GET /api/u?limit=1&offset=0': { items: items(1) },
      'GET /api/u?limit=1&offset=1': { items: [] },
    },
  });
  assert.equal(one.code, 0, one.lines.join('\n'));
  assert.equal(one.requests.length, 2);
  assert.deepEqual(logged(one, /contains no data/), ["WARNING: dataField 'items' contains no data!"]);

  const renamed = await extract({
    pagination: { method: 'offset', limit: '2.9', limitParam: 'count', offsetParam: 'skip' },
    jobs: [{ endpoint: 'u' }],
    routes: { 'GET /api/u?count=2&skip=0': items(2), 'GET /api/u?count=2&skip=2': [] },
  });
  assert.equal(renamed.code, 0, renamed.lines.join('\n'));
  assert.deepEqual(renamed.requests, ['GET /api/u?count=2&skip=0', 'GET /api/u?count=2&skip=2']);
});

test("offset: the job's own non-empty limit value is the page size; defaults do not count", async () => {
  const o = await extract({
    pagination: { method: 'offset', limit: 2 },
    api: { http: { defaultOptions: { params: { limit: 50, key: 'k' } } } },
    jobs: [{ endpoint: 'u', params: { limit: '3' } }],
    routes: {
      'GET /api/u?limit=3&key=k&offset=0': items(3),
      'GET /api/u?limit=3&key=k&offset=3': items(2),
    },
  });
  assert.equal(o.code, 0, o.lines.join('\n'));
  assert.deepEqual(o.requests, ['GET /api/u?limit=3&key=k&offset=0', 'GET /api/u?limit=3&key=k&offset=3']);
});

test('offset P2: offsetFromJob and firstPageParams false', async () => {
  const o = await extract({
    pagination: { method: 'offset', limit: '50', offsetFromJob: true, firstPageParams: false },
    jobs: [{ endpoint: 'logs', params: { offset: 100, limit: 2, level: 'warn' } }],
    routes: {
      'GET /api/logs?offset=100&limit=2&level=warn': items(2),
      'GET /api/logs?offset=102&limit=2&level=warn': items(1),
    },
  });
  assert.equal(o.code, 0, o.lines.join('\n'));
  assert.deepEqual(o.requests, ['GET /api/logs?offset=100&limit=2&level=warn', 'GET /api/logs?offset=102&limit=2&level=warn']);
});

test('offset without offsetFromJob: the job offset is replaced by the pointer; firstPageParams false sends it as configured', async () => {
  const o = await extract({
    pagination: { method: 'offset', limit: 2, firstPageParams: false },
    jobs: [{ endpoint: 'logs', params: { offset: 100 } }],
    routes: {
      'GET /api/logs?offset=100': items(2),
      'GET /api/logs?offset=2&limit=2': items(0),
    },
  });
  assert.equal(o.code, 0, o.lines.join('\n'));
  assert.deepEqual(o.requests, ['GET /api/logs?offset=100', 'GET /api/logs?offset=2&limit=2']);
});

test('offset: firstPageParams is read with truthiness ("false" is true, 0 is false)', async () => {
  const t = await extract({
    pagination: { method: 'offset', limit: 5, firstPageParams: 'false' },
    jobs: [{ endpoint: 'u' }],
    routes: { 'GET /api/u?limit=5&offset=0': items(1) },
  });
  assert.deepEqual(t.requests, ['GET /api/u?limit=5&offset=0']);
  const f = await extract({
    pagination: { method: 'offset', limit: 5, firstPageParams: 0 },
    jobs: [{ endpoint: 'u' }],
    routes: { 'GET /api/u': items(1) },
  });
  assert.deepEqual(f.requests, ['GET /api/u']);
});

test('offset J3: POST and FORM carry the paging parameters in the body', async () => {
  const o = await extract({
    pagination: { method: 'offset', limit: 2 },
    jobs: [
      { endpoint: 'export', method: 'POST', params: { filter: { status: 'open', tags: [] }, path: 'a/b', name: 'Zoë' } },
      { endpoint: 'export', method: 'FORM', params: { status: 'open', ids: [1, 2] } },
    ],
    routes: {
      'POST /api/export {"filter":{"status":"open","tags":[]},"path":"a\\/b","name":"Zo\\u00eb","limit":2,"offset":0}': items(2),
      'POST /api/export {"filter":{"status":"open","tags":[]},"path":"a\\/b","name":"Zo\\u00eb","limit":2,"offset":2}': [],
      'POST /api/export status=open&ids%5B0%5D=1&ids%5B1%5D=2&limit=2&offset=0': items(1),
    },
  });
  assert.equal(o.code, 0, o.lines.join('\n'));
  assert.equal(o.requests.length, 3);
});

test('offset configuration errors: exit 1, exact message, config path', async () => {
  const cases: [unknown, string, string][] = [
    [{ method: 'offset' }, "Missing 'pagination.limit' attribute required for offset pagination", 'parameters.api.pagination.limit'],
    [
      { method: 'offset', limit: '0' },
      "Missing 'pagination.limit' attribute required for offset pagination",
      'parameters.api.pagination.limit',
    ],
    [{ method: 'offset', limit: 'abc' }, `Parameter 'pagination.limit' is not numeric. Value '"abc"'.`, 'parameters.api.pagination.limit'],
    [{ method: 'offset', limit: true }, "Parameter 'pagination.limit' is not numeric. Value 'true'.", 'parameters.api.pagination.limit'],
    [{ method: 'offset', limit: '2 ' }, `Parameter 'pagination.limit' is not numeric. Value '"2 "'.`, 'parameters.api.pagination.limit'],
  ];
  for (const [pagination, message, path] of cases) {
    const o = await extract({ pagination, jobs: [{ endpoint: 'u' }] });
    assert.equal(o.code, 1, o.lines.join('\n'));
    assert.deepEqual(o.requests, []);
    const line = o.errorLine();
    assert.ok(line.includes(`logger.ERROR: ${message} `), line);
    assert.ok(line.includes(`"configPath":"${path}"`), line);
  }
});
