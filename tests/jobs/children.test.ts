import { test } from 'node:test';
import assert from 'node:assert/strict';
import { extract as extractAt, items, logged, type Outcome, type Scenario } from '../pagination/helpers.ts';

const normalise = (lines: string[]): string[] =>
  lines.map((l) =>
    l
      .replace(/127\.0\.0\.1:\d+/g, 'HOST')
      .replace(/ge-test-\w+/g, 'DIR')
      // Response times and the run's duration differ from run to run.
      .replace(/ in [\d,]+ ms\b/g, ' in N ms')
      .replace(/, [\d.]+ s\.$/, ', N s.'),
  );

/**
 * Every scenario runs twice: at concurrency 1, whose outcome the tests check (requests in the
 * sequential order of spec 03 §7), and at concurrency 8, which must produce the same exit code,
 * tables, state and log lines (debug request lines included), and the same requests in some order.
 */
async function extract(s: Scenario): Promise<Outcome> {
  const at = (concurrency: number): Scenario => ({ ...s, api: { ...(s.api ?? {}), http: { concurrency } } });
  const seq = await extractAt(at(1));
  const par = await extractAt(at(8));
  assert.equal(par.code, seq.code, par.lines.join('\n'));
  assert.deepEqual(par.tables(), seq.tables());
  assert.equal(par.state()?.replace(/"previousStart":\d+/, ''), seq.state()?.replace(/"previousStart":\d+/, ''));
  assert.deepEqual(normalise(par.messages), normalise(seq.messages));
  assert.deepEqual([...par.requests].sort(), [...seq.requests].sort());
  return seq;
}

test('§4.9 worked example: order, arrays, filter, inheritance, parent columns', async () => {
  const o = await extract({
    jobs: [
      {
        endpoint: 'teams',
        children: [
          {
            endpoint: 'teams/{t}/members',
            dataType: 'members',
            placeholders: { t: 'id' },
            recursionFilter: 'active==1',
            children: [
              { endpoint: 'teams/{t}/members/{m}/roles/{r}', dataType: 'roles', dataField: '.', placeholders: { m: 'login', r: 'roles' } },
            ],
          },
          { endpoint: 'teams/{t}/stats', dataType: 'stats', dataField: '.', placeholders: { t: 'id' } },
        ],
      },
    ],
    routes: {
      'GET /api/teams': [
        { id: 1, active: true },
        { id: 2, active: false },
        { id: 3, active: true },
      ],
      'GET /api/teams/1/members': [
        { login: 'ann', roles: ['admin', 'dev'] },
        { login: 'bob', roles: [] },
      ],
      'GET /api/teams/3/members': [{ login: 'cid', roles: 'ops' }],
    },
    fallback: (req) => ({ at: req.target }),
  });
  assert.equal(o.code, 0, o.lines.join('\n'));
  assert.deepEqual(o.requests, [
    'GET /api/teams',
    'GET /api/teams/1/members',
    'GET /api/teams/1/members/ann/roles/admin',
    'GET /api/teams/1/members/ann/roles/dev',
    'GET /api/teams/3/members',
    'GET /api/teams/3/members/cid/roles/ops',
    'GET /api/teams/1/stats',
    'GET /api/teams/2/stats',
    'GET /api/teams/3/stats',
  ]);
  assert.equal(
    o.table('roles'),
    '"at","parent_id","parent_login","parent_roles"\n' +
      '"/api/teams/1/members/ann/roles/admin","1","ann","admin"\n' +
      '"/api/teams/1/members/ann/roles/dev","1","ann","dev"\n' +
      '"/api/teams/3/members/cid/roles/ops","3","cid","ops"\n',
  );
  assert.equal(o.table('stats'), '"at","parent_id"\n"/api/teams/1/stats","1"\n"/api/teams/2/stats","2"\n"/api/teams/3/stats","3"\n');
});

test('P1: each child instance gets a reset copy of the scroller; the parent pointer continues', async () => {
  const o = await extract({
    pagination: { method: 'offset', limit: 2, limitParam: 'count', offsetParam: 'skip' },
    jobs: [
      { endpoint: 'users', params: { type: 'a' }, children: [{ endpoint: 'user/{uid}', dataField: '.', placeholders: { uid: 'id' } }] },
    ],
    routes: {
      'GET /api/users?type=a&count=2&skip=0': items(2, 1),
      'GET /api/users?type=a&count=2&skip=2': items(1, 3),
    },
    fallback: (req) => (req.target.startsWith('/api/user/') ? { id: Number(/user\/(\d+)/.exec(req.target)![1]) } : undefined),
  });
  assert.equal(o.code, 0, o.lines.join('\n'));
  assert.deepEqual(o.requests, [
    'GET /api/users?type=a&count=2&skip=0',
    'GET /api/user/1?count=2&skip=0',
    'GET /api/user/2?count=2&skip=0',
    'GET /api/users?type=a&count=2&skip=2',
    'GET /api/user/3?count=2&skip=0',
  ]);
});

test('§5.5 quirk: binding combinations of one record share a scroller left over by a wrapper stop', async () => {
  const o = await extract({
    pagination: { method: 'offset', limit: 2, nextPageFlag: { field: 'more', stopOn: false } },
    jobs: [{ endpoint: 'users', children: [{ endpoint: 'g/{gid}', dataField: 'items', placeholders: { gid: 'groups' } }] }],
    routes: {
      'GET /api/users?limit=2&offset=0': {
        items: [
          { id: 1, groups: ['a', 'b'] },
          { id: 2, groups: ['c'] },
        ],
      },
      'GET /api/g/a?limit=2&offset=0': { items: items(2), more: true },
      'GET /api/g/a?limit=2&offset=2': { items: items(2, 3), more: false },
      'GET /api/g/b?limit=2&offset=2': { items: items(1, 5), more: false },
      'GET /api/g/c?limit=2&offset=0': { items: items(1, 6), more: false },
    },
  });
  assert.equal(o.code, 0, o.lines.join('\n'));
  assert.deepEqual(o.requests, [
    'GET /api/users?limit=2&offset=0',
    'GET /api/g/a?limit=2&offset=0',
    'GET /api/g/a?limit=2&offset=2',
    'GET /api/g/b?limit=2&offset=2', // leftover pointer
    'GET /api/g/c?limit=2&offset=0', // next record: fresh copy
  ]);
});

test('§5.5 rule 3: a same-response stop resets the shared scroller completely', async () => {
  const same = { items: items(2), more: true };
  const o = await extract({
    pagination: { method: 'offset', limit: 2, nextPageFlag: { field: 'more', stopOn: false } },
    jobs: [{ endpoint: 'users', children: [{ endpoint: 'g/{gid}', dataField: 'items', placeholders: { gid: 'groups' } }] }],
    routes: {
      'GET /api/users?limit=2&offset=0': { items: [{ id: 1, groups: ['a', 'b'] }] },
      'GET /api/g/a?limit=2&offset=0': same,
      'GET /api/g/a?limit=2&offset=2': same,
      'GET /api/g/b?limit=2&offset=0': { items: items(1, 5), more: false },
    },
  });
  assert.equal(o.code, 0, o.lines.join('\n'));
  assert.deepEqual(o.requests.slice(1), [
    'GET /api/g/a?limit=2&offset=0',
    'GET /api/g/a?limit=2&offset=2',
    'GET /api/g/b?limit=2&offset=0',
  ]);
});

test('§5.5: the method resets itself when it stops, so the next combination starts fresh', async () => {
  const o = await extract({
    pagination: { method: 'pagenum', limit: 2 },
    jobs: [{ endpoint: 'users', children: [{ endpoint: 'g/{gid}', placeholders: { gid: 'groups' } }] }],
    routes: {
      'GET /api/users?page=1&limit=2': [{ id: 1, groups: ['a', 'b'] }],
      'GET /api/g/a?page=1&limit=2': items(2),
      'GET /api/g/a?page=2&limit=2': items(1),
      'GET /api/g/b?page=1&limit=2': items(1),
    },
  });
  assert.equal(o.code, 0, o.lines.join('\n'));
  assert.deepEqual(o.requests.slice(1), ['GET /api/g/a?page=1&limit=2', 'GET /api/g/a?page=2&limit=2', 'GET /api/g/b?page=1&limit=2']);
});

test('§5.5: forceStop page counter restarts per instance, its volume total carries over between combinations', async () => {
  const o = await extract({
    pagination: { method: 'pagenum', forceStop: { volume: 40 } },
    jobs: [{ endpoint: 'users', children: [{ endpoint: 'g/{gid}', placeholders: { gid: 'groups' } }] }],
    routes: {
      'GET /api/users?page=1': [{ id: 1, groups: ['a', 'b'] }],
      'GET /api/users?page=2': [],
    },
    // 29 bytes per child page ([{"at":"\/api\/g\/a?page=1"}]): 1st page 29 ≤ 40, 2nd page 58 > 40.
    fallback: (req) => (req.target.startsWith('/api/g/') ? [{ at: req.target }] : undefined),
  });
  assert.equal(o.code, 0, o.lines.join('\n'));
  // g/b starts from the leftover page 2 (a wrapper stop does not reset pagenum) and stops at
  // once: the volume total is not re-initialised at the instance's first request.
  assert.deepEqual(o.requests, [
    'GET /api/users?page=1',
    'GET /api/g/a?page=1',
    'GET /api/g/a?page=2',
    'GET /api/g/b?page=2',
    'GET /api/users?page=2',
  ]);
});

test('a child of a top-level job without placeholders never runs; a deeper one inherits (027)', async () => {
  const top = await extract({
    jobs: [{ endpoint: 'users', children: [{ endpoint: 'all-orders' }] }],
    routes: { 'GET /api/users': items(2) },
  });
  assert.equal(top.code, 0, top.lines.join('\n'));
  assert.deepEqual(top.requests, ['GET /api/users']);
  // Once per parent record; the repeat is collapsed into a count at the end of the run.
  assert.deepEqual(logged(top, /No 'placeholders'/), [
    "WARNING: No 'placeholders' set for 'all-orders'",
    "WARNING: No 'placeholders' set for 'all-orders' … repeated once",
  ]);

  const deep = await extract({
    jobs: [
      {
        endpoint: 'users',
        children: [
          {
            endpoint: 'user/{u}',
            dataField: '.',
            placeholders: { u: 'userId' },
            children: [{ endpoint: 'user/{u}/orders', dataType: 'orders' }],
          },
        ],
      },
    ],
    routes: {
      'GET /api/users': [{ userId: 7 }],
      'GET /api/user/7': { userId: 7, name: 'x' },
      'GET /api/user/7/orders': [{ orderId: 1 }],
    },
  });
  assert.equal(deep.code, 0, deep.lines.join('\n'));
  assert.deepEqual(deep.requests, ['GET /api/users', 'GET /api/user/7', 'GET /api/user/7/orders']);
  assert.equal(deep.table('orders'), '"orderId","parent_userId"\n"1","7"\n');
});

test('placeholders: levels, cartesian product (last fastest), empty array, unmatched braces, sequential substitution', async () => {
  const o = await extract({
    jobs: [
      {
        endpoint: 'a',
        children: [
          {
            endpoint: 'a/{x}',
            dataField: '.',
            dataType: 'b',
            placeholders: { x: 'id' },
            children: [
              { endpoint: 'c/{2:id}/{p}/{q}/{zz}', dataType: 'c', dataField: '.', placeholders: { '2:id': 'id', p: 'ps', q: 'qs' } },
            ],
          },
        ],
      },
    ],
    routes: {
      'GET /api/a': [{ id: '{p}' }, { id: 9 }],
      'GET /api/a/{p}': 'unused',
      'GET /api/a/%7Bp%7D': { ps: [1, 2], qs: ['x', 'y'] },
      'GET /api/a/9': { ps: [], qs: ['z'] },
    },
    fallback: (req) => ({ at: req.target }),
  });
  assert.equal(o.code, 0, o.lines.join('\n'));
  assert.deepEqual(o.requests, [
    'GET /api/a',
    'GET /api/a/%7Bp%7D',
    // {2:id} = "{p}" is substituted first, then {p} replaces it too.
    'GET /api/c/1/1/x/%7Bzz%7D',
    'GET /api/c/1/1/y/%7Bzz%7D',
    'GET /api/c/2/2/x/%7Bzz%7D',
    'GET /api/c/2/2/y/%7Bzz%7D',
    'GET /api/a/9',
  ]);
});

test('parent columns: path-named, later binding wins and keeps the first position (§4.7)', async () => {
  const o = await extract({
    jobs: [
      {
        endpoint: 'acct',
        children: [
          {
            endpoint: 'proj/{a}',
            dataField: '.',
            dataType: 'proj',
            placeholders: { a: 'id' },
            children: [
              {
                endpoint: 'task/{p}',
                dataField: '.',
                dataType: 'task',
                placeholders: { p: 'id' },
                children: [
                  {
                    endpoint: 'x/{3:acct}/{2:proj}/{1:task}',
                    dataField: '.',
                    dataType: 'leaf',
                    placeholders: { '3:acct': 'id', '2:proj': 'id', '1:task': 'id' },
                  },
                ],
              },
            ],
          },
        ],
      },
    ],
    routes: {
      'GET /api/acct': [{ id: 'A' }],
      'GET /api/proj/A': { id: 'P' },
      'GET /api/task/P': { id: 'T' },
      'GET /api/x/A/P/T': { v: 1 },
    },
  });
  assert.equal(o.code, 0, o.lines.join('\n'));
  assert.equal(o.table('leaf'), '"v","parent_id"\n"1","T"\n');
});

test('a function placeholder (086): {"path": "id", "placeholder": "value"}', async () => {
  const o = await extract({
    jobs: [
      {
        endpoint: 'users',
        children: [
          { endpoint: 'user/{user-id}', dataField: '.', dataType: 'd', placeholders: { 'user-id': { path: 'id', placeholder: 'value' } } },
        ],
      },
    ],
    routes: { 'GET /api/users': [{ id: 3 }], 'GET /api/user/3': { ok: true } },
  });
  assert.equal(o.code, 0, o.lines.join('\n'));
  assert.deepEqual(o.requests, ['GET /api/users', 'GET /api/user/3']);
  assert.equal(o.table('d'), '"ok","parent_id"\n"1","3"\n');
});

test('duplicate children run once; a later job with the same id replaces the earlier one in place', async () => {
  const o = await extract({
    jobs: [
      {
        endpoint: 'users',
        children: [
          { endpoint: 'one/{i}', dataField: '.', placeholders: { i: 'id' } },
          { endpoint: 'two/{i}', id: 'same', dataField: '.', placeholders: { i: 'id' } },
          { endpoint: 'one/{i}', dataField: '.', placeholders: { i: 'id' } },
          { endpoint: 'three/{i}', id: 'same', dataField: '.', placeholders: { i: 'id' } },
        ],
      },
    ],
    routes: { 'GET /api/users': [{ id: 1 }] },
    fallback: () => ({ ok: 1 }),
  });
  assert.equal(o.code, 0, o.lines.join('\n'));
  assert.deepEqual(o.requests, ['GET /api/users', 'GET /api/one/1', 'GET /api/three/1']);
});

test('children configuration errors: exact message and config path', async () => {
  const cases: [unknown, string, string][] = [
    [
      { endpoint: 'u/{x}', recursionFilter: 'id', placeholders: { x: 'id' } },
      "Error creating a filter from id: Operator couldn't be determined. Please use one of [==, !=, >=, <=, >, <, ~~, !~, >, <]",
      'parameters.config.jobs[0].children[0].recursionFilter',
    ],
    [
      { endpoint: 'u/{x}', placeholders: { '3:x': 'id' } },
      'Level 3 not found in parent results! Maximum level: 1',
      'parameters.config.jobs[0].children[0].placeholders.3:x',
    ],
    [
      { endpoint: 'u/{x}', placeholders: { x: 'nope' } },
      'No value found for x in parent result. (level: 1)',
      'parameters.config.jobs[0].children[0].placeholders.x',
    ],
    [
      { endpoint: 'u/{x}', placeholders: { x: { function: 'md5' } } },
      "The path for placeholder 'x' must be a string value or an object containing 'path' and 'function'.",
      'parameters.config.jobs[0].children[0].placeholders.x',
    ],
  ];
  for (const [child, message, path] of cases) {
    const o = await extract({ jobs: [{ endpoint: 'users', children: [child] }], routes: { 'GET /api/users': [{ id: 1 }] } });
    assert.equal(o.code, 1, o.lines.join('\n'));
    assert.deepEqual(o.requests, ['GET /api/users']);
    assert.ok(o.errorLine().includes(`logger.ERROR: ${message} `), o.errorLine());
    assert.ok(o.errorLine().includes(`"configPath":"${path}"`), o.errorLine());
  }
});

test('an invalid filter fails right after the first page even when the page has no records', async () => {
  const o = await extract({
    jobs: [{ endpoint: 'users', children: [{ endpoint: 'u/{x}', recursionFilter: 'b==1&&c==1', placeholders: { x: 'id' } }] }],
    routes: { 'GET /api/users': [] },
  });
  assert.equal(o.code, 1);
  assert.ok(o.errorLine().includes("Error creating a filter from : Operator couldn't be determined."), o.errorLine());
});

test('child filters (029-031): numeric and text comparison, like / not like, & before |', async () => {
  const o = await extract({
    jobs: [
      {
        endpoint: 'users',
        children: [{ endpoint: 'u/{x}', dataField: '.', placeholders: { x: 'id' }, recursionFilter: 'id>2&name!~%x%|id<2' }],
      },
    ],
    routes: {
      'GET /api/users': [
        { id: 1, name: 'a' },
        { id: 10, name: 'b' },
        { id: 3, name: 'xx' },
        { id: 2, name: 'c' },
      ],
    },
    fallback: () => ({ ok: 1 }),
  });
  assert.equal(o.code, 0, o.lines.join('\n'));
  assert.deepEqual(o.requests, ['GET /api/users', 'GET /api/u/1', 'GET /api/u/10']);
});
