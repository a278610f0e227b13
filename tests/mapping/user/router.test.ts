/**
 * MappingRouter: start-up checks (04 §7.1), routing, header-only root tables (§1.5), merging of
 * results (§7.9), primary keys (§7.6), and the real automatic parser behind it.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { UserError } from '../../../src/errors/UserError.ts';
import { MappingRouter } from '../../../src/mapping/router.ts';
import { createAutoParser } from '../../../src/mapping/auto/index.ts';
import type { Value } from '../../../src/php/value.ts';
import { MemorySink, StubAuto, cfg, rendered, resp, runBatches } from './helpers.ts';

function construct(mappings: Value | undefined): MappingRouter {
  return new MappingRouter({ mappings, auto: new StubAuto(), sink: new MemorySink() });
}

function throwsUser(fn: () => unknown, message: string, configPath?: string): void {
  assert.throws(fn, (e: unknown) => {
    assert.ok(e instanceof UserError);
    assert.equal(e.message, message);
    if (configPath !== undefined) assert.equal(e.configPath, configPath);
    return true;
  });
}

describe('start-up checks (04 §7.1)', () => {
  it('an empty mapping is rejected, in key order', () => {
    for (const empty of ['null', '""', '[]', '{}', '0', 'false', '"0"', '0.0']) {
      throwsUser(
        () => construct(cfg(`{"ok": {"a": "a"}, "users": ${empty}, "later": 5}`)),
        "Empty mapping for 'users' data type in 'mappings' config.",
        'parameters.config.mappings.users',
      );
    }
  });

  it('a non-array mapping names its PHP type', () => {
    const cases: [string, string][] = [
      ['"abc"', 'string'],
      ['12', 'integer'],
      ['1.5', 'double'],
      ['true', 'boolean'],
    ];
    for (const [json, type] of cases) {
      throwsUser(
        () => construct(cfg(`{"users": ${json}}`)),
        `Mapping must be 'array' type, '${type}' type given, for 'users' data type in 'mappings' config.`,
      );
    }
  });

  it('definition problems are not checked at start-up; list mappings are accepted', () => {
    construct(cfg(`{"users": {"id": {"type": "column"}, "t": {"type": "table"}}, "other": ["a"]}`));
    construct(undefined);
    construct(cfg(`{}`));
    construct(cfg(`"not a map"`));
  });
});

describe('routing', () => {
  it('mapped dataTypes go to the mapper (exact key), others to the automatic parser with their parent columns', async () => {
    const sink = new MemorySink();
    const auto = new StubAuto();
    const router = new MappingRouter({ mappings: cfg(`{"users": {"id": "id"}}`), auto, sink });
    assert.equal(router.hasMapping('users'), true);
    assert.equal(router.hasMapping('Users'), false);
    router.addBatch(resp(`[{"id": 1}]`) as Value[], 'users', new Map([['k', 'v']]));
    router.addBatch(resp(`[{"id": 2}]`) as Value[], 'Users', new Map([['k', 'v']]));
    assert.equal(auto.batches.length, 1);
    assert.equal(auto.batches[0]!.dataType, 'Users');
    assert.deepEqual([...auto.batches[0]!.parentColumns], [['k', 'v']]);
    assert.equal(sink.render('users'), '"id"\n"1"\n');
    assert.equal(auto.wrote, 0);
    await router.finish();
    await router.finish();
    assert.equal(auto.wrote, 1);
  });

  it('empty mappings: everything goes to the automatic parser', async () => {
    const { auto, sink } = await runBatches(`{}`, [{ dataType: 'users', records: `[{"id": 1}]` }]);
    assert.equal(auto.batches.length, 1);
    assert.equal(sink.tables.size, 0);
  });

  it('the root table exists as soon as one batch arrived, even with zero records; unused mappings create nothing', async () => {
    const { sink } = await runBatches(
      `{"users": {"id": "id", "c": {"type": "table", "destination": "c", "tableMapping": {"a": "a"}}}, "unused": {"x": "x"}}`,
      [{ dataType: 'users', records: `[]` }],
    );
    assert.deepEqual(rendered(sink), { users: '"id","c"\n' });
  });

  it('rows are streamed: the sink has them before finish()', () => {
    const sink = new MemorySink();
    const router = new MappingRouter({ mappings: cfg(`{"users": {"id": "id"}}`), auto: new StubAuto(), sink });
    router.addBatch(resp(`[{"id": 1}, {"id": 2}]`) as Value[], 'users', new Map());
    assert.equal(sink.tables.get('users')!.rows.length, 2);
  });
});

describe('merging results (04 §7.9)', () => {
  it('mapper and automatic parser with identical headers: automatic rows appended to the mapper table', async () => {
    const { sink, router } = await runBatches(
      `{"users": {"id": {"mapping": {"destination": "id", "primaryKey": true}}}}`,
      [{ dataType: 'users', records: `[{"id": 1}]` }],
      [
        { name: 'users', header: ['id'], rows: [['auto']] },
        { name: 'other', header: ['x'], rows: [['y']] },
      ],
    );
    assert.deepEqual(rendered(sink), { users: '"id"\n"1"\n"auto"\n', other: '"x"\n"y"\n' });
    assert.deepEqual(Object.fromEntries(router.primaryKeys()), { users: ['id'] });
  });

  it('mapper and automatic parser with different headers: user error after the output phase', async () => {
    await assert.rejects(
      runBatches(
        `{"users": {"id": "id"}}`,
        [{ dataType: 'users', records: `[{"id": 1}]` }],
        [{ name: 'users', header: ['id', 'name'], rows: [['1', 'a']] }],
      ),
      (e: unknown) => e instanceof UserError && e.message === "Multiple results for 'users' table have different columns!",
    );
  });

  const twoMappers = (header: string): string =>
    `{"users": {"id": {"mapping": {"destination": "id", "primaryKey": true}}},
      "orders": {"oid": "oid", "buyer": {"type": "table", "destination": "users", "tableMapping": {${header}}}}}`;

  it('two mappers writing one table with identical headers: earlier mapper first, later rows appended', async () => {
    const mappings = `{"users": {"id": {"mapping": {"destination": "id", "primaryKey": true}}, "o": {"type": "table", "destination": "x", "parentKey": {"disable": true}, "tableMapping": {"v": "v"}}},
      "orders": {"oid": "oid", "lines": {"type": "table", "destination": "x", "parentKey": {"disable": true}, "tableMapping": {"v": "v"}}}}`;
    const { sink, router } = await runBatches(mappings, [
      { dataType: 'orders', records: `[{"oid": 1, "lines": [{"v": "o1"}, {"v": "o2"}]}]` },
      { dataType: 'users', records: `[{"id": 1, "o": {"v": "u1"}}]` },
      { dataType: 'orders', records: `[{"oid": 2, "lines": [{"v": "o3"}]}]` },
      { dataType: 'users', records: `[{"id": 2, "o": {"v": "u2"}}]` },
    ]);
    assert.deepEqual(rendered(sink), {
      orders: '"oid"\n"1"\n"2"\n',
      users: '"id"\n"1"\n"2"\n',
      x: '"v"\n"u1"\n"u2"\n"o1"\n"o2"\n"o3"\n',
    });
    assert.deepEqual(Object.fromEntries(router.primaryKeys()), { users: ['id'] });
  });

  it('the later producer owns the file when the earlier one never wrote it', async () => {
    const mappings = `{"users": {"id": "id", "o": {"type": "table", "destination": "x", "parentKey": {"disable": true}, "tableMapping": {"v": "v"}}},
      "orders": {"lines": {"type": "table", "destination": "x", "parentKey": {"disable": true}, "tableMapping": {"v": "v"}}}}`;
    const { sink } = await runBatches(mappings, [{ dataType: 'orders', records: `[{"lines": [{"v": "o1"}]}]` }]);
    assert.deepEqual(rendered(sink), { orders: '\n', x: '"v"\n"o1"\n' });
  });

  it('two mappers with different headers for one table: user error when results are collected', async () => {
    await assert.rejects(
      runBatches(twoMappers(`"id": "id"`), [
        { dataType: 'orders', records: `[{"oid": 1, "buyer": {"id": "b"}}]` },
        { dataType: 'users', records: `[{"id": "u"}]` },
      ]),
      (e: unknown) => e instanceof UserError && e.message === "Multiple results for 'users' table have different columns!",
    );
  });

  it('a nested mapper named like its own root is merged too (pre-order: root first)', async () => {
    const mappings = `{"n": {"v": "v", "c": {"type": "table", "destination": "m", "parentKey": {"disable": true},
      "tableMapping": {"d": {"type": "table", "destination": "n", "parentKey": {"disable": true}, "tableMapping": {"v": "v"}}}}}}`;
    const { sink } = await runBatches(mappings, [
      { dataType: 'n', records: `[{"v": "root1", "c": {"d": [{"v": "deep1"}]}}, {"v": "root2", "c": {"d": {"v": "deep2"}}}]` },
    ]);
    assert.deepEqual(rendered(sink), { n: '"v"\n"root1"\n"root2"\n"deep1"\n"deep2"\n', m: '\n\n' });
  });
});

describe('with the real automatic parser', () => {
  it('unmapped dataTypes become automatic tables in the same sink, after the mapper tables', async () => {
    const spoolDir = fs.mkdtempSync(path.join(os.tmpdir(), 'router-auto-'));
    try {
      const auto = createAutoParser({ state: undefined, compatLevel: 3, spoolDir, logger: { warning: () => {}, debug: () => {} } });
      const sink = new MemorySink();
      const router = new MappingRouter({
        mappings: cfg(`{"users": {"id": {"mapping": {"destination": "id", "primaryKey": true}}}}`),
        auto,
        sink,
        spoolDir,
      });
      router.addBatch(resp(`[{"id": 1, "tags": ["a"]}]`) as Value[], 'users', new Map());
      router.addBatch(resp(`[{"id": 10, "tags": ["a", "b"]}]`) as Value[], 'orders', new Map());
      router.addBatch(resp(`[]`) as Value[], 'empty', new Map());
      await router.finish();
      auto.close();
      assert.deepEqual(sink.opens.slice(0, 1), ['users']);
      const t = rendered(sink);
      assert.equal(t['users'], '"id"\n"1"\n');
      assert.match(t['orders']!, /^"id","tags"\n"10","orders_[0-9a-f]{32}"\n$/);
      assert.match(t['orders_tags']!, /^"data","JSON_parentId"\n"a","orders_[0-9a-f]{32}"\n"b","orders_[0-9a-f]{32}"\n$/);
      assert.equal(t['empty'], undefined);
      assert.deepEqual(Object.fromEntries(router.primaryKeys()), { users: ['id'] });
    } finally {
      fs.rmSync(spoolDir, { recursive: true, force: true });
    }
  });
});
