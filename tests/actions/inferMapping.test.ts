/** infer_mapping (spec 05 §6) against a real local server. */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { json, startServer, type TestServer } from '../helpers/httpServer.ts';
import { lastLine, runAction } from './run.ts';

const bodies: Record<string, unknown> = {
  '/people': [
    { id: 123, name: 'John Doe', contacts: { email: 'j@x' }, array: [1, 2, 3] },
    { id: 234, name: 'Jane Doe', contacts: { email: 'e@x', skype: 's' }, array: [1, 2, 3] },
  ],
  '/deep': [{ a: { b: { c: 1, d: { e: 2 } } } }],
  '/names': [{ $id: 1, 'name|test': 'x', 'array&&invalid': 'y', 'a b': 1, a_b: 2 }],
  '/mixed': [{ x: 1 }, { x: { y: 1 } }],
  '/none': [],
  '/error': null,
};

let api: TestServer;
before(async () => {
  api = await startServer((req, res) => {
    const path = req.target.split('?')[0]!;
    if (path === '/error') return json(res, 500, 'boom');
    if (path.startsWith('/people/')) return json(res, 200, [{ order: 1 }]);
    json(res, 200, bodies[path] ?? {});
  });
});
after(() => api.close());

function infer(jobs: unknown[], extra: Record<string, unknown> = {}, config: Record<string, unknown> = {}, selected = '0') {
  return runAction({
    action: 'infer_mapping',
    parameters: {
      __SELECTED_JOB: selected,
      api: { baseUrl: `${api.url}/`, http: { maxRetries: 0 } },
      config: { jobs, ...config },
      ...extra,
    },
  });
}

test('nesting level 1 and a primary key: the fixture of §6.6, byte for byte', async () => {
  const r = await infer([{ endpoint: 'people' }], { __NESTING_LEVEL: 1, __PRIMARY_KEY: ['id'] });
  assert.equal(r.code, 0);
  assert.equal(
    r.stdout,
    '{"id": {"mapping": {"destination": "id", "primaryKey": true}}, "name": "name", "contacts.email": "contacts_email", "contacts.skype": "contacts_skype", "array": {"type": "column", "mapping": {"destination": "array"}, "forceType": true}}',
  );
  const level0 = (await infer([{ endpoint: 'people' }], { __NESTING_LEVEL: 0 })).answer();
  assert.deepEqual(level0.contacts, { type: 'column', mapping: { destination: 'contacts' }, forceType: true });
});

test('default level 2 flattens two object levels; names normalised and de-duplicated', async () => {
  const deep = (await infer([{ endpoint: 'deep' }])).answer();
  assert.deepEqual(deep, { 'a.b.c': 'a_b_c', 'a.b.d': { type: 'column', mapping: { destination: 'a_b_d' }, forceType: true } });
  const names = (await infer([{ endpoint: 'names' }])).answer();
  assert.deepEqual(names, { $id: 'id', 'name|test': 'name_test', 'array&&invalid': 'array__invalid', 'a b': 'a_b', a_b: 'a_b_1' });
});

test('parent keys for a child job, userData columns for a top-level job', async () => {
  const child = (
    await infer([{ endpoint: 'people', children: [{ endpoint: 'people/{1:id}', placeholders: { '1:id': 'id' } }] }], {}, {}, '0_0')
  ).answer();
  assert.deepEqual(child, { order: 'order', 'parent_1:id': { type: 'user', mapping: { destination: 'parent_1:id', primaryKey: true } } });
  const withUserData = (
    await infer([{ endpoint: 'deep' }], {}, { userData: { source: 'api', when: { function: 'concat', args: ['a', 'b'] } } })
  ).answer();
  assert.deepEqual(withUserData.source, { type: 'user', mapping: { destination: 'source' } });
  assert.deepEqual(withUserData.when, { type: 'user', mapping: { destination: 'when' } });
});

test('failures: no data, HTTP error, incompatible types', async () => {
  assert.equal(
    lastLine(await infer([{ endpoint: 'none' }])),
    'keboola.component.exceptions.UserException: The request returned no data to infer mapping from.\n',
  );
  assert.match(
    lastLine(await infer([{ endpoint: 'error' }])),
    /^keboola\.component\.exceptions\.UserException: Request "GET: error" failed, too many retries\. Status Code: 500/,
  );
  assert.match(
    lastLine(await infer([{ endpoint: 'mixed' }])),
    /JsonParserException: Incompatible types of NodeType\.SCALAR and NodeType\.DICT/,
  );
});

test('a record that is a list is read as its first element', async () => {
  bodies['/lists'] = [[{ id: 1, tags: ['a'] }], [{ id: 2, tags: [] }]];
  const r = (await infer([{ endpoint: 'lists' }])).answer();
  assert.deepEqual(r, { id: 'id', tags: { type: 'column', mapping: { destination: 'tags' }, forceType: true } });
});
