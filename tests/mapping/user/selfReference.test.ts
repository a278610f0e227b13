/**
 * A user mapping that maps a table into itself (spec 04 §7.5, `parentKey.disable`) over records
 * that lack the nested value (issue 19 #8). The reference maps the missing value as `[null]`
 * when the table has a primary key, and that null record again, until it runs out of memory;
 * here a missing or empty nested value gives no rows, as it does without a primary key. Real
 * runs against a local API.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { run } from '../../helpers/dataDir.ts';
import { startServer, type TestServer } from '../../helpers/httpServer.ts';

type Node = { id: number; name?: string; kids?: unknown };

/** A chain `depth` levels deep: 1 → 2 → … → depth, the last without `kids`. */
function chain(depth: number): Node {
  let node: Node = { id: depth };
  for (let id = depth - 1; id >= 1; id--) node = { id, kids: [node] };
  return node;
}

const TREE: Node[] = [
  {
    id: 1,
    name: 'root',
    kids: [
      { id: 11, name: 'leaf' },
      { id: 12, kids: [{ id: 121 }] },
      { id: 13, kids: [] },
      { id: 14, kids: null },
    ],
  },
  { id: 2, name: 'alone' },
  { id: 3, kids: { id: 31 } },
];

let api: TestServer;
before(async () => {
  api = await startServer((req, res) => {
    res.setHeader('Content-Type', 'application/json');
    res.end(JSON.stringify(req.target.startsWith('/deep') ? [chain(250)] : TREE));
  });
});
after(() => api.close());

function config(endpoint: string, primaryKey: boolean): unknown {
  return {
    parameters: {
      api: { baseUrl: `${api.url}/` },
      config: {
        outputBucket: 'b',
        jobs: [{ endpoint, dataType: 'nodes' }],
        mappings: {
          nodes: {
            id: { type: 'column', mapping: { destination: 'id', primaryKey } },
            name: 'name',
            kids: { type: 'table', destination: 'nodes', parentKey: { disable: true } },
          },
        },
      },
    },
  };
}

const ROWS = '"id","name"\n"11","leaf"\n"121",""\n"12",""\n"13",""\n"14",""\n"1","root"\n"2","alone"\n"31",""\n"3",""\n';

for (const primaryKey of [true, false]) {
  test(`records without the nested value end the self-reference (primary key: ${primaryKey})`, async () => {
    const r = await run(config('tree', primaryKey));
    assert.equal(r.code, 0, r.lines.slice(-2).join('\n'));
    const tables = r.tables();
    assert.equal(tables['b.nodes'], ROWS);
    assert.equal(
      tables['b.nodes.manifest'],
      primaryKey
        ? '{"destination":"in.c-b.nodes","incremental":false,"primary_key":["id"]}'
        : '{"destination":"in.c-b.nodes","incremental":false}',
    );
  });
}

test('a self-reference 250 levels deep (JSON nesting 501 of the 512 allowed) is mapped, deepest first', async () => {
  const r = await run(config('deep', true));
  assert.equal(r.code, 0, r.lines.slice(-2).join('\n'));
  const rows = r.tables()['b.nodes']!.trimEnd().split('\n');
  assert.equal(rows.length, 251);
  assert.equal(rows[1], '"250",""');
  assert.equal(rows[250], '"1",""');
});

test('a self-reference over the record itself (key ".") is a user error naming the mapping', async () => {
  const cfg = config('tree', false) as { parameters: { config: { mappings: { nodes: Record<string, unknown> } } } };
  const nodes = cfg.parameters.config.mappings.nodes;
  delete nodes['kids'];
  nodes['.'] = { type: 'table', destination: 'nodes', parentKey: { disable: true } };
  const r = await run(cfg);
  assert.equal(r.code, 1);
  const last = r.lines.at(-1) ?? '';
  assert.match(
    last,
    /logger\.ERROR: Bad Json to CSV Mapping configuration: Table '\.' maps each record of 'nodes' into the same table again, which never ends\. Use the key of the nested records \(for example "children"\)\. \{"configPath":"parameters\.config\.mappings\.nodes\[\\"\.\\"\]"\} \[\]$/,
  );
  assert.deepEqual(r.tables(), {});
});
