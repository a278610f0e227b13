import { test } from 'node:test';
import assert from 'node:assert/strict';
import { extract, logged, RawJson } from './helpers.ts';

test('cursor P8: reverse, negative increment, numeric strings, stops on an empty page', async () => {
  const o = await extract({
    pagination: { method: 'cursor', idKey: 'meta.seq', param: 'before', reverse: true, increment: -1 },
    jobs: [{ endpoint: 'messages', params: { before: 'now', room: 7 }, dataField: 'items' }],
    routes: {
      'GET /api/messages?before=now&room=7': { items: [{ meta: { seq: 90 } }, { meta: { seq: '85' } }] },
      'GET /api/messages?before=84&room=7': { items: [{ meta: { seq: 84 } }, { meta: { seq: 80 } }] },
      'GET /api/messages?before=79&room=7': { items: [] },
    },
  });
  assert.equal(o.code, 0, o.lines.join('\n'));
  assert.deepEqual(o.requests, [
    'GET /api/messages?before=now&room=7',
    'GET /api/messages?before=84&room=7',
    'GET /api/messages?before=79&room=7',
  ]);
  assert.deepEqual(logged(o, /contains no data|No data in response/), [
    "WARNING: dataField 'items' contains no data!",
    'INFO: No data in response, stopping scrolling.',
  ]);
});

test('cursor defaults: the maximum, no increment, appended parameter; float ids use the integer part', async () => {
  const o = await extract({
    pagination: { method: 'cursor', idKey: 'id', param: 'since' },
    jobs: [{ endpoint: 'ev' }],
    routes: {
      'GET /api/ev': [{ id: 3 }, { id: 7.9 }],
      'GET /api/ev?since=7': [],
    },
  });
  assert.equal(o.code, 0, o.lines.join('\n'));
  assert.deepEqual(o.requests, ['GET /api/ev', 'GET /api/ev?since=7']);
});

test('cursor: ids beyond 2^53 keep their digits', async () => {
  const o = await extract({
    pagination: { method: 'cursor', idKey: 'id', param: 'since', increment: 1 },
    jobs: [{ endpoint: 'ev' }],
    routes: {
      'GET /api/ev': [{ id: 1 }],
      'GET /api/ev?since=2': new RawJson('[{"id":9007199254740993}]'),
      'GET /api/ev?since=9007199254740994': [],
    },
  });
  assert.equal(o.code, 0, o.lines.join('\n'));
  assert.equal(o.requests.at(-1), 'GET /api/ev?since=9007199254740994');
});

test("cursor: an id is read with PHP 7.4's (int): an exponent counts, text beyond int64 saturates", async () => {
  const o = await extract({
    pagination: { method: 'cursor', idKey: 'id', param: 'since' },
    jobs: [{ endpoint: 'ev' }],
    routes: {
      'GET /api/ev': [{ id: '1e3' }],
      'GET /api/ev?since=1000': [{ id: '9223372036854775808' }],
      'GET /api/ev?since=9223372036854775807': [],
    },
  });
  assert.equal(o.code, 0, o.lines.join('\n'));
  assert.deepEqual(o.requests, ['GET /api/ev', 'GET /api/ev?since=1000', 'GET /api/ev?since=9223372036854775807']);
});

test('cursor errors: not numeric, missing idKey / param', async () => {
  const bad = await extract({
    pagination: { method: 'cursor', idKey: 'id', param: 'since' },
    jobs: [{ endpoint: 'ev' }],
    routes: { 'GET /api/ev': [{ name: 'x' }] },
  });
  assert.equal(bad.code, 1);
  assert.ok(bad.errorLine().includes("logger.ERROR: Cursor value 'null' is not numeric. "), bad.errorLine());

  const cases: [unknown, string, string][] = [
    [
      { method: 'cursor', param: 'p' },
      "Missing 'pagination.idKey' attribute required for cursor pagination",
      'parameters.api.pagination.idKey',
    ],
    [
      { method: 'cursor', idKey: 'id' },
      "Missing 'pagination.param' attribute required for cursor pagination",
      'parameters.api.pagination.param',
    ],
  ];
  for (const [pagination, message, path] of cases) {
    const o = await extract({ pagination, jobs: [{ endpoint: 'u' }] });
    assert.equal(o.code, 1, o.lines.join('\n'));
    assert.ok(o.errorLine().includes(`logger.ERROR: ${message} `), o.errorLine());
    assert.ok(o.errorLine().includes(`"configPath":"${path}"`), o.errorLine());
  }
});
