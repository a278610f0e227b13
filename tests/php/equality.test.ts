import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sameValue } from '../../src/php/equality.ts';
import { decodeJson } from '../../src/php/jsonDecode.ts';
import { JsonObject, PhpArray, PhpFloat, type Value } from '../../src/php/value.ts';

const response = (text: string): Value => decodeJson(text, 'response');
const config = (text: string): Value => decodeJson(text, 'config');

test('scalars: same type and value', () => {
  assert.ok(sameValue(1, 1));
  assert.ok(sameValue('a', 'a'));
  assert.ok(sameValue(null, null));
  assert.ok(sameValue(true, true));
  assert.ok(sameValue(9223372036854775807n, 9223372036854775807n));
  assert.ok(!sameValue('1', 1));
  assert.ok(!sameValue(0, false));
  assert.ok(!sameValue(null, false));
  assert.ok(!sameValue('', null));
});

test('int vs float: never the same, even with equal numeric values', () => {
  assert.ok(!sameValue(1, new PhpFloat(1)));
  assert.ok(!sameValue(new PhpFloat(1), 1));
  assert.ok(!sameValue(response('1'), response('1.0')));
  assert.ok(sameValue(response('1.0'), response('1.00')));
  assert.ok(sameValue(new PhpFloat(0.5), new PhpFloat(0.5)));
  assert.ok(!sameValue(new PhpFloat(0.5), new PhpFloat(0.25)));
});

test('NaN floats are the same value', () => {
  assert.ok(sameValue(new PhpFloat(NaN), new PhpFloat(NaN)));
  assert.ok(!sameValue(new PhpFloat(NaN), new PhpFloat(0)));
  assert.ok(sameValue([new PhpFloat(NaN)], [new PhpFloat(NaN)]));
});

test('objects: the same keys in the same order with the same values', () => {
  assert.ok(sameValue(response('{"a":1,"b":[2,{"c":null}]}'), response('{"a":1,"b":[2,{"c":null}]}')));
  assert.ok(!sameValue(response('{"a":1,"b":2}'), response('{"b":2,"a":1}')));
  assert.ok(!sameValue(response('{"a":1,"b":2}'), response('{"a":1,"b":2.0}')));
  assert.ok(!sameValue(response('{"a":1}'), response('{"a":1,"b":2}')));
  assert.ok(!sameValue(response('{"a":1,"b":2}'), response('{"a":1}')));
  assert.ok(sameValue(response('{}'), response('{}')));
});

test('lists: the same items in the same order; a list is not a map', () => {
  assert.ok(sameValue(response('[1,"2",[3]]'), response('[1,"2",[3]]')));
  assert.ok(!sameValue(response('[1,2]'), response('[2,1]')));
  assert.ok(!sameValue(response('[1,2]'), response('[1,2,3]')));
  assert.ok(!sameValue(response('[]'), response('{}')));
  assert.ok(!sameValue(response('{"0":1}'), [1]));
});

test('a decoded object (JsonObject) is not a configuration array (PhpArray)', () => {
  const object = response('{"a":1}');
  const array = config('{"a":1}');
  assert.ok(object instanceof JsonObject);
  assert.ok(array instanceof PhpArray);
  assert.ok(!sameValue(object, array));
  assert.ok(!sameValue(array, object));
  assert.ok(sameValue(array, new PhpArray([['a', 1]])));
});
