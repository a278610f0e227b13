import { test } from 'node:test';
import assert from 'node:assert/strict';
import { extract, items } from './helpers.ts';

const scrollers = {
  list_scroller: { method: 'offset', limit: '2' },
  search_scroller: { method: 'pagenum' },
};

test('multiple (062): default scroller and a per-job scroller', async () => {
  const o = await extract({
    pagination: { method: 'multiple', scrollers, default: 'list_scroller' },
    jobs: [{ endpoint: 'users' }, { endpoint: 'search', scroller: 'search_scroller' }],
    routes: {
      'GET /api/users?limit=2&offset=0': items(2),
      'GET /api/users?limit=2&offset=2': items(1, 3),
      'GET /api/search?page=1': items(1),
      'GET /api/search?page=2': items(1, 2),
      'GET /api/search?page=3': [],
    },
  });
  assert.equal(o.code, 0, o.lines.join('\n'));
  assert.deepEqual(o.requests, [
    'GET /api/users?limit=2&offset=0',
    'GET /api/users?limit=2&offset=2',
    'GET /api/search?page=1',
    'GET /api/search?page=2',
    'GET /api/search?page=3',
  ]);
});

test('multiple: without `default` jobs are not paginated, even with an entry named "default"', async () => {
  const o = await extract({
    pagination: { method: 'multiple', scrollers: { default: { method: 'pagenum' } } },
    jobs: [{ endpoint: 'users' }],
    routes: { 'GET /api/users': items(2) },
  });
  assert.equal(o.code, 0, o.lines.join('\n'));
  assert.deepEqual(o.requests, ['GET /api/users']);
});

test("multiple: a child selects by its own `scroller` member, not the parent's; entries carry their own stop conditions", async () => {
  const o = await extract({
    pagination: {
      method: 'multiple',
      scrollers: { pages: { method: 'pagenum', forceStop: { pages: 2 } }, offsets: { method: 'offset', limit: 1 } },
    },
    jobs: [
      {
        endpoint: 'users',
        scroller: 'pages',
        children: [{ endpoint: 'users/{id}/posts', scroller: 'offsets', placeholders: { id: 'id' } }],
      },
    ],
    routes: {
      'GET /api/users?page=1': items(1),
      'GET /api/users/1/posts?limit=1&offset=0': [{ p: 1 }],
      'GET /api/users/1/posts?limit=1&offset=1': [],
      'GET /api/users?page=2': items(1, 2),
      'GET /api/users/2/posts?limit=1&offset=0': [],
    },
  });
  assert.equal(o.code, 0, o.lines.join('\n'));
  assert.deepEqual(o.requests, [
    'GET /api/users?page=1',
    'GET /api/users/1/posts?limit=1&offset=0',
    'GET /api/users/1/posts?limit=1&offset=1',
    'GET /api/users?page=2',
    'GET /api/users/2/posts?limit=1&offset=0',
  ]);
});

test('multiple configuration errors', async () => {
  const cases: [unknown, unknown[], string, string][] = [
    [
      { method: 'multiple' },
      [{ endpoint: 'u' }],
      'At least one scroller must be configured for "multiple" scroller.',
      'parameters.api.pagination.scrollers',
    ],
    [
      { method: 'multiple', scrollers: { a: 'x' } },
      [{ endpoint: 'u' }],
      'Scroller configuration for amust be array.',
      'parameters.api.pagination.scrollers.a',
    ],
    [
      { method: 'multiple', scrollers: { a: { method: 'offset' } } },
      [{ endpoint: 'u' }],
      "Missing 'pagination.limit' attribute required for offset pagination",
      'parameters.api.pagination.scrollers.a.limit',
    ],
    [
      { method: 'multiple', scrollers, default: 'nope' },
      [{ endpoint: 'u' }],
      "Default scroller 'nope' does not exist",
      'parameters.api.pagination.default',
    ],
    [
      { method: 'multiple', scrollers },
      [{ endpoint: 'u', scroller: 'x' }],
      "Scroller 'x' not set in API definitions. Scrollers defined: list_scroller, search_scroller",
      'parameters.config.jobs[0].scroller',
    ],
  ];
  for (const [pagination, jobs, message, path] of cases) {
    const o = await extract({ pagination, jobs });
    assert.equal(o.code, 1, o.lines.join('\n'));
    assert.deepEqual(o.requests, []);
    assert.ok(o.errorLine().includes(`logger.ERROR: ${message} `), o.errorLine());
    assert.ok(o.errorLine().includes(`"configPath":"${path}"`), o.errorLine());
  }
});

test('unknown pagination method: message, known methods, config path; a non-string method shown as JSON', async () => {
  const o = await extract({ pagination: { method: 'pages' }, jobs: [{ endpoint: 'u' }] });
  assert.equal(o.code, 1);
  const line = o.errorLine();
  assert.ok(line.includes("logger.ERROR: Unknown pagination method 'pages' "), line);
  assert.ok(line.includes('"configPath":"parameters.api.pagination.method"'), line);
  for (const m of ['offset', 'pagenum', 'response.url', 'response.param', 'cursor', 'multiple', 'zendesk.response.url'])
    assert.ok(line.includes(`"${m}"`), m);

  const numeric = await extract({ pagination: { method: 5 }, jobs: [{ endpoint: 'u' }] });
  assert.ok(numeric.errorLine().includes("Unknown pagination method '5'"), numeric.errorLine());

  const none = await extract({ pagination: { method: '' }, jobs: [{ endpoint: 'u' }], routes: { 'GET /api/u': items(1) } });
  assert.equal(none.code, 0);
  assert.deepEqual(none.requests, ['GET /api/u']);
});
