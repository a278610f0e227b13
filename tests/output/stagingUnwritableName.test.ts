/**
 * Issue 33 point 4: a mapped table whose name holds "/" (a mapping keyed by an endpoint like
 * `v1/things` used without `dataType`, or a nested `destination`). The reference writes its tables
 * only after the whole extraction (spec 01 §1.4) and crashes there, so the run sends every request
 * the reference sends, then fails with exit 2 and one line naming the path and the fix; nothing is
 * written. (On main it failed with exit 1 right after the first page.)
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { makeDataDir, runIn } from '../helpers/dataDir.ts';
import { outIsEmpty } from '../helpers/dataDir.ts';
import { json, startServer, type TestServer } from '../helpers/httpServer.ts';

let api: TestServer;
before(async () => {
  // Three pages of one record each, then an empty page.
  api = await startServer((req, res) => {
    const page = Number(/page=(\d+)/.exec(req.target)?.[1] ?? 1);
    json(res, 200, page > 3 ? [] : [{ id: page, items: [{ x: page }] }]);
  });
});
after(() => api.close());

function config(mappings: unknown, dataType?: string): unknown {
  return {
    parameters: {
      api: { baseUrl: `${api.url}/`, pagination: { method: 'pagenum' } },
      config: { outputBucket: 'b', jobs: [{ endpoint: 'v1/things', ...(dataType ? { dataType } : {}) }], mappings },
    },
  };
}

const CASES: [string, unknown, string, string?][] = [
  ['a mapping keyed by the endpoint', { 'v1/things': { id: 'id' } }, 'b.v1/things'],
  [
    'a nested destination',
    { 'v1/things': { id: 'id', items: { type: 'table', destination: 'a/b', tableMapping: { x: 'x' } } } },
    'b.v1/things',
  ],
  [
    'a nested destination only (dataType "things")',
    { things: { id: 'id', items: { type: 'table', destination: '../x', tableMapping: { x: 'x' } } } },
    'b.../x',
    'things',
  ],
];

for (const [name, mappings, file, dataType] of CASES) {
  test(`${name}: every page is requested, then exit 2 when the tables are written, nothing in out/`, async () => {
    const before = api.requests.length;
    const r = await runIn(makeDataDir(config(mappings, dataType)));
    assert.equal(api.requests.length - before, 4, 'the three pages and the empty one, as the reference requests them');
    assert.equal(r.code, 2, r.lines.join('\n'));
    const error = r.lines.at(-1) ?? '';
    assert.ok(
      error.includes(
        `logger.ERROR: The output table name "${file}" contains "/", "\\" or a NUL character. Check "outputBucket", "id", the jobs' "dataType" and "mappings". The tables are written after the extraction`,
      ),
      error,
    );
    assert.match(error, /"configPath":"parameters\.config\.mappings"/);
    assert.ok(!error.includes('    at '), 'no stack trace');
    assert.ok(outIsEmpty(r.dir), 'no table and no state');
  });
}

test('the automatic parser sanitises the same endpoint: v1_things, exit 0', async () => {
  const r = await runIn(makeDataDir(config({})));
  assert.equal(r.code, 0, r.lines.join('\n'));
  assert.deepEqual(Object.keys(r.tables()).sort(), [
    'b.v1_things',
    'b.v1_things.manifest',
    'b.v1_things_items',
    'b.v1_things_items.manifest',
  ]);
});
