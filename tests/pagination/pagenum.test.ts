import { test } from 'node:test';
import assert from 'node:assert/strict';
import { extract, items, logged } from './helpers.ts';

test('pagenum defaults: page from 1, no limit, stops on an empty page', async () => {
  const o = await extract({
    pagination: { method: 'pagenum' },
    jobs: [{ endpoint: 'users' }],
    routes: { 'GET /api/users?page=1': items(2), 'GET /api/users?page=2': items(1, 3), 'GET /api/users?page=3': [] },
  });
  assert.equal(o.code, 0, o.lines.join('\n'));
  assert.deepEqual(o.requests, ['GET /api/users?page=1', 'GET /api/users?page=2', 'GET /api/users?page=3']);
  assert.deepEqual(logged(o, /Pagination stopped/), ['INFO: Pagination stopped, response is empty.']);
});

test('pagenum with a limit stops on a short page (052 style: set=1&count=2)', async () => {
  const o = await extract({
    pagination: { method: 'pagenum', limit: 2, limitParam: 'count', pageParam: 'set' },
    jobs: [{ endpoint: 'users', dataField: 'items' }],
    routes: {
      'GET /api/users?set=1&count=2': { items: items(2) },
      'GET /api/users?set=2&count=2': { items: items(1, 3) },
    },
  });
  assert.equal(o.code, 0, o.lines.join('\n'));
  assert.deepEqual(o.requests, ['GET /api/users?set=1&count=2', 'GET /api/users?set=2&count=2']);
  assert.deepEqual(logged(o, /Pagination stopped/), ['INFO: Pagination stopped, response is smaller than limit.']);
});

test('pagenum P3: firstPage 0, firstPageParams false, job page size wins', async () => {
  const o = await extract({
    pagination: { method: 'pagenum', limit: 100, limitParam: 'size', pageParam: 'p', firstPage: 0, firstPageParams: false },
    jobs: [{ endpoint: 'items', params: { size: 3, kind: 'x' } }],
    routes: {
      'GET /api/items?size=3&kind=x': items(3),
      'GET /api/items?size=3&kind=x&p=1': items(3, 4),
      'GET /api/items?size=3&kind=x&p=2': items(1, 7),
    },
  });
  assert.equal(o.code, 0, o.lines.join('\n'));
  assert.deepEqual(o.requests, ['GET /api/items?size=3&kind=x', 'GET /api/items?size=3&kind=x&p=1', 'GET /api/items?size=3&kind=x&p=2']);
});

test('pagenum: empty options fall back to defaults; firstPage null is 1; limitParam appended after the page', async () => {
  const o = await extract({
    pagination: { method: 'pagenum', pageParam: '', limitParam: 0, limit: '2', firstPage: null },
    jobs: [{ endpoint: 'x' }],
    routes: { 'GET /api/x?page=1&limit=2': items(1) },
  });
  assert.equal(o.code, 0, o.lines.join('\n'));
  assert.deepEqual(o.requests, ['GET /api/x?page=1&limit=2']);
});
