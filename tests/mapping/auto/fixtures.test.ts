import { test } from 'node:test';
import assert from 'node:assert/strict';
import { expectedTables, renderBytes, runExample } from '../helpers.ts';

const EXAMPLES = [
  '001',
  '002',
  '003',
  '004',
  '006',
  '007',
  '008',
  '009',
  '010',
  '011',
  '013',
  '015',
  '016',
  '017',
  '018',
  '019',
  '063',
  '121',
  '122',
  '123',
  '130',
];
// Extra examples with child jobs / userData (single-level children).
const EXTRA = ['021', '023', '025', '076', '106', '107', '108', '109', '110', '125', '135'];

for (const name of [...EXAMPLES, ...EXTRA]) {
  test(`conformance example ${name}: tables byte-identical`, async () => {
    const { sink, bucket } = await runExample(name);
    const expected = expectedTables(name, bucket);
    assert.deepEqual([...sink.tables.keys()].sort(), [...expected.keys()].sort());
    for (const [table, bytes] of expected) {
      assert.equal(renderBytes(sink, table), bytes, `table ${table}`);
    }
  });
}
