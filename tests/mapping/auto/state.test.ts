import { compatLevelOf } from '../../../src/config/outputOptions.ts';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pjson } from '../../../src/php/jsonEncode.ts';
import { decodeJson } from '../../../src/php/jsonDecode.ts';
import type { Value } from '../../../src/php/value.ts';
import { createAutoParser } from '../../../src/mapping/auto/index.ts';
import { MemorySink, runExample, testLogger, tmpSpoolDir } from '../helpers.ts';

function stateText(e: { struct: Value; version: number }): string {
  return `"json_parser.struct":${pjson(e.struct, 'shortest')},"json_parser.structVersion":${e.version}`;
}

test('025: parser part of the state equals the worked example of 04 §8', async () => {
  const { parser } = await runExample('025');
  const expected =
    '"json_parser.struct":{"data":{"_users":{"[]":{"_id":{"nodeType":"scalar","headerNames":"id"},"_name":{"nodeType":"scalar","headerNames":"name"},"nodeType":"object","headerNames":"data"},"nodeType":"array"},"_user-detail":{"[]":{"_id":{"nodeType":"scalar","headerNames":"id"},"_name":{"nodeType":"scalar","headerNames":"name"},"_parent_id":{"nodeType":"scalar","headerNames":"parent_id"},"_address":{"_city":{"nodeType":"scalar","headerNames":"address_city"},"_country":{"nodeType":"scalar","headerNames":"address_country"},"_street":{"nodeType":"scalar","headerNames":"address_street"},"nodeType":"object","headerNames":"address"},"nodeType":"object","headerNames":"data","_parent_id_u0":{"nodeType":"scalar","type":"parent","headerNames":"parent_id_u0"}},"nodeType":"array"}},"parent_aliases":{"parent_id":"parent_id_u0"}},"json_parser.structVersion":3';
  assert.equal(stateText(parser.stateEntries()), expected);
});

test('001: state of 03 §6.3', async () => {
  const { parser } = await runExample('001');
  assert.equal(
    stateText(parser.stateEntries()),
    '"json_parser.struct":{"data":{"_users":{"[]":{"_id":{"nodeType":"scalar","headerNames":"id"},"_name":{"nodeType":"scalar","headerNames":"name"},"_married":{"nodeType":"scalar","headerNames":"married"},"nodeType":"object","headerNames":"data"},"nodeType":"array"}},"parent_aliases":[]},"json_parser.structVersion":3',
  );
});

test('063: node attribute order and list nodes in the state (04 §8)', async () => {
  const { parser } = await runExample('063');
  const text = pjson(parser.stateEntries().struct, 'shortest');
  assert.ok(
    text.includes(
      '"_address":{"_street":{"nodeType":"scalar","headerNames":"address_street"},"_country":{"nodeType":"scalar","headerNames":"address_country"},"nodeType":"object","_city":{"nodeType":"scalar","headerNames":"address_city"},"headerNames":"address"}',
    ),
    text,
  );
  assert.ok(
    text.includes(
      '"_interests":{"[]":{"nodeType":"scalar","headerNames":"data","_JSON_parentId":{"nodeType":"scalar","type":"parent","headerNames":"JSON_parentId"}},"nodeType":"array","headerNames":"interests"}',
    ),
    text,
  );
});

test('no records at all: {"data":[],"parent_aliases":[]}', async () => {
  const p = createAutoParser({ state: undefined, compatLevel: 3, spoolDir: tmpSpoolDir(), logger: testLogger() });
  p.addBatch([], 'users', new Map());
  await p.writeTables(new MemorySink());
  assert.equal(stateText(p.stateEntries()), '"json_parser.struct":{"data":[],"parent_aliases":[]},"json_parser.structVersion":3');
  p.close();
});

test('123: legacy state loaded and written back (version 2)', async () => {
  const { parser, logger } = await runExample('123');
  assert.equal(parser.mode, 'legacy');
  assert.deepEqual(logger.warnings, ['Using legacy JSON parser, because it is in configuration state.']);
  assert.equal(
    stateText(parser.stateEntries()),
    '"json_parser.struct":{"users":{"id":"scalar","name":"scalar","modified":"scalar"}},"json_parser.structVersion":2',
  );
});

test('mode choice and warnings (04 §3)', async () => {
  const mk = (state: string | undefined, compat: Value | undefined) => {
    const logger = testLogger();
    const p = createAutoParser({
      state: state === undefined ? undefined : decodeJson(state, 'config'),
      compatLevel: compatLevelOf(compat),
      spoolDir: tmpSpoolDir(),
      logger,
    });
    return [p.mode, logger.warnings] as const;
  };
  assert.deepEqual(mk(undefined, undefined), ['current', []]);
  assert.deepEqual(mk(undefined, 0), ['current', []]);
  assert.deepEqual(mk(undefined, '0'), ['current', []]);
  assert.deepEqual(mk(undefined, 2), ['current', []]);
  assert.deepEqual(mk(undefined, 1), ['legacy', ['Using legacy JSON parser, because it has been explicitly requested.']]);
  assert.deepEqual(mk(undefined, '1'), ['legacy', ['Using legacy JSON parser, because it has been explicitly requested.']]);
  const cur =
    '{"json_parser.struct":{"data":{"_u":{"[]":{"nodeType":"scalar","headerNames":"data"},"nodeType":"array"}},"parent_aliases":[]},"json_parser.structVersion":3}';
  assert.deepEqual(mk(cur, 1), ['current', ['Ignored request for legacy JSON parser, because configuration is already upgraded.']]);
  const leg = '{"json_parser.struct":{"users":{"id":"scalar"}},"json_parser.structVersion":2}';
  assert.deepEqual(mk(leg, 3), ['legacy', ['Using legacy JSON parser, because it is in configuration state.']]);
  // 2.0 is not the integer 2: current mode, legacy-shaped struct loads as empty.
  const leg20 = '{"json_parser.struct":{"users":{"id":"scalar"}},"json_parser.structVersion":2.0}';
  assert.deepEqual(mk(leg20, 3), ['current', []]);
  // Empty struct: the compat level decides.
  assert.deepEqual(mk('{"json_parser.struct":[],"json_parser.structVersion":2}', 3), ['current', []]);
});

test('invalid current structure in the state fails', async () => {
  const bad = '{"json_parser.struct":{"data":{"_u":{"[]":{"nodeType":"weird"},"nodeType":"array"}}},"json_parser.structVersion":3}';
  assert.throws(() =>
    createAutoParser({ state: decodeJson(bad, 'config'), compatLevel: 3, spoolDir: tmpSpoolDir(), logger: testLogger() }),
  );
  const noItems = '{"json_parser.struct":{"data":{"_u":{"nodeType":"array"}}},"json_parser.structVersion":3}';
  assert.throws(() =>
    createAutoParser({ state: decodeJson(noItems, 'config'), compatLevel: 3, spoolDir: tmpSpoolDir(), logger: testLogger() }),
  );
});

test('inherit: a later parser starts from the accumulated structure and aliases', async () => {
  const logger = testLogger();
  const first = createAutoParser({ state: undefined, compatLevel: 3, spoolDir: tmpSpoolDir(), logger });
  const rec = decodeJson('[{"id":1,"tag":"x"}]', 'response') as Value[];
  first.addBatch(rec, 'users', new Map<string, Value>([['tag', 'dev']]));
  await first.writeTables(new MemorySink());
  const second = createAutoParser({ state: undefined, compatLevel: 3, spoolDir: tmpSpoolDir(), logger, inherit: first });
  second.addBatch(decodeJson('[{"name":"a","id":2}]', 'response') as Value[], 'users', new Map<string, Value>([['tag', 'dev']]));
  const sink = new MemorySink();
  await second.writeTables(sink);
  assert.equal(sink.render('users'), '"id","tag","tag_u0","name"\n"2","","dev","a"\n');
  first.close();
  second.close();
});

test('parent aliases of keys 0, 1 … (renumbered userData keys) are saved as a JSON list and load again', async () => {
  const state = '{"json_parser.struct":{"data":[],"parent_aliases":["0_u0"]},"json_parser.structVersion":3}';
  const p = createAutoParser({ state: decodeJson(state, 'config'), compatLevel: 3, spoolDir: tmpSpoolDir(), logger: testLogger() });
  p.addBatch(decodeJson('[{"a":1}]', 'response') as Value[], 'u', new Map<string, Value>([['0', 'x']]));
  const sink = new MemorySink();
  await p.writeTables(sink);
  p.close();
  // The key `0` is aliased to `0_u0` before anything else (04 §4.5).
  assert.deepEqual(sink.tables.get('u')?.header, ['a', '0_u0']);
  assert.match(stateText(p.stateEntries()), /"parent_aliases":\["0_u0"\]/);
});
