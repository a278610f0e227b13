import { compatLevelOf } from '../../../src/config/outputOptions.ts';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { decodeJson } from '../../../src/php/jsonDecode.ts';
import { pjson } from '../../../src/php/jsonEncode.ts';
import { md5Hex, phpSerialize } from '../../../src/php/serialize.ts';
import { JsonObject, type Value } from '../../../src/php/value.ts';
import { UserError } from '../../../src/errors/UserError.ts';
import { createAutoParser, type AutoParser } from '../../../src/mapping/auto/index.ts';
import { CurrentOutput, analyzeCurrent, linkDigest } from '../../../src/mapping/auto/currentParser.ts';
import { Structure } from '../../../src/mapping/auto/structure.ts';
import { Pause } from '../../../src/output/pause.ts';
import { Spool } from '../../../src/spool/spool.ts';
import { MemorySink, renderBytes, testLogger, tmpSpoolDir } from '../helpers.ts';

const rec = (json: string) => decodeJson(json, 'response') as Value[];
const link = (clean: string, json: string, outer = '') => clean + '_' + md5Hex(phpSerialize(decodeJson(json, 'response')) + outer);

function parser(compat?: Value): AutoParser {
  return createAutoParser({ state: undefined, compatLevel: compatLevelOf(compat), spoolDir: tmpSpoolDir(), logger: testLogger() });
}

async function run(batches: [string, string, Map<string, Value>?][], compat?: Value): Promise<{ sink: MemorySink; p: AutoParser }> {
  const p = parser(compat);
  for (const [json, dt, pc] of batches) p.addBatch(rec(json), dt, pc ?? new Map());
  const sink = new MemorySink();
  await p.writeTables(sink);
  p.close();
  return { sink, p };
}

async function parseError(fn: () => unknown, message: string): Promise<void> {
  await assert.rejects(
    async () => fn(),
    (e: unknown) => e instanceof UserError && e.message.startsWith(message + '. '),
  );
}

test('merge errors have the exact texts (04 §4.3)', async () => {
  await parseError(
    () => run([['[{"c":"green"},{"c":{"a":1}}]', 'users']]),
    'Error parsing response JSON: Unhandled nodeType change from "scalar" to "object" in "users.[].c"',
  );
  await parseError(
    () => run([['[{"c":{"a":1}},{"c":"green"}]', 'users']]),
    'Error parsing response JSON: Unhandled nodeType change from "object" to "scalar" in "users.[].c"',
  );
  await parseError(
    () => run([['[{"t":[1]},{"t":{"a":1}}]', 'users']]),
    "Error parsing response JSON: Data array in 'users.[].t' contains incompatible types 'scalar' and 'object'",
  );
  await parseError(
    () => run([['[{"t":["a"]},{"t":[{"x":1}]}]', 'users']]),
    'Error parsing response JSON: Unhandled nodeType change from "scalar" to "object" in "users.[].t.[]"',
  );
  // errors across batches too
  const p = parser();
  p.addBatch(rec('[{"c":1}]'), 'users', new Map());
  await parseError(
    () => p.addBatch(rec('[{"c":{"x":1}}]'), 'users', new Map()),
    'Error parsing response JSON: Unhandled nodeType change from "scalar" to "object" in "users.[].c"',
  );
  p.close();
});

test('object vs list of objects (either order) → child table; list items first', async () => {
  const { sink } = await run([['[{"id":1,"o":{"a":1,"z":9}},{"id":2,"o":[{"b":2,"a":3}]}]', 'users']]);
  assert.equal(sink.render('users').split('\n')[0], '"id","o"');
  assert.equal(sink.render('users_o').split('\n')[0], '"b","a","z","JSON_parentId"');
});

test('alias ordering and hashes across batches (04 §4.5 worked example)', async () => {
  const ud = () =>
    new Map<string, Value>([
      ['tag', 'dev'],
      ['price', '$10'],
    ]);
  const { sink, p } = await run([
    ['[{"id":1,"tag":"CFO","x":[1]}]', 'users', ud()],
    ['[{"id":2,"tag":"CTO","x":[1]}]', 'users', ud()],
  ]);
  const l1 = link('users', '{"id":1,"tag":"CFO","x":[1],"price":"$10","tag_u0":"dev"}');
  const l2 = link('users', '{"id":2,"tag":"CTO","x":[1],"tag_u0":"dev","price":"$10"}');
  assert.equal(sink.render('users'), `"id","tag","x","tag_u0","price"\n"1","CFO","${l1}","dev","$10"\n"2","CTO","${l2}","dev","$10"\n`);
  assert.equal(sink.render('users_x'), `"data","JSON_parentId"\n"1","${l1}"\n"1","${l2}"\n`);
  const struct = p.stateEntries().struct as Map<string, Value>;
  assert.deepEqual([...(struct.get('parent_aliases') as Map<string, Value>)], [['tag', 'tag_u0']]);
});

test('the alias map is global: later tables of other dataTypes use it (076 logic)', async () => {
  const ud = () =>
    new Map<string, Value>([
      ['tag', 'development'],
      ['price', '$10'],
    ]);
  const { sink } = await run([
    ['[{"id":1,"name":"A","tag":"t"}]', 'users', ud()],
    ['[{"order_id":1,"price":5}]', 'orders', ud()],
  ]);
  assert.equal(sink.render('users'), '"id","name","tag","tag_u0","price"\n"1","A","t","development","$10"\n');
  assert.equal(sink.render('orders'), '"order_id","price","tag_u0","price_u0"\n"1","5","development","$10"\n');
});

test('null-list quirk: list of scalars loses its data column, list of objects keeps empty columns', async () => {
  const a = (await run([['[{"id":1,"t":["a","b"]},{"id":2,"t":null}]', 'users']])).sink;
  const l1 = link('users', '{"id":1,"t":["a","b"]}');
  assert.equal(a.render('users'), `"id","t"\n"1","${l1}"\n"2",""\n`);
  assert.equal(a.render('users_t'), `"JSON_parentId"\n"${l1}"\n"${l1}"\n`);
  const b = (await run([['[{"id":2,"t":null},{"id":1,"t":[{"x":1}]}]', 'users']])).sink;
  const l2 = link('users', '{"id":1,"t":[{"x":1}]}');
  assert.equal(b.render('users_t'), `"x","JSON_parentId"\n"","${l2}"\n`);
  // [] and [null] do not trigger it
  const c = (await run([['[{"t":["a"]},{"t":[]},{"t":[null]}]', 'users']])).sink;
  assert.equal(c.render('users_t').split('\n')[0], '"data","JSON_parentId"');
});

test('batches of nulls, single null, single scalar', async () => {
  const a = (await run([['[null,null]', 'n']])).sink;
  assert.equal(a.render('n'), '\n\n');
  const b = (await run([['[null]', 'n']])).sink;
  assert.equal(b.tables.size, 0);
  const c = (
    await run([
      ['[0]', 'n'],
      ['[]', 'm'],
      ['[false]', 'f'],
    ])
  ).sink;
  assert.equal(c.render('n'), '"data"\n"0"\n');
  assert.equal(c.render('f'), '"data"\n""\n');
  assert.ok(!c.tables.has('m'));
});

test('property "0": named 0 after one batch, 0_u0 after a second one', async () => {
  assert.equal((await run([['[{"0":"a"}]', 'z']])).sink.render('z'), '"0"\n"a"\n');
  assert.equal(
    (
      await run([
        ['[{"0":"a"}]', 'z'],
        ['[{"0":"b"}]', 'z'],
      ])
    ).sink.render('z'),
    '"0_u0"\n"a"\n"b"\n',
  );
});

test('names are fixed once assigned (object later becomes a list of objects)', async () => {
  const { sink } = await run([
    ['[{"f":{"b":1}}]', 'u'],
    ['[{"f":[{"b":2}]}]', 'u'],
  ]);
  const l1 = link('u', '{"f":{"b":1}}');
  const l2 = link('u', '{"f":[{"b":2}]}');
  assert.equal(sink.render('u'), `"f"\n"${l1}"\n"${l2}"\n`);
  assert.equal(sink.render('u_f'), `"f_b","JSON_parentId"\n"1","${l1}"\n"2","${l2}"\n`);
});

test('a list item with its own JSON_parentId: JSON_parentId_u0, used by later child tables', async () => {
  const { sink } = await run([['[{"id":1,"t":[{"JSON_parentId":"own","a":1}],"s":["x"]}]', 'u']]);
  const l = link('u', '{"id":1,"t":[{"JSON_parentId":"own","a":1}],"s":["x"]}');
  assert.equal(sink.render('u_t'), `"JSON_parentId","a","JSON_parentId_u0"\n"own","1","${l}"\n`);
  assert.equal(sink.render('u_s'), `"data","JSON_parentId_u0"\n"x","${l}"\n`);
});

test('lists inside nested objects link with the outer hash; two sanitised names clash → _u0', async () => {
  const { sink } = await run([['[{"id":1,"a":{"b":2,"c":[5]},"a.b":3}]', 'users']]);
  const outer = link('users', '{"id":1,"a":{"b":2,"c":[5]},"a.b":3}');
  const inner = link('users.a', '{"b":2,"c":[5]}', outer);
  assert.equal(sink.render('users'), `"id","a_b","a_c","a_b_u0"\n"1","2","${inner}","3"\n`);
  assert.equal(sink.render('users_a_c'), `"data","JSON_parentId"\n"5","${inner}"\n`);
});

test('nested lists become JSON cells, in root and child lists (04 §4.8)', async () => {
  const logger = testLogger();
  const p = createAutoParser({ state: undefined, compatLevel: 3, spoolDir: tmpSpoolDir(), logger });
  p.addBatch(rec('[{"v":[[1,2],[3,{"a":1.5}]]}]'), 'r', new Map());
  p.addBatch(rec('[[1,"x/y"]]'), 'rows', new Map());
  const sink = new MemorySink();
  await p.writeTables(sink);
  assert.equal(
    sink.render('r_v').split('\n').slice(1).join('\n'),
    `"[1,2]","${link('r', '{"v":[[1,2],[3,{"a":1.5}]]}')}"\n"[3,{""a"":1.5}]","${link('r', '{"v":[[1,2],[3,{"a":1.5}]]}')}"\n`,
  );
  assert.equal(sink.render('rows'), '"data"\n"[1,""x\\/y""]"\n');
  assert.deepEqual(logger.warnings, [
    "Converting nested array 'r.[].v.[]' to JSON string.",
    "Converting nested array 'r.[].v.[]' to JSON string.",
    "Converting nested array 'rows.[]' to JSON string.",
  ]);
  p.close();
});

test('cells: floats with 14 digits, booleans, empty object yields no column, always-null column', async () => {
  const { sink } = await run([
    ['[{"f":1.0,"g":0.1,"h":1e20,"i":3.141592653589793,"b":true,"c":false,"e":{},"n":null,"big":12345678901234567890}]', 'x'],
  ]);
  assert.equal(
    sink.render('x'),
    '"f","g","h","i","b","c","n","big"\n"1","0.1","1.0E+20","3.1415926535898","1","","","1.2345678901235E+19"\n',
  );
});

test('parent values: objects as JSON text, lists rejected', async () => {
  const obj = new JsonObject([['a', 1]]);
  const { sink } = await run([['[{"id":1}]', 'x', new Map<string, Value>([['parent_o', obj]])]]);
  assert.equal(sink.render('x'), '"id","parent_o"\n"1","{""a"":1}"\n');
  await assert.rejects(
    () => run([['[{"id":1}]', 'x', new Map<string, Value>([['p', [1]]])]]),
    (e: unknown) =>
      e instanceof UserError &&
      e.message.startsWith('Error assigning parentId to a CSV file! $parentId array cannot be multidimensional. '),
  );
});

test('child-job parent column conflicts with a record property (025 logic)', async () => {
  const { sink } = await run([
    ['[{"id":1,"parent_id":"x"}]', 'd', new Map<string, Value>([['parent_id', 1]])],
    ['[{"id":2,"parent_id":"y"}]', 'd', new Map<string, Value>([['parent_id', 2]])],
  ]);
  assert.equal(sink.render('d'), '"id","parent_id","parent_id_u0"\n"1","x","1"\n"2","y","2"\n');
});

test('a long batch written in slices (with pauses, records updated in place) equals one emitBatch, aliased parent columns included', async () => {
  const items: string[] = [];
  for (let i = 0; i < 2500; i++)
    items.push(`{"id":${i},"t":[${i % 3},"x${i}"],"o":{"a":${i}.5},"l":[{"k":${i},"m":[{"z":${i}},{"z":"${i}"}]},{"k":"${i}"}]}`);
  const json = `[${items.join(',')}]`;
  // "id" is both a record property and a parent column: it is aliased (and the entries reordered) when the table opens.
  const pc = () =>
    new Map<string, Value>([
      ['id', 7],
      ['parent_x', 'p'],
    ]);
  const p = parser();
  p.addBatch(rec(json), 'users', pc());
  const sliced = new MemorySink();
  await p.writeTables(sliced);
  p.close();
  const structure = new Structure();
  analyzeCurrent(structure, rec(json), 'users', () => {});
  const whole = new MemorySink();
  new CurrentOutput(structure, whole).emitBatch(rec(json), 'users', pc());
  assert.deepEqual([...sliced.tables.keys()], [...whole.tables.keys()]);
  for (const name of whole.tables.keys()) assert.equal(sliced.render(name), whole.render(name), name);
  assert.equal(sliced.render('users').split('\n')[0], '"id","t","o_a","l","id_u0","parent_x"');
  assert.equal(sliced.render('users_l_m').split('\n').length, 2 * 2500 + 2);
});

test('link digests spooled with a batch are the ones the output uses, and equal its own', async () => {
  const records = decodeJson('[{"id":1,"l":[1,2]},{"id":2,"o":{"x":[3]}},{"id":3,"l":[]}]', 'response') as Value[];
  const render = async (digests: string[] | undefined): Promise<Map<string, string>> => {
    const spoolDir = tmpSpoolDir();
    const spool = new Spool(spoolDir);
    try {
      const structure = new Structure();
      analyzeCurrent(structure, records, 'users', () => {});
      spool.append({ records, dataType: 'users', parentColumns: new Map(), ...(digests ? { digests } : {}) });
      const sink = new MemorySink();
      const out = new CurrentOutput(structure, sink, true);
      for (const b of spool.streams()) await out.writeStreamed(b, new Pause());
      return new Map([...sink.tables.keys()].map((t) => [t, renderBytes(sink, t)]));
    } finally {
      spool.close();
      fs.rmSync(spoolDir, { recursive: true, force: true });
    }
  };
  const own = await render(undefined);
  assert.deepEqual(await render(records.map(linkDigest)), own);
  // Proof that they are used: other digests show up as the link values.
  const fake = records.map((_, i) => String(i).repeat(32));
  const faked = await render(fake);
  assert.match(faked.get('users')!, /"users_0{32}"/);
  assert.match(faked.get('users_l')!, /"users_0{32}"/);
  assert.notDeepEqual(faked, own);
});

test('type errors say what to do after the reference message: responseFilter or mappings (issue 22)', async () => {
  await assert.rejects(
    async () => run([['[{"c":"green"},{"c":{"a":1}}]', 'users']]),
    (e: unknown) =>
      e instanceof UserError &&
      e.message ===
        'Error parsing response JSON: Unhandled nodeType change from "scalar" to "object" in "users.[].c". ' +
          'The values at this path have different types in different records: keep that member as JSON text with the job\'s "responseFilter", ' +
          'or map this data type with "mappings" (a column with "forceType": true holds any value as JSON).',
  );
});

test('a member named "[]": the reference takes it for the list-item marker; its type errors are raised (issue 22)', async () => {
  // seed88: the member `[]` of `0` and the items of the list `0` share one node in the reference.
  const bracket = (message: string) => (e: unknown) =>
    e instanceof UserError && e.message.startsWith(message + '. A member named "[]"') && e.message.includes('"compatLevel": 1');
  await assert.rejects(
    async () => run([['[{"p":[{"0":{"[]":1}}]},{"p":[{"0":[{}]}]}]', 'ep']]),
    bracket('Error parsing response JSON: Unhandled nodeType change from "scalar" to "object" in "ep.[].p.[].0.[]"'),
  );
  // seed288: an object holding `[]` then becoming a list: its "items" are the member's scalars.
  await assert.rejects(
    async () => run([['[{"t":[{"1":{"[]":5}},{"1":[]}]}]', 'ep']]),
    bracket("Error parsing response JSON: Data array in 'ep.[].t.[].1' contains incompatible types 'scalar' and 'object'"),
  );
  // seed82: a list in a member `[]` counts as a list nested in a list (a scalar) for the reference.
  await assert.rejects(
    async () => run([['[{"k":[{"[]":[]},{"[]":{}}]}]', 'ep']]),
    bracket('Error parsing response JSON: Unhandled nodeType change from "scalar" to "object" in "ep.[].k.[].[]"'),
  );
  // Across batches: the first batch with such a member starts the check from the structure so far.
  const p = parser();
  p.addBatch(rec('[{"a":{"x":[1]}}]'), 'ep', new Map());
  await assert.rejects(
    async () => p.addBatch(rec('[{"a":{"x":{"[]":{"y":1}}}}]'), 'ep', new Map()),
    bracket('Error parsing response JSON: Unhandled nodeType change from "scalar" to "object" in "ep.[].a.x.[]"'),
  );
  p.close();
});

test('a member named "[]" that the reference cannot save (it exits 2): an ordinary column here (issue 22)', async () => {
  const { sink, p } = await run([['[{"[]":1,"id":2},{"id":3}]', 'ep']]);
  assert.equal(renderBytes(sink, 'ep'), '"","id"\n"1","2"\n"","3"\n');
  // A list in it is a list nested in a list for the reference: JSON text, with its warning.
  const lists = await run([['[{"[]":[1,{"a":2}],"id":1},{"[]":"x","id":2}]', 'ep']]);
  assert.equal(renderBytes(lists.sink, 'ep'), '"","id"\n"[1,{""a"":2}]","1"\n"x","2"\n');
  // The member is stored as `_[]` (an ordinary member), never as the item key of an object node.
  assert.match(pjson(p.stateEntries().struct, 'shortest'), /"\[\]":\{"_\[\]":\{"nodeType":"scalar","headerNames":""\},"_id"/);
});

test('userData keys "headerNames", "nodeType", "type" are ordinary parent columns (issue 22), but "nodeType" on scalar records (issue 33)', async () => {
  const pc = new Map<string, Value>([
    ['headerNames', true],
    ['nodeType', 'n'],
    ['type', 'x'],
  ]);
  // Scalar records: the reference registers no `nodeType` column; its value lands in `data`.
  const { sink } = await run([['[1]', 'u', pc]]);
  assert.equal(renderBytes(sink, 'u'), '"data","headerNames","type"\n"n","1","x"\n');
  // Object records: an ordinary column (the reference's result there is undetermined).
  const objects = await run([['[{"id":1}]', 'o', pc]]);
  assert.equal(renderBytes(objects.sink, 'o'), '"id","headerNames","nodeType","type"\n"1","1","n","x"\n');
  // Clashing with a property of the record: renamed `_u0` like any other key.
  const clash = await run([['[{"headerNames":[1]}]', 'a', new Map<string, Value>([['headerNames', 1.5]])]]);
  assert.equal(
    renderBytes(clash.sink, 'a'),
    `"headerNames","headerNames_u0"\n"${link('a', '{"headerNames":[1],"headerNames_u0":1.5}')}","1.5"\n`,
  );
});

test('a list whose table file another path created first registers its parent key per row: each clash a new _uN (issue 22)', async () => {
  // `e1.[].".".[]` sanitises to `e1` too, so its rows go to the root table's file; that table was
  // created without parent columns, so every row registers `JSON_parentId` anew against the
  // record's own `JSON_parentId`: `_u0` for the first row, `_u1` for the second (rows get wider).
  const { sink } = await run([['[{".":[{},{"JSON_parentId":1,"k":[148]}]}]', 'e1']]);
  const root = link('e1', '{".":[{},{"JSON_parentId":1,"k":[148]}]}');
  const second = link('e1..', `{"JSON_parentId":"${root}","k":[148]}`);
  assert.equal(renderBytes(sink, 'e1'), `""\n"${root}","",""\n"${root}","${second}","",""\n"${root}"\n`);
  // The child list of the second row links with the alias in force then: `JSON_parentId_u1`.
  assert.equal(renderBytes(sink, 'e1_k'), `"data","JSON_parentId_u1"\n"148","${second}"\n`);
});

test('a column renamed during its own row (empty name → _u0 when a child table registers): the cell stays in place (issue 22)', async () => {
  // The reference fails with "Error assigning '' to a non-existing column '_u0'!" (exit 2).
  const { sink } = await run([
    ['[{"1":[],"p":[null,""]}]', 'ep'],
    ['[{"ěščř":[]}]', 'ep'],
  ]);
  const first = link('ep', '{"1":[],"p":[null,""]}');
  assert.equal(renderBytes(sink, 'ep'), `"1","p",""\n"","${first}",""\n"","",""\n`);
  assert.equal(renderBytes(sink, 'ep_p'), `"data","JSON_parentId"\n"","${first}"\n"","${first}"\n`);
});

test('a userData key "[]" is an ordinary parent column (the reference fails on it)', async () => {
  const { sink } = await run([['[{"a":1}]', 'ep', new Map<string, Value>([['[]', 1.5]])]]);
  assert.equal(renderBytes(sink, 'ep'), '"a",""\n"1","1.5"\n');
});
