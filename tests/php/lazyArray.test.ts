import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeJson, type RecordsAt } from '../../src/php/jsonDecode.ts';
import { sameValue } from '../../src/php/equality.ts';
import { JsonObject, PhpFloat, type Value } from '../../src/php/value.ts';

/** A tagged, order-preserving plain form of a value (deepStrictEqual ignores Map order). */
function dump(v: Value): unknown {
  if (v instanceof PhpFloat) return { f: v.value };
  if (v instanceof JsonObject) return { O: [...v].map(([k, x]) => [k, dump(x)]) };
  if (Array.isArray(v)) return v.map(dump);
  return typeof v === 'bigint' ? { big: String(v) } : v;
}

/** Records across several chunks of the lazy array, with what makes PHP's decoding particular. */
function records(n: number): string {
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    out.push(
      `{"id":${i},"f":${i}.0,"s":"\\u00e9\\ud83d\\ude00${i}","id":${i + 1},"big":9007199254740993,"n":[1,{"a":null,"0":{}}],"e":1e2}`,
    );
  }
  return out.join(' ,\n');
}

const errorOf = (text: string, at?: RecordsAt): string => {
  try {
    decodeJson(text, 'response', at);
    return 'no error';
  } catch (e) {
    return (e as Error).message;
  }
};

test('records kept lazily decode to exactly what a full decode gives, whatever the path', () => {
  const text = `{"meta":{"a":[1,2]},"data":{"items":[${records(2100)}],"x":1},"total":2100}`;
  const full = decodeJson(text, 'response');
  for (const at of [['data', 'items'], 'root-members', ['data'], ['nope'], ['data', 'items', '0'], []] as RecordsAt[]) {
    const lazy = decodeJson(text, 'response', at);
    assert.ok(sameValue(full, lazy) && sameValue(lazy, full), JSON.stringify(at));
    assert.deepEqual(dump(lazy), dump(full), JSON.stringify(at));
  }
  const items = ((decodeJson(text, 'response', ['data', 'items']) as JsonObject).get('data') as JsonObject).get('items') as Value[];
  assert.ok(Array.isArray(items));
  assert.equal(items.length, 2100);
  // Read out of order, back and forth across chunks.
  assert.equal((items[2099] as JsonObject).get('id'), 2100);
  assert.equal((items[3] as JsonObject).get('id'), 4);
  assert.equal((items[1500] as JsonObject).get('id'), 1501);
  assert.equal(items[2100], undefined);
  assert.equal(items.filter((r) => ((r as JsonObject).get('id') as number) % 1000 === 0).length, 2);
  assert.equal([...items].length, 2100);
});

test('a root array and arrays of a root object (no dataField) are kept lazily too', () => {
  const text = `[${records(1100)}]`;
  assert.deepEqual(dump(decodeJson(text, 'response', [])), dump(decodeJson(text, 'response')));
  assert.deepEqual(dump(decodeJson(text, 'response', 'root-members')), dump(decodeJson(text, 'response')));
  const obj = `{"a":[${records(3)}],"b":{"c":[1]},"a":[]}`;
  assert.deepEqual(dump(decodeJson(obj, 'response', 'root-members')), dump(decodeJson(obj, 'response')));
});

test('a text with an error fails with the same error, lazily or not', () => {
  const bad = [
    '{"data":{"items":[1,2,}]}}',
    '{"data":{"items":[1,2]]}',
    '{"data":{"items":[1,{"a":1]]}}',
    '{"data":{"items":[1,2',
    '{"data":{"items":[1,"\u0001"]}}',
    '{"data":{"items":[{"\\u0000a":1}]}}',
    '{"data":{"items":[1,2]} x',
    '{"data":{"items":["\\ud800"]}}',
    `{"data":{"items":[${'['.repeat(509)}${']'.repeat(509)}]}}`,
    `{"data":{"items":[${'['.repeat(510)}${']'.repeat(510)}]}}`,
    '[1,2,x]',
  ];
  for (const text of bad) {
    const want = errorOf(text);
    for (const at of [['data', 'items'], 'root-members', []] as RecordsAt[])
      assert.equal(errorOf(text, at), want, `${text.slice(0, 40)} ${JSON.stringify(at)}`);
  }
});

test('writing to a lazy array makes it a plain array with the write applied', () => {
  const text = `[${records(1500)}]`;
  const lazy = decodeJson(text, 'response', []) as Value[];
  lazy[1] = 'replaced';
  lazy.push('added');
  const plain = decodeJson(text, 'response') as Value[];
  plain[1] = 'replaced';
  plain.push('added');
  assert.deepEqual(dump(lazy), dump(plain));
  assert.equal(lazy.length, 1501);
  assert.deepEqual(Object.keys(lazy).length, 1501);
});
