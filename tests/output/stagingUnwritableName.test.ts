/**
 * Table names that cannot be files in out/tables. A name the configuration gives (a mapping keyed
 * by an endpoint like `v1/things`, a nested `destination`) is refused before any request, exit 1,
 * with the path where it is written (src/component/outputNames.ts; it used to fail after every
 * page had been requested, exit 2). A name made while data arrives (a child table of the automatic
 * parser, under a long bucket) fails when the tables are written, also exit 1; nothing is written.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { makeDataDir, outIsEmpty, runIn } from '../helpers/dataDir.ts';
import { json, startServer, type TestServer } from '../helpers/httpServer.ts';

let api: TestServer;
before(async () => {
  // Three pages of one record each, then an empty page.
  api = await startServer((req, res) => {
    const page = Number(/page=(\d+)/.exec(req.target)?.[1] ?? 1);
    json(res, 200, page > 3 ? [] : [{ id: page, items: [{ x: page }], [`list_${'m'.repeat(40)}`]: [1] }]);
  });
});
after(() => api.close());

function config(mappings: unknown, options: { dataType?: string; outputBucket?: string } = {}): unknown {
  const { dataType, outputBucket = 'b' } = options;
  return {
    parameters: {
      api: { baseUrl: `${api.url}/`, pagination: { method: 'pagenum' } },
      config: { outputBucket, jobs: [{ endpoint: 'v1/things', ...(dataType ? { dataType } : {}) }], mappings },
    },
  };
}

const KEYED = 'Key the mapping by "v1_things" instead (letters, digits, "-" and "_") and set "dataType" to the same on the jobs it maps.';
const CASES: [string, unknown, string, string, string?][] = [
  [
    'a mapping keyed by the endpoint',
    { 'v1/things': { id: 'id' } },
    'parameters.config.mappings.v1/things',
    `the table name "v1/things" contains "/", so the table cannot be written to out/tables. ${KEYED}`,
  ],
  [
    'a nested destination',
    { 'v1/things': { id: 'id', items: { type: 'table', destination: 'a/b', tableMapping: { x: 'x' } } } },
    'parameters.config.mappings.v1/things.items.destination',
    'the table name "a/b" contains "/", so the table cannot be written to out/tables. Use "a_b" instead (letters, digits, "-" and "_").',
  ],
  [
    'a nested destination only (dataType "things")',
    { things: { id: 'id', items: { type: 'table', destination: '../x', tableMapping: { x: 'x' } } } },
    'parameters.config.mappings.things.items.destination',
    'the table name "../x" contains "/", so the table cannot be written to out/tables. Use "x" instead (letters, digits, "-" and "_").',
    'things',
  ],
];

for (const [name, mappings, path, message, dataType] of CASES) {
  test(`${name}: refused before any request, exit 1, one line naming ${path}, nothing in out/`, async () => {
    const sent = api.requests.length;
    const r = await runIn(makeDataDir(config(mappings, dataType ? { dataType } : {})));
    assert.equal(api.requests.length, sent, 'no request');
    assert.equal(r.code, 1, r.lines.join('\n'));
    const error = r.lines.at(-1) ?? '';
    assert.ok(error.includes(`logger.ERROR: ${path}: ${message} {"configPath":${JSON.stringify(path)}}`), error);
    assert.ok(outIsEmpty(r.dir), 'no table and no state');
  });
}

test('a child table name made from the data, too long under its bucket: every page requested, then exit 1, nothing in out/', async () => {
  const bucket = 'b'.repeat(200);
  const sent = api.requests.length;
  const r = await runIn(makeDataDir(config({}, { outputBucket: bucket })));
  assert.equal(api.requests.length - sent, 4, 'the three pages and the empty one');
  assert.equal(r.code, 1, r.lines.join('\n'));
  const error = r.lines.at(-1) ?? '';
  assert.ok(
    error.includes(
      `logger.ERROR: The output table name "${bucket}.v1_things_list_${'m'.repeat(40)}" is too long for a file name. Check "outputBucket", "id", the jobs' "dataType" and "mappings". The tables are written after the extraction, so the run fails only now; nothing was written. {"configPath":"parameters.config"}`,
    ),
    error,
  );
  assert.ok(outIsEmpty(r.dir), 'no table and no state');
});

test('the automatic parser sanitises the same endpoint: v1_things, exit 0', async () => {
  const r = await runIn(makeDataDir(config({})));
  assert.equal(r.code, 0, r.lines.join('\n'));
  assert.deepEqual(Object.keys(r.tables()).sort(), [
    'b.v1_things',
    'b.v1_things.manifest',
    'b.v1_things_items',
    'b.v1_things_items.manifest',
    `b.v1_things_list_${'m'.repeat(40)}`,
    `b.v1_things_list_${'m'.repeat(40)}.manifest`,
  ]);
});
