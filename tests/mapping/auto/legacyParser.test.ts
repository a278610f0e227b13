import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { decodeJson } from '../../../src/php/jsonDecode.ts';
import { pjson } from '../../../src/php/jsonEncode.ts';
import { md5Hex, phpSerialize } from '../../../src/php/serialize.ts';
import type { Value } from '../../../src/php/value.ts';
import { UserError } from '../../../src/errors/UserError.ts';
import { createAutoParser, type AutoParser } from '../../../src/mapping/auto/index.ts';
import { MemorySink, testLogger, tmpSpoolDir } from '../helpers.ts';

const rec = (json: string) => decodeJson(json, 'response') as Value[];
const md5 = (s: string) => createHash('md5').update(s, 'utf8').digest('hex');
const link = (t: string, json: string, outer = '') => t + '_' + md5Hex(phpSerialize(decodeJson(json, 'response')) + outer);

function legacy(state?: string): AutoParser {
  return createAutoParser({
    state: state ? decodeJson(state, 'config') : undefined,
    compatLevel: 1,
    spoolDir: tmpSpoolDir(),
    logger: testLogger(),
  });
}

async function run(p: AutoParser, batches: [string, string, Map<string, Value>?][]): Promise<MemorySink> {
  for (const [json, dt, pc] of batches) p.addBatch(rec(json), dt, pc ?? new Map());
  const sink = new MemorySink();
  await p.writeTables(sink);
  p.close();
  return sink;
}

test('legacy: parent columns overwrite record properties, md5 column stays empty (125)', async () => {
  const ud = new Map<string, Value>([
    ['tag', 'development'],
    ['price', '$10'],
  ]);
  const sink = await run(legacy(), [['[{"id":123,"name":"John Doe","tag":"x"}]', 'users', ud]]);
  assert.equal(sink.render('users'), `"id","name","tag","${md5('tag')}","price"\n"123","John Doe","development","","$10"\n`);
});

test('legacy: nested objects, lists, names with each invalid byte → "_"', async () => {
  const p = legacy();
  const data = '[{"id":1,"a b":{"c.d":1,"e":{"f":2}},"tags":["x","y"],"o":{"a":{},"b":1}}]';
  const sink = await run(p, [[data, 'user/{id}']]);
  const l = link('user/{id}', data.slice(1, -1));
  assert.equal(sink.render('user__id'), `"id","a_b_c_d","a_b_e_f","tags"\n"1","1","2","${l}"\n`);
  assert.equal(sink.render('user__id__tags'), `"data","JSON_parentId"\n"x","${l}"\n"y","${l}"\n`);
  assert.equal(
    pjson(p.stateEntries().struct, 'shortest'),
    // add() runs after the children: nested type paths come first
    '{"user\\/{id}.a b.e":{"f":"scalar"},"user\\/{id}.a b":{"c.d":"scalar","e":"object"},"user\\/{id}.tags":{"data":"scalar"},"user\\/{id}":{"id":"scalar","a b":"object","tags":"arrayOfscalar"}}',
  );
});

test('legacy: duplicate sanitised names → md5 column, values go to the first', async () => {
  const sink = await run(legacy(), [['[{"a.b":1,"a_b":2}]', 't']]);
  assert.equal(sink.render('t'), `"a_b","${md5('a_b')}"\n"2",""\n`);
});

test('legacy: empty batch of a known type → header-only table; [0] of an unknown type ignored', async () => {
  const state = '{"json_parser.struct":{"users":{"id":"scalar","name":"scalar"}},"json_parser.structVersion":2}';
  const sink = await run(legacy(state), [
    ['[]', 'users'],
    ['[0]', 'other'],
    ['[]', 'none'],
  ]);
  assert.equal(sink.render('users'), '"id","name"\n');
  assert.deepEqual([...sink.tables.keys()], ['users']);
});

test('legacy: type errors', async () => {
  const p = legacy();
  assert.throws(
    () => p.addBatch(rec('[{"a":1},{"a":{"b":1}}]'), 'users', new Map()),
    (e: unknown) =>
      e instanceof UserError &&
      e.message.startsWith(
        `Error parsing response JSON: Unhandled type change from "scalar" to "object" in 'users.a' The values at this path`,
      ),
  );
  const q = legacy();
  assert.throws(
    () => q.addBatch(rec('[1,{"a":1}]'), 'users', new Map()),
    (e: unknown) =>
      e instanceof UserError &&
      e.message.startsWith(`Error parsing response JSON: Data array in 'users' contains incompatible data types 'scalar' and 'object'! `) &&
      e.message.endsWith('or map this data type with "mappings" (a column with "forceType": true holds any value as JSON).'),
  );
  p.close();
  q.close();
});

test('legacy: scalar → list upgrade and arrayOfNULL', async () => {
  const p = legacy();
  const sink = await run(p, [['[{"t":"a","n":[]},{"t":["b","c"],"n":[null]}]', 'u']]);
  const l1 = link('u', '{"t":"a","n":[]}');
  const l2 = link('u', '{"t":["b","c"],"n":[null]}');
  assert.equal(sink.render('u'), `"t","n"\n"${l1}",""\n"${l2}","${l2}"\n`);
  assert.equal(sink.render('u_t'), `"data","JSON_parentId"\n"a","${l1}"\n"b","${l2}"\n"c","${l2}"\n`);
  assert.equal(sink.render('u_n'), `"JSON_parentId"\n"${l2}"\n`);
  assert.equal(
    pjson(p.stateEntries().struct, 'shortest'),
    '{"u":{"t":"arrayOfscalar","n":"arrayOfNULL"},"u.t":{"data":"scalar"},"u.n":[]}',
  );
});

test('legacy: invalid types in the state fail', async () => {
  assert.throws(() => legacy('{"json_parser.struct":{"users":{"id":"weird"}},"json_parser.structVersion":2}'), UserError);
});

test("a list or scalar where the struct has an object (analysis skipped it): its JSON text in the object's first column (issue 22)", async () => {
  // The second and third `o` start with an empty object: the analysis skips them (§5.2), so `o.x`
  // stays an object; the reference then fails with a type error (exit 2).
  const sink = await run(legacy(), [['[{"o":{"x":{"y":1,"z":2}}},{"o":{"e":{},"x":[1,"a"]}},{"o":{"e":{},"x":5}}]', 'list']]);
  assert.equal(sink.render('list'), '"o_x_y","o_x_z"\n"1","2"\n"[1,""a""]",""\n"5",""\n');
});

test("a NULL-typed member with a value: the record's JSON into the raw name, or the sanitised one where the reference fails", async () => {
  // `a b` is only ever analysed as NULL (the object is skipped: its first member is empty);
  // the reference writes the record's JSON into the column named `a b`, which is not a header
  // name (`a_b` is), and fails; here `a_b` takes it.
  const sink = await run(legacy(), [['[{"a b":[]},{"a b":{"x":{}}}]', 'list']]);
  assert.equal(sink.render('list'), '"a_b"\n""\n"{""a b"":{""x"":{}}}"\n');
});
