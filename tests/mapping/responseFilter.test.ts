import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeJson } from '../../src/php/jsonDecode.ts';
import { pjson } from '../../src/php/jsonEncode.ts';
import type { Value } from '../../src/php/value.ts';
import { UserError } from '../../src/errors/UserError.ts';
import { applyResponseFilter, FilterEdits } from '../../src/mapping/responseFilter.ts';
import { sameValue } from '../../src/php/equality.ts';

const f = (json: string, filter: Value, compat: number, delim: Value = null) =>
  pjson(applyResponseFilter(decodeJson(json, 'response') as Value[], filter, delim, compat), 'p17');

test('compat 3: JSON text of strings, null and objects; missing member skipped', () => {
  assert.equal(
    f('[{"c":"green","n":null},{"c":{"i":[1]}},{"x":1},5]', ['c', 'n'], 3),
    '[{"c":"\\"green\\"","n":"null"},{"c":"{\\"i\\":[1]}"},{"x":1},5]',
  );
});

test('compat 2: scalars as PHP strings, empty members unchanged', () => {
  assert.equal(
    f('[{"c":"green","b":true,"z":0,"fl":0.30000000000000004,"o":{"a":1.5}}]', ['c', 'b', 'z', 'fl', 'o'], 2),
    '[{"c":"green","b":"1","z":0,"fl":"0.3","o":"{\\"a\\":1.5}"}]',
  );
  assert.equal(f('[{"fl":0.30000000000000004}]', 'fl', 3), '[{"fl":"0.30000000000000004"}]');
});

test('list paths, nested paths, custom delimiter', () => {
  assert.equal(f('[{"c":[{"p":{"a":1},"t":1},{"p":"s"}]}]', 'c[].p', 3), '[{"c":[{"p":"{\\"a\\":1}","t":1},{"p":"\\"s\\""}]}]');
  assert.equal(f('[{"t":[1,"a"]}]', 't[]', 3), '[{"t":["1","\\"a\\""]}]');
  assert.equal(f('[{"a.b":{"c":{"d":1}}}]', 'a.b#c', 3, '#'), '[{"a.b":{"c":"{\\"d\\":1}"}}]');
  // a boolean where an object is expected: unchanged (015)
  assert.equal(f('[{"married":true},{"married":false}]', 'married.some', 3), '[{"married":true},{"married":false}]');
});

test('error when a [] member is not a list', () => {
  assert.throws(
    () => f('[{"a":1}]', 'a[]', 3),
    (e: unknown) => e instanceof UserError && e.message === "Error filtering response. 'a' is not an array.",
  );
  // compat <= 2 skips empty members before the check
  assert.equal(f('[{"a":0}]', 'a[]', 2), '[{"a":0}]');
  assert.throws(() => f('[{"a":null}]', 'a[]', 3), UserError);
});

test('empty filter: unchanged', () => {
  assert.equal(f('[{"a":1}]', '', 3), '[{"a":1}]');
  assert.equal(f('[{"a":1}]', null, 3), '[{"a":1}]');
});

test('a rest segment "0" is a path, not "no rest": through a list it changes nothing (issue 22)', () => {
  // The reference: `""` in the cell (an empty list), not the JSON text "[]".
  assert.equal(f('[{"e":[]},{"e":[1]}]', 'e/0', 3, '/'), '[{"e":[]},{"e":[1]}]');
  assert.equal(f('[{"e":{"0":{"x":1}}}]', 'e.0', 3), '[{"e":{"0":"{\\"x\\":1}"}}]');
  assert.equal(f('[{"e":{"0":true}}]', 'e.0', 2), '[{"e":{"0":"1"}}]');
});

test('a path ending with its delimiter walks into the member and looks for a member named "" (issue 33)', () => {
  // The reference filters nothing: `a/` is `a`, then the path "" inside it.
  assert.equal(f('[{"a":[1,2]}]', 'a/', 3, '/'), '[{"a":[1,2]}]');
  assert.equal(f('[{"a":{"b":1}}]', 'a.', 3), '[{"a":{"b":1}}]');
  assert.equal(f('[{"..":"x"}]', '../', 3, '/'), '[{"..":"x"}]');
  assert.equal(f('[{"t":[{"b":1}]}]', 't[].', 3), '[{"t":[{"b":1}]}]');
  // ... so only a member really named "" is encoded.
  assert.equal(f('[{"a":{"":{"b":1}}}]', 'a.', 3), '[{"a":{"":"{\\"b\\":1}"}}]');
});

test('the edits of a filter show the response as decoded while a reader looks, then the filtered one again (issue 33)', () => {
  const text = '{"items":[{"id":1,"tags":[1,2],"c":[{"p":{"a":1}}]},{"id":2,"tags":"x"}]}';
  const response = decodeJson(text, 'response') as Map<string, Value>;
  const edits = new FilterEdits();
  applyResponseFilter(response.get('items') as Value[], ['tags', 'c[].p'], null, 3, edits);
  const filtered = pjson(response, 'p17');
  assert.equal(filtered, '{"items":[{"id":1,"tags":"[1,2]","c":[{"p":"{\\"a\\":1}"}]},{"id":2,"tags":"\\"x\\""}]}');
  assert.ok(!sameValue(response, decodeJson(text, 'response')));
  assert.ok(edits.whileUndone(() => sameValue(response, decodeJson(text, 'response'))));
  assert.equal(pjson(response, 'p17'), filtered, 'the filtered records are back');
});
