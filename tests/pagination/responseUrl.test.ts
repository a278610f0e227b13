import { test } from 'node:test';
import assert from 'node:assert/strict';
import { extract, logged } from './helpers.ts';

test('response.url P4: nested urlKey, relative and absolute links, job params dropped', async () => {
  const o = await extract({
    pagination: { method: 'response.url', urlKey: 'paging.next' },
    jobs: [{ endpoint: 'orders', params: { status: 'paid' }, dataField: 'data' }],
    routes: {
      'GET /api/orders?status=paid': { data: [{ id: 1 }], paging: { next: 'orders?after=X1&status=paid' } },
      'GET /api/orders?after=X1&status=paid': (_r: unknown, base: string) => ({
        data: [{ id: 2 }],
        paging: { next: `${base}/api/orders?after=X2` },
      }),
      'GET /api/orders?after=X2': { data: [{ id: 3 }], paging: { next: '' } },
    },
  });
  assert.equal(o.code, 0, o.lines.join('\n'));
  assert.deepEqual(o.requests, ['GET /api/orders?status=paid', 'GET /api/orders?after=X1&status=paid', 'GET /api/orders?after=X2']);
  assert.equal(o.table('orders'), '"id"\n"1"\n"2"\n"3"\n');
  assert.deepEqual(logged(o, /No more pages/), ['INFO: No more pages, stopping pagination.']);
});

test('response.url default urlKey is next_page; a verbatim link keeps its query bytes', async () => {
  const o = await extract({
    pagination: { method: 'response.url' },
    jobs: [{ endpoint: 'a' }],
    routes: {
      'GET /api/a': { items: [{ id: 1 }], next_page: 'a?x=%7E&y=a+b' },
      'GET /api/a?x=%7E&y=a+b': { items: [{ id: 2 }], next_page: null },
    },
  });
  assert.equal(o.code, 0, o.lines.join('\n'));
  assert.deepEqual(o.requests, ['GET /api/a', 'GET /api/a?x=%7E&y=a+b']);
});

test('response.url P5: includeParams, job params override the link, absolute path link', async () => {
  const o = await extract({
    pagination: { method: 'response.url', urlKey: 'next', includeParams: true },
    jobs: [{ endpoint: 'orders', params: { status: 'paid', after: 'START' } }],
    routes: {
      'GET /api/orders?status=paid&after=START': { items: [{ id: 1 }], next: '/api/orders?after=X1&per=2' },
      'GET /api/orders?after=START&per=2&status=paid': { items: [{ id: 2 }] },
    },
  });
  assert.equal(o.code, 0, o.lines.join('\n'));
  assert.deepEqual(o.requests, ['GET /api/orders?status=paid&after=START', 'GET /api/orders?after=START&per=2&status=paid']);
});

test('response.url P6: paramIsQuery with default params', async () => {
  const o = await extract({
    pagination: { method: 'response.url', urlKey: 'next', paramIsQuery: true, includeParams: true },
    api: { http: { defaultOptions: { params: { apikey: 'k1' } } } },
    jobs: [{ endpoint: 'feed', params: { per: 50, cursor: 'first' }, dataField: 'data' }],
    routes: {
      'GET /api/feed?apikey=k1&per=50&cursor=first': { data: [{ id: 1 }], next: '?cursor=c2&mode=a+b' },
      'GET /api/feed?apikey=k1&per=50&cursor=c2&mode=a+b': { data: [{ id: 2 }], next: null },
    },
  });
  assert.equal(o.code, 0, o.lines.join('\n'));
  assert.deepEqual(o.requests, ['GET /api/feed?apikey=k1&per=50&cursor=first', 'GET /api/feed?apikey=k1&per=50&cursor=c2&mode=a+b']);
});

test('response.url: custom delimiter; a POST job sends its next pages as POST', async () => {
  const o = await extract({
    pagination: { method: 'response.url', urlKey: 'links|next', delimiter: '|', paramIsQuery: true },
    jobs: [{ endpoint: 'search', method: 'POST', params: { q: 'x' }, dataField: 'hits' }],
    routes: {
      'POST /api/search {"q":"x"}': { hits: [{ id: 1 }], links: { next: 'page=2&flag' } },
      'POST /api/search {"page":"2","flag":null}': { hits: [{ id: 2 }], links: {} },
    },
  });
  assert.equal(o.code, 0, o.lines.join('\n'));
  assert.equal(o.requests.length, 2);
});

test('response.url: a misspelt key ends after the first page; a non-string link is a user error', async () => {
  const misspelt = await extract({
    pagination: { method: 'response.url', urlKey: 'nxt' },
    jobs: [{ endpoint: 'a' }],
    routes: { 'GET /api/a': { items: [{ id: 1 }], next_page: 'a?p=2' } },
  });
  assert.equal(misspelt.code, 0);
  assert.equal(misspelt.requests.length, 1);

  const bad = await extract({
    pagination: { method: 'response.url' },
    jobs: [{ endpoint: 'a' }],
    routes: { 'GET /api/a': { items: [{ id: 1 }], next_page: 5 } },
  });
  assert.equal(bad.code, 1);
  assert.ok(bad.errorLine().includes('logger.ERROR: The "endpoint" property must be specified in request as a string.'), bad.errorLine());
});

test('zendesk.response.url: follows old start_time links, stops at a recent one', async () => {
  const now = 1_700_000_000_000;
  const old = now / 1000 - 3600;
  const recent = now / 1000 - 60;
  const o = await extract({
    pagination: { method: 'zendesk.response.url' },
    nowMs: () => now,
    jobs: [{ endpoint: 'tickets', dataField: 'tickets' }],
    routes: {
      'GET /api/tickets': { tickets: [{ id: 1 }], next_page: `tickets?start_time=${old}` },
      [`GET /api/tickets?start_time=${old}`]: { tickets: [{ id: 2 }], next_page: `tickets?start_time=${recent}` },
    },
  });
  assert.equal(o.code, 0, o.lines.join('\n'));
  assert.deepEqual(o.requests, ['GET /api/tickets', `GET /api/tickets?start_time=${old}`]);
  assert.deepEqual(logged(o, /too recent/), ['INFO: Next page start_time "2023-11-14 22:12:20" is too recent, skipping...']);
});

test('zendesk.response.url: no link → "No more pages to scroll."', async () => {
  const o = await extract({
    pagination: { method: 'zendesk.response.url', urlKey: 'meta.next' },
    jobs: [{ endpoint: 't', dataField: 'tickets' }],
    routes: { 'GET /api/t': { tickets: [{ id: 1 }], meta: { next: null } } },
  });
  assert.equal(o.code, 0, o.lines.join('\n'));
  assert.deepEqual(logged(o, /No more pages/), ['INFO: No more pages to scroll.']);
});
