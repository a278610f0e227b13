import { test } from 'node:test';
import assert from 'node:assert/strict';
import { extract, items, logged, RawJson } from './helpers.ts';

// 69 bytes as pjson, different on every call (so the same-response stop never fires)
let serial = 100;
const john = () => ({
  items: [
    { id: ++serial, name: 'John Doe' },
    { id: 234, name: 'Jane Doe' },
  ],
});
/** A full page of `n` records, different on every call. */
const page = (n: number) => {
  serial += 10;
  return items(n, serial);
};

test('nextPageFlag {hasMore, stopOn false}: continues while truthy, stops when absent', async () => {
  const o = await extract({
    pagination: { method: 'pagenum', nextPageFlag: { field: 'hasMore', stopOn: false } },
    jobs: [{ endpoint: 'u', dataField: 'items' }],
    routes: {
      'GET /api/u?page=1': { items: items(1), hasMore: true },
      'GET /api/u?page=2': { items: items(1, 2), hasMore: 'no' },
      'GET /api/u?page=3': { items: items(1, 3) },
    },
  });
  assert.equal(o.code, 0, o.lines.join('\n'));
  assert.equal(o.requests.length, 3);
  assert.deepEqual(logged(o, /Stopping scrolling/), ["INFO: Stopping scrolling because 'hasMore' is 'false'"]);
});

test('nextPageFlag {isLast, stopOn true, ifNotSet false}: stops on a truthy flag; null counts as not set', async () => {
  const o = await extract({
    pagination: { method: 'pagenum', nextPageFlag: { field: 'isLast', stopOn: true, ifNotSet: false } },
    jobs: [{ endpoint: 'u', dataField: 'items' }],
    routes: {
      'GET /api/u?page=1': { items: items(1) },
      'GET /api/u?page=2': { items: items(1, 2), isLast: null },
      'GET /api/u?page=3': { items: items(1, 3), isLast: 'yes' },
    },
  });
  assert.equal(o.code, 0, o.lines.join('\n'));
  assert.equal(o.requests.length, 3);
  assert.deepEqual(logged(o, /Stopping scrolling/), ["INFO: Stopping scrolling because 'isLast' is 'true'"]);
});

test('nextPageFlag: the flag is a member name (no path walking); ifNotSet defaults to stopOn', async () => {
  const o = await extract({
    pagination: { method: 'pagenum', nextPageFlag: { field: 'meta.more', stopOn: false } },
    jobs: [{ endpoint: 'u', dataField: 'items' }],
    routes: { 'GET /api/u?page=1': { items: items(1), meta: { more: true } } },
  });
  assert.equal(o.code, 0, o.lines.join('\n'));
  assert.equal(o.requests.length, 1);
});

test('nextPageFlag configuration errors', async () => {
  const cases: [unknown, string, string][] = [
    [{ stopOn: true }, "'field' has to be specified for 'nextPageFlag'", 'parameters.api.pagination.nextPageFlag.field'],
    [{ field: 'x' }, "'stopOn' value must be set to a boolean value for 'nextPageFlag'", 'parameters.api.pagination.nextPageFlag.stopOn'],
    [
      { field: 'x', stopOn: 'false' },
      "'stopOn' value must be set to a boolean value for 'nextPageFlag', given 'string' type.",
      'parameters.api.pagination.nextPageFlag.stopOn',
    ],
    [
      { field: 'x', stopOn: 1.5 },
      "'stopOn' value must be set to a boolean value for 'nextPageFlag', given 'double' type.",
      'parameters.api.pagination.nextPageFlag.stopOn',
    ],
    [
      { field: 'x', stopOn: false, ifNotSet: 1 },
      "'ifNotSet' value must be boolean, given 'integer' type.",
      'parameters.api.pagination.nextPageFlag.ifNotSet',
    ],
    [
      { field: 'x', stopOn: false, ifNotSet: [1] },
      "'ifNotSet' value must be boolean, given 'array' type.",
      'parameters.api.pagination.nextPageFlag.ifNotSet',
    ],
  ];
  for (const [flag, message, path] of cases) {
    const o = await extract({ pagination: { method: 'pagenum', nextPageFlag: flag }, jobs: [{ endpoint: 'u' }] });
    assert.equal(o.code, 1, o.lines.join('\n'));
    assert.deepEqual(o.requests, []);
    assert.ok(o.errorLine().includes(`logger.ERROR: ${message} `), o.errorLine());
    assert.ok(o.errorLine().includes(`"configPath":"${path}"`), o.errorLine());
  }
});

test('forceStop pages (048): at most P requests on a never-ending API', async () => {
  const o = await extract({
    pagination: { method: 'offset', limit: 2, forceStop: { pages: 3 } },
    jobs: [{ endpoint: 'u' }],
    fallback: () => page(2),
  });
  assert.equal(o.code, 0, o.lines.join('\n'));
  assert.deepEqual(o.requests, ['GET /api/u?limit=2&offset=0', 'GET /api/u?limit=2&offset=2', 'GET /api/u?limit=2&offset=4']);
  assert.deepEqual(logged(o, /Force stopping/), ['INFO: Force stopping: page limit reached (3 pages).']);
});

test('forceStop volume counts pjson bytes of the decoded response; stops when the total exceeds it', async () => {
  const o = await extract({
    pagination: { method: 'offset', limit: 2, forceStop: { volume: 69 } },
    jobs: [{ endpoint: 'u', dataField: 'items' }],
    // Whitespace in the body does not count: the decoded response is re-encoded.
    fallback: () => new RawJson(JSON.stringify(john(), null, 2)),
  });
  assert.equal(o.code, 0, o.lines.join('\n'));
  assert.equal(o.requests.length, 2);
  assert.deepEqual(logged(o, /Force stopping/), ['INFO: Force stopping: volume limit reached (69 bytes).']);

  const under = await extract({
    pagination: { method: 'offset', limit: 2, forceStop: { volume: 138 } },
    jobs: [{ endpoint: 'u', dataField: 'items' }],
    fallback: john,
  });
  assert.equal(under.requests.length, 3);
});

test('forceStop (048 config): pages 2 and volume 69 together', async () => {
  const o = await extract({
    pagination: { forceStop: { pages: 2, volume: 69 }, method: 'offset', limit: '2' },
    jobs: [{ endpoint: 'users' }],
    fallback: john,
  });
  assert.equal(o.code, 0, o.lines.join('\n'));
  assert.deepEqual(o.requests, ['GET /api/users?limit=2&offset=0', 'GET /api/users?limit=2&offset=2']);
});

test('forceStop time: strtotime-like relative strings and integer seconds against the job start', async () => {
  let clock = 1_700_000_000_000;
  const advance = () => {
    clock += 25 * 60 * 1000; // every request takes 25 minutes
  };
  const o = await extract({
    pagination: { method: 'pagenum', forceStop: { time: '1 hour' } },
    jobs: [{ endpoint: 'u' }],
    nowMs: () => clock,
    onRequest: advance,
    fallback: () => page(1),
  });
  assert.equal(o.code, 0, o.lines.join('\n'));
  // start T; after page 1: T+25m, page 2: T+50m, page 3: T+75m ≥ T+60m → stop.
  assert.equal(o.requests.length, 3);
  assert.deepEqual(logged(o, /Force stopping/), ['INFO: Force stopping: time limit reached (3600 seconds).']);

  const seconds = await extract({
    pagination: { method: 'pagenum', forceStop: { time: 1800 } },
    jobs: [{ endpoint: 'u' }],
    nowMs: () => clock,
    onRequest: advance,
    fallback: () => page(1),
  });
  assert.equal(seconds.requests.length, 2);

  const garbage = await extract({
    pagination: { method: 'pagenum', forceStop: { time: 'soon' } },
    jobs: [{ endpoint: 'u' }],
    fallback: () => page(1),
  });
  assert.equal(garbage.requests.length, 1);
  assert.deepEqual(logged(garbage, /Force stopping/), ['INFO: Force stopping: time limit reached (0 seconds).']);
});

test('forceStop pages must be a JSON integer (internal error, exit 2)', async () => {
  const o = await extract({ pagination: { method: 'pagenum', forceStop: { pages: '2' } }, jobs: [{ endpoint: 'u' }] });
  assert.equal(o.code, 2);
  assert.deepEqual(o.requests, []);
});

test('limitStop field (126): counts records of every page, compares with a response field', async () => {
  const o = await extract({
    pagination: { method: 'offset', limitParam: 'count', offsetParam: 'skip', limit: '2', limitStop: { field: 'scroller.count' } },
    jobs: [{ endpoint: 'users', dataField: 'items' }],
    fallback: () => ({ items: page(2), scroller: { count: '5' } }),
  });
  assert.equal(o.code, 0, o.lines.join('\n'));
  assert.deepEqual(o.requests, ['GET /api/users?count=2&skip=0', 'GET /api/users?count=2&skip=2', 'GET /api/users?count=2&skip=4']);
  assert.deepEqual(logged(o, /Limit reached/), ['INFO: Limit reached, stopping scrolling. Current count: 6, limit: 5']);
});

test('limitStop count; a missing field stops after the first page', async () => {
  const count = await extract({
    pagination: { method: 'pagenum', limitStop: { count: '3' } },
    jobs: [{ endpoint: 'u' }],
    fallback: () => page(2),
  });
  assert.equal(count.requests.length, 2);
  const missing = await extract({
    pagination: { method: 'pagenum', limitStop: { field: 'total' } },
    jobs: [{ endpoint: 'u', dataField: 'items' }],
    fallback: () => ({ items: page(2) }),
  });
  assert.equal(missing.requests.length, 1);
  assert.deepEqual(logged(missing, /Limit reached/), ['INFO: Limit reached, stopping scrolling. Current count: 2, limit: 0']);
});

test('limitStop configuration errors', async () => {
  const cases: [unknown, string][] = [
    [{ field: '' }, "One of 'limitStop.field' or 'limitStop.count' attributes is required."],
    [{ field: 'a', count: 3 }, "Specify only one of 'limitStop.field' or 'limitStop.count'."],
  ];
  for (const [limitStop, message] of cases) {
    const o = await extract({ pagination: { method: 'pagenum', limitStop }, jobs: [{ endpoint: 'u' }] });
    assert.equal(o.code, 1, o.lines.join('\n'));
    assert.ok(o.errorLine().includes(`logger.ERROR: ${message} `), o.errorLine());
    assert.ok(o.errorLine().includes('"configPath":"parameters.api.pagination.limitStop"'), o.errorLine());
  }
});

test('P9: all wrappers; limitStop is consulted first, the others then not at all', async () => {
  const o = await extract({
    pagination: {
      method: 'pagenum',
      limit: 3,
      nextPageFlag: { field: 'has_more', stopOn: false, ifNotSet: true },
      forceStop: { pages: 3 },
      limitStop: { field: 'meta.total' },
    },
    jobs: [{ endpoint: 'events', dataField: 'items' }],
    routes: {
      'GET /api/events?page=1&limit=3': { items: items(3), has_more: true, meta: { total: 7 } },
      'GET /api/events?page=2&limit=3': { items: items(3, 4), meta: { total: 7 } },
      'GET /api/events?page=3&limit=3': { items: items(3, 7), has_more: false, meta: { total: 7 } },
    },
  });
  assert.equal(o.code, 0, o.lines.join('\n'));
  assert.equal(o.requests.length, 3);
  assert.deepEqual(logged(o, /Limit reached|Force stopping|Stopping scrolling|Pagination stopped/), [
    'INFO: Limit reached, stopping scrolling. Current count: 9, limit: 7',
  ]);
});

test('forceStop is consulted before nextPageFlag, which is consulted before the method', async () => {
  const o = await extract({
    pagination: { method: 'pagenum', limit: 5, forceStop: { pages: 1 }, nextPageFlag: { field: 'more', stopOn: false } },
    jobs: [{ endpoint: 'e', dataField: 'items' }],
    routes: { 'GET /api/e?page=1&limit=5': { items: items(1) } },
  });
  assert.deepEqual(logged(o, /Force stopping|Stopping scrolling|Pagination stopped/), [
    'INFO: Force stopping: page limit reached (1 pages).',
  ]);
  const flag = await extract({
    pagination: { method: 'pagenum', limit: 5, nextPageFlag: { field: 'more', stopOn: false } },
    jobs: [{ endpoint: 'e', dataField: 'items' }],
    routes: { 'GET /api/e?page=1&limit=5': { items: items(1) } },
  });
  assert.deepEqual(logged(flag, /Force stopping|Stopping scrolling|Pagination stopped/), [
    "INFO: Stopping scrolling because 'more' is 'false'",
  ]);
});

test('stop conditions on a "multiple" configuration apply to every job (each job counts its own pages, 116)', async () => {
  const o = await extract({
    pagination: { method: 'multiple', scrollers: { o: { method: 'offset', limit: 2 } }, default: 'o', forceStop: { pages: 2 } },
    jobs: [{ endpoint: 'users' }, { endpoint: 'accounts' }],
    fallback: () => page(2),
  });
  assert.equal(o.code, 0, o.lines.join('\n'));
  assert.deepEqual(o.requests, [
    'GET /api/users?limit=2&offset=0',
    'GET /api/users?limit=2&offset=2',
    'GET /api/accounts?limit=2&offset=0',
    'GET /api/accounts?limit=2&offset=2',
  ]);
});
