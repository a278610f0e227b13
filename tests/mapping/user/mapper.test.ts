/**
 * Row mapping of the user-defined mapper (spec 04 §7.2–§7.8): every definition form and option.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { UserError } from '../../../src/errors/UserError.ts';
import { ApplicationError } from '../../../src/errors/ApplicationError.ts';
import { rendered, runBatches, MemorySink, StubAuto, cfg, resp } from './helpers.ts';
import { MappingRouter } from '../../../src/mapping/router.ts';
import type { Value } from '../../../src/php/value.ts';

const md5 = (s: string): string => createHash('md5').update(s, 'utf8').digest('hex');

async function rejects(p: Promise<unknown>, message: string, configPath?: string): Promise<void> {
  await assert.rejects(p, (e: unknown) => {
    assert.ok(e instanceof UserError, `UserError expected, got ${String(e)}`);
    assert.equal(e.message, message);
    if (configPath !== undefined) assert.equal(e.configPath, configPath);
    return true;
  });
}

describe('column definitions', () => {
  it('shorthand string, missing/empty/"column" type, mapping order', async () => {
    const { sink } = await runBatches(
      `{"users": {"c": "third", "a": {"mapping": {"destination": "first"}}, "b": {"type": "", "mapping": {"destination": "second"}}, "d": {"type": "column", "mapping": {"destination": "fourth"}}}}`,
      [{ dataType: 'users', records: `[{"a": 1, "b": 2, "c": 3, "d": 4, "e": 5}]` }],
    );
    assert.deepEqual(rendered(sink), { users: '"third","first","second","fourth"\n"3","1","2","4"\n' });
  });

  it('paths: nested objects, list indexes, null elements, custom delimiter, missing values', async () => {
    const { sink } = await runBatches(
      `{"t": {
        "a.b": "ab",
        "list.1": "second",
        "list.2.x": "nullElement",
        "list.01": "nonCanonical",
        "p|q": {"mapping": {"destination": "piped"}, "delimiter": "|"},
        "p.q": "dotted",
        "nothing.here": "missing"
      }}`,
      [{ dataType: 't', records: `[{"a": {"b": "B"}, "list": ["x", "y", null], "p": {"q": "Q"}, "p.q": "literal"}]` }],
    );
    assert.equal(sink.render('t'), '"ab","second","nullElement","nonCanonical","piped","dotted","missing"\n"B","y","","","Q","Q",""\n');
  });

  it('a property holding null is found (the cell is empty); "." and "" select a scalar record', async () => {
    const { sink } = await runBatches(`{"t": {".": "dot", "": "empty"}}`, [{ dataType: 't', records: `["a", 1.5, true, false, null]` }]);
    assert.equal(sink.render('t'), '"dot","empty"\n"a","a"\n"1.5","1.5"\n"1","1"\n"",""\n"",""\n');
  });

  it('cell rendering: ints, floats with 14 digits, booleans, big ints, unicode', async () => {
    const { sink } = await runBatches(`{"t": {"v": "v"}}`, [
      {
        dataType: 't',
        records: `[{"v": 1.0}, {"v": 0.1}, {"v": 3.141592653589793}, {"v": 1e20}, {"v": -0.0}, {"v": 9223372036854775807}, {"v": "\\u017e \\"q\\""}, {"v": false}]`,
      },
    ]);
    assert.equal(sink.render('t'), '"v"\n"1"\n"0.1"\n"3.1415926535898"\n"1.0E+20"\n"-0"\n"9223372036854775807"\n"ž ""q"""\n""\n');
  });

  it('forceType at the definition top level writes JSON text (17 digits, escaped slashes)', async () => {
    const { sink } = await runBatches(
      `{"t": {"o": {"mapping": {"destination": "o"}, "forceType": true}, "s": {"mapping": {"destination": "s"}, "forceType": true}}}`,
      [{ dataType: 't', records: `[{"o": {"a": 0.1, "b": "x/y", "c": [], "d": {}}, "s": "plain"}, {"o": [1, "ž"], "s": 2}]` }],
    );
    assert.equal(
      sink.render('t'),
      '"o","s"\n"{""a"":0.10000000000000001,""b"":""x\\/y"",""c"":[],""d"":{}}","plain"\n"[1,""\\u017e""]","2"\n',
    );
  });

  it('mapping.forceType is ignored: a list is a data error', async () => {
    await rejects(
      runBatches(`{"users": {"id": "id", "tags": {"mapping": {"destination": "tags", "forceType": true}}}}`, [
        { dataType: 'users', records: `[{"id": 1, "tags": ["a", "b"]}]` },
      ]),
      "Error saving 'users' data to CSV column: Error writing 'tags' column: Cannot write data into column: array (\n  0 => 'a',\n  1 => 'b',\n)",
      'parameters.config.mappings.users.tags',
    );
  });

  it('data error lists every non-scalar column and exports the first value', async () => {
    await rejects(
      runBatches(`{"users": {"a": "a", "b": "b", "c": "c"}}`, [{ dataType: 'users', records: `[{"a": {"x": 1}, "b": 2, "c": [3]}]` }]),
      "Error saving 'users' data to CSV column: Error writing 'a,c' column: Cannot write data into column: (object) array(\n   'x' => 1,\n)",
    );
  });

  it('data error in a nested table names the root dataType; child rows were written first', async () => {
    const sink = new MemorySink();
    const router = new MappingRouter({
      mappings: cfg(`{"users": {"id": "id", "c": {"type": "table", "destination": "contacts", "tableMapping": {"v": "v"}}, "bad": "bad"}}`),
      auto: new StubAuto(),
      sink,
    });
    assert.throws(
      () => router.addBatch(resp(`[{"id": 1, "c": {"v": "x"}, "bad": [1]}]`) as Value[], 'users', new Map()),
      (e: unknown) =>
        e instanceof UserError && e.message.startsWith("Error saving 'users' data to CSV column: Error writing 'bad' column:"),
    );
    assert.deepEqual(sink.tables.get('contacts')?.rows.length, 1);
    assert.deepEqual(sink.tables.get('users')?.rows.length, 0);
  });

  it('unknown type: no header column, value still emitted (unsupported, mimicked)', async () => {
    const { sink } = await runBatches(`{"t": {"a": "a", "b": {"type": "weird", "mapping": {"destination": "b"}}}}`, [
      { dataType: 't', records: `[{"a": 1, "b": 2}]` },
    ]);
    assert.equal(sink.render('t'), '"a"\n"1","2"\n');
  });

  it('string shorthand under a numeric key is not supported (application error)', async () => {
    await assert.rejects(runBatches(`{"t": {"0": "zero"}}`, [{ dataType: 't', records: `[["a"]]` }]), ApplicationError);
  });

  it('duplicate destinations: header lists both, the row has one value (unsupported, mimicked)', async () => {
    const { sink } = await runBatches(`{"t": {"a": "x", "b": "x"}}`, [{ dataType: 't', records: `[{"a": 1, "b": 2}]` }]);
    assert.equal(sink.render('t'), '"x","x"\n"2"\n');
  });
});

describe('user definitions (04 §7.7)', () => {
  it('values come from the parent columns, path separator "/", missing → empty', async () => {
    const { sink } = await runBatches(
      `{"users": {"id": "id", "k": {"type": "user", "mapping": {"destination": "k"}}, "a.b": {"type": "user", "mapping": {"destination": "dotted"}},
        "n/x": {"type": "user", "mapping": {"destination": "nested"}}, "none": {"type": "user", "mapping": {"destination": "none"}}}}`,
      [
        {
          dataType: 'users',
          records: `[{"id": 1, "k": "record value"}, {"id": 2}]`,
          parentColumns: `{"k": "v", "a.b": 2.5, "n": {"x": true}, "unused": 1}`,
        },
      ],
    );
    assert.equal(sink.render('users'), '"id","k","dotted","nested","none"\n"1","v","2.5","1",""\n"2","v","2.5","1",""\n');
  });

  it('child-job parent columns (065 shape) and a user primary key', async () => {
    const { sink, router } = await runBatches(
      `{"detail": {"parent_id": {"type": "user", "mapping": {"destination": "user_id", "primaryKey": true}}, "x": "x"}}`,
      [
        { dataType: 'detail', records: `[{"x": "a"}]`, parentColumns: `{"parent_id": 123}` },
        { dataType: 'detail', records: `[{"x": "b"}]`, parentColumns: `{"parent_id": 234}` },
      ],
    );
    assert.equal(sink.render('detail'), '"user_id","x"\n"123","a"\n"234","b"\n');
    assert.deepEqual(router.primaryKeys().get('detail'), ['user_id']);
  });

  it('a non-scalar userData value is a data error', async () => {
    await rejects(
      runBatches(`{"t": {"u": {"type": "user", "mapping": {"destination": "u"}}}}`, [
        { dataType: 't', records: `[{}]`, parentColumns: `{"u": {"a": 1}}` },
      ]),
      "Error saving 't' data to CSV column: Error writing 'u' column: Cannot write data into column: array (\n  'a' => 1,\n)",
    );
  });
});

describe('primary keys (04 §7.3, §7.6)', () => {
  it('several primaryKey columns in mapping order; children get the joined values', async () => {
    const { sink, router } = await runBatches(
      `{"t": {"b": {"mapping": {"destination": "b", "primaryKey": true}}, "x": "x", "a": {"mapping": {"destination": "a", "primaryKey": "yes"}},
        "items": {"type": "table", "destination": "items", "tableMapping": {"v": "v"}}}}`,
      [
        {
          dataType: 't',
          records: `[{"a": "A", "b": "B", "x": 1, "items": [{"v": 1}, {"v": 2}]}, {"a": 1.0, "b": true, "items": {"v": 3}}, {"a": null, "b": false}]`,
        },
      ],
    );
    assert.deepEqual(rendered(sink), {
      items: '"v","t_pk"\n"1","B,A"\n"2","B,A"\n"3","1,1"\n"",","\n',
      t: '"b","x","a"\n"B","1","A"\n"1","","1"\n"","",""\n',
    });
    assert.deepEqual(Object.fromEntries(router.primaryKeys()), { t: ['b', 'a'] });
  });

  it('own primary key first, then the parent-key column with parentKey.primaryKey', async () => {
    const { sink, router } = await runBatches(
      `{"owners": {"id": {"mapping": {"destination": "id", "primaryKey": true}},
        "pets": {"type": "table", "destination": "pets", "parentKey": {"destination": "ownerId", "primaryKey": true},
          "tableMapping": {"pos": {"mapping": {"destination": "pos", "primaryKey": true}}, "name": "name",
            "toys": {"type": "table", "destination": "toys", "tableMapping": {".": "toy"}}}}}}`,
      [{ dataType: 'owners', records: `[{"id": 7, "pets": [{"pos": 1, "name": "Rex", "toys": ["ball"]}]}]` }],
    );
    assert.deepEqual(rendered(sink), {
      toys: '"toy","pets_pk"\n"ball","1,7"\n',
      pets: '"pos","name","ownerId"\n"1","Rex","7"\n',
      owners: '"id"\n"7"\n',
    });
    assert.deepEqual(Object.fromEntries(router.primaryKeys()), { owners: ['id'], pets: ['pos', 'ownerId'] });
  });

  it('a non-scalar primary-key value is rejected (prefixed)', async () => {
    await rejects(
      runBatches(
        `{"t": {"id": {"mapping": {"destination": "id", "primaryKey": true}}, "c": {"type": "table", "destination": "c", "tableMapping": {"v": "v"}}}}`,
        [{ dataType: 't', records: `[{"id": {"x": [1, 0.5]}, "c": [{"v": 1}]}]` }],
      ),
      'Bad Json to CSV Mapping configuration: Only scalar values are allowed in primary key. Primary key: [{"x":[1,0.5]}]',
    );
  });
});

describe('table definitions (04 §7.4, §7.5)', () => {
  const interests = `{"users": {"name": "name", "interests": {"type": "table", "destination": "user-interests", "tableMapping": {".": "interest"}}}}`;

  it('no primary key: bare md5 of serialize(record) as link, default parent key <table>_pk', async () => {
    const record = `{"name":"A","interests":["x","y"]}`;
    const { sink } = await runBatches(interests, [{ dataType: 'users', records: `[${record}]` }]);
    const link = md5('O:8:"stdClass":2:{s:4:"name";s:1:"A";s:9:"interests";a:2:{i:0;s:1:"x";i:1;s:1:"y";}}');
    assert.deepEqual(rendered(sink), {
      'user-interests': `"interest","users_pk"\n"x","${link}"\n"y","${link}"\n`,
      users: `"name","user-interests"\n"A","${link}"\n`,
    });
  });

  it('the link hash appends serialize(userData) when the batch has parent columns', async () => {
    const { sink } = await runBatches(interests, [
      { dataType: 'users', records: `[{"name":"A","interests":["x"]}]`, parentColumns: `{"k": "v", "5": 1}` },
    ]);
    const link = md5('O:8:"stdClass":2:{s:4:"name";s:1:"A";s:9:"interests";a:1:{i:0;s:1:"x";}}' + 'a:2:{s:1:"k";s:1:"v";i:5;i:1;}');
    assert.equal(sink.render('users'), `"name","user-interests"\n"A","${link}"\n`);
  });

  it('nested tables hash the nested value only: identical values under different parents link alike', async () => {
    const { sink } = await runBatches(
      `{"u": {"id": "id", "c": {"type": "table", "destination": "contacts", "tableMapping": {"e": "e", "a": {"type": "table", "destination": "addresses", "tableMapping": {"s": "s"}}}}}}`,
      [{ dataType: 'u', records: `[{"id": 1, "c": {"e": "x", "a": [{"s": "S"}]}}, {"id": 2, "c": {"e": "x", "a": [{"s": "S"}]}}]` }],
    );
    const contact = md5('O:8:"stdClass":2:{s:1:"e";s:1:"x";s:1:"a";a:1:{i:0;O:8:"stdClass":1:{s:1:"s";s:1:"S";}}}');
    const t = rendered(sink);
    assert.equal(t['addresses'], `"s","contacts_pk"\n"S","${contact}"\n"S","${contact}"\n`);
    assert.match(
      t['contacts']!,
      new RegExp(`^"e","addresses","u_pk"\\n"x","${contact}","[0-9a-f]{32}"\\n"x","${contact}","[0-9a-f]{32}"\\n$`),
    );
  });

  it('no primary key and an empty value: empty link cell, no child row; an object is never empty', async () => {
    const { sink } = await runBatches(`{"t": {"id": "id", "c": {"type": "table", "destination": "c", "tableMapping": {"v": "v"}}}}`, [
      {
        dataType: 't',
        records: `[{"id": 1}, {"id": 2, "c": null}, {"id": 3, "c": []}, {"id": 4, "c": 0}, {"id": 5, "c": "0"}, {"id": 6, "c": false}, {"id": 7, "c": {}}]`,
      },
    ]);
    const t = rendered(sink);
    assert.match(t['t']!, /^"id","c"\n"1",""\n"2",""\n"3",""\n"4",""\n"5",""\n"6",""\n"7","[0-9a-f]{32}"\n$/);
    assert.match(t['c']!, /^"v","t_pk"\n"","[0-9a-f]{32}"\n$/);
  });

  it('with a primary key: missing → one row of empty cells + parent key, [] → none, scalar → one-element list', async () => {
    const { sink } = await runBatches(
      `{"t": {"id": {"mapping": {"destination": "id", "primaryKey": true}}, "c": {"type": "table", "destination": "c", "tableMapping": {".": "v"}}}}`,
      [
        {
          dataType: 't',
          records: `[{"id": 1}, {"id": 2, "c": []}, {"id": 3, "c": "s"}, {"id": 4, "c": ["x", "y"]}, {"id": 5, "c": null}, {"id": 6, "c": 0}]`,
        },
      ],
    );
    assert.deepEqual(rendered(sink), {
      c: '"v","t_pk"\n"","1"\n"s","3"\n"x","4"\n"y","4"\n"","5"\n"0","6"\n',
      t: '"id"\n"1"\n"2"\n"3"\n"4"\n"5"\n"6"\n',
    });
  });

  it('parentKey.destination names the child column; parentKey.disable drops both link and parent columns', async () => {
    const { sink } = await runBatches(
      `{"t": {"id": "id", "a": {"type": "table", "destination": "a", "parentKey": {"destination": "owner"}, "tableMapping": {"v": "v"}},
        "b": {"type": "table", "destination": "b", "parentKey": {"disable": true}, "tableMapping": {"v": "v"}}}}`,
      [{ dataType: 't', records: `[{"id": 1, "a": [{"v": 1}], "b": [{"v": 2}]}]` }],
    );
    const t = rendered(sink);
    assert.match(t['t']!, /^"id","a"\n"1","([0-9a-f]{32})"\n$/);
    const link = /"1","([0-9a-f]{32})"/.exec(t['t']!)![1];
    assert.equal(t['a'], `"v","owner"\n"1","${link}"\n`);
    assert.equal(t['b'], '"v"\n"2"\n');
  });

  it('child rows are written before the parent row', async () => {
    const sink = new MemorySink();
    const order: string[] = [];
    const logging = {
      open: (name: string, header: readonly string[]) => {
        const w = sink.open(name, header);
        return {
          write: (cells: readonly string[]) => {
            order.push(name + ':' + cells[0]);
            w.write(cells);
          },
        };
      },
    };
    const router = new MappingRouter({
      mappings: cfg(`{"t": {"id": "id", "c": {"type": "table", "destination": "c", "tableMapping": {".": "v"}}}}`),
      auto: new StubAuto(),
      sink: logging,
    });
    router.addBatch(resp(`[{"id": 1, "c": ["a", "b"]}, {"id": 2, "c": ["c"]}]`) as Value[], 't', new Map());
    await router.finish();
    assert.deepEqual(order, ['c:a', 'c:b', 't:1', 'c:c', 't:2']);
  });

  it('self-reference with parentKey.disable maps children into the same table first (072 shape)', async () => {
    const { sink } = await runBatches(
      `{"p": {"id": "id", "kids": {"type": "table", "destination": "p", "parentKey": {"disable": true}}}}`,
      [{ dataType: 'p', records: `[{"id": 1, "kids": [{"id": 11, "kids": [{"id": 111}]}, {"id": 12}]}, {"id": 2, "kids": {"id": 21}}]` }],
    );
    assert.equal(sink.render('p'), '"id"\n"111"\n"11"\n"12"\n"1"\n"21"\n"2"\n');
  });

  it('two table definitions with the same destination share one table', async () => {
    const { sink } = await runBatches(
      `{"t": {"id": {"mapping": {"destination": "id", "primaryKey": true}}, "a": {"type": "table", "destination": "x", "tableMapping": {".": "v"}}, "b": {"type": "table", "destination": "x"}}}`,
      [{ dataType: 't', records: `[{"id": 1, "a": ["a1"], "b": ["b1", "b2"]}]` }],
    );
    assert.equal(sink.render('x'), '"v","t_pk"\n"a1","1"\n"b1","1"\n"b2","1"\n');
  });

  it('a deep path links straight to the root (069 shape) and a custom delimiter applies to table keys', async () => {
    const { sink } = await runBatches(
      `{"u": {"id": {"mapping": {"destination": "id", "primaryKey": true}}, "c/list/0": {"type": "table", "destination": "first", "delimiter": "/", "tableMapping": {"s": "s"}}}}`,
      [{ dataType: 'u', records: `[{"id": 5, "c": {"list": [{"s": "one"}, {"s": "two"}]}}]` }],
    );
    assert.equal(sink.render('first'), '"s","u_pk"\n"one","5"\n');
  });
});

describe('mapping configuration errors raised while processing (04 §7.3, §7.5)', () => {
  it("Key 'mapping.destination' is not set — at the first batch, even an empty one", async () => {
    for (const def of [
      `{"type": "column"}`,
      `{"mapping": {}}`,
      `{"mapping": {"destination": ""}}`,
      `{"type": "user", "mapping": {"primaryKey": true}}`,
      `5`,
    ]) {
      await rejects(
        runBatches(`{"users": {"id": ${def}}}`, [{ dataType: 'users', records: `[]` }]),
        "Bad Json to CSV Mapping configuration: Key 'mapping.destination' is not set for column 'id'.",
        'parameters.config.mappings.users.id.mapping.destination',
      );
    }
  });

  it("Key 'destination' is not set for table — header of a mapper without primary key", async () => {
    await rejects(
      runBatches(`{"users": {"id": "id", "t": {"type": "table", "tableMapping": {"a": "a"}}}}`, [{ dataType: 'users', records: `[]` }]),
      "Bad Json to CSV Mapping configuration: Key 'destination' is not set for table 't'.",
      'parameters.config.mappings.users.t.destination',
    );
  });

  it("Key 'destination' is not set for table — with a primary key, when a record is processed", async () => {
    const mapping = `{"users": {"id": {"mapping": {"destination": "id", "primaryKey": true}}, "t": {"type": "table", "tableMapping": {"a": "a"}}}}`;
    const ok = await runBatches(mapping, [{ dataType: 'users', records: `[]` }]);
    assert.equal(ok.sink.render('users'), '"id"\n');
    await rejects(
      runBatches(mapping, [{ dataType: 'users', records: `[{"id": 1}]` }]),
      "Bad Json to CSV Mapping configuration: Key 'destination' is not set for table 't'.",
    );
  });

  it("Key 'tableMapping' is not set — when a record is processed (even with an empty value)", async () => {
    const mapping = `{"users": {"id": "id", "t": {"type": "table", "destination": "x"}}}`;
    const ok = await runBatches(mapping, [{ dataType: 'users', records: `[]` }]);
    assert.equal(ok.sink.render('users'), '"id","x"\n');
    await rejects(
      runBatches(mapping, [{ dataType: 'users', records: `[{"id": 1}]` }]),
      "Bad Json to CSV Mapping configuration: Key 'tableMapping' is not set for table 't'.",
      'parameters.config.mappings.users.t.tableMapping',
    );
  });

  it("'parentKey.disable' must be true to parse child values into parent's table", async () => {
    for (const parentKey of ['', `, "parentKey": {"disable": false}`, `, "parentKey": {"destination": "x"}`]) {
      await rejects(
        runBatches(`{"users": {"id": "id", "kids": {"type": "table", "destination": "users"${parentKey}}}}`, [
          { dataType: 'users', records: `[{"id": 1}]` },
        ]),
        "Bad Json to CSV Mapping configuration: 'parentKey.disable' must be true to parse child values into parent's table",
        'parameters.config.mappings.users.kids.parentKey.disable',
      );
    }
  });
});
