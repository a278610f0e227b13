import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sameValue } from '../../src/php/equality.ts';
import { valueFingerprint } from '../../src/php/fingerprint.ts';
import { decodeJson } from '../../src/php/jsonDecode.ts';
import { PhpArray, PhpFloat, type Value } from '../../src/php/value.ts';

const response = (text: string): Value => decodeJson(text, 'response');

/** Values that differ from one another only in ways sameValue notices (types, order, lengths, text). */
const VALUES: Value[] = [
  null,
  true,
  false,
  0,
  1,
  '1',
  '',
  new PhpFloat(1),
  new PhpFloat(0.5),
  new PhpFloat(Number.NaN),
  9223372036854775807n,
  response('[1,"2",[3]]'),
  response('[1,2]'),
  response('[2,1]'),
  response('[]'),
  response('{}'),
  response('{"a":1,"b":2}'),
  response('{"b":2,"a":1}'),
  response('{"a":1,"b":2.0}'),
  response('{"0":1}'),
  response('["a","b"]'),
  response('["ab"]'),
  response('{"ab":"c"}'),
  response('{"a":"bc"}'),
  new PhpArray([['a', 1]]),
  response('{"a":1}'),
  '\ud800',
  '\ufffd',
];

test('two values have the same fingerprint exactly when sameValue holds', () => {
  for (const a of VALUES) {
    for (const b of VALUES) {
      assert.equal(valueFingerprint(a) === valueFingerprint(b), sameValue(a, b), `${String(a)} / ${String(b)}`);
    }
  }
});

test('formatting of the body does not matter; the decoded value does', () => {
  assert.equal(valueFingerprint(response('{"a": [1, 2]}')), valueFingerprint(response('{"a":[1,2]}')));
  assert.equal(valueFingerprint(response('[1.0]')), valueFingerprint(response('[1.00]')));
  assert.notEqual(valueFingerprint(response('[1.0]')), valueFingerprint(response('[1]')));
  assert.equal(valueFingerprint(new PhpFloat(-0)), valueFingerprint(new PhpFloat(0)));
});

test('a value larger than one hashing chunk is fingerprinted whole', () => {
  const long = (last: string): Value =>
    response(JSON.stringify([...Array.from({ length: 20000 }, (_, i) => ({ id: i, t: 'x'.repeat(10) })), last]));
  assert.equal(valueFingerprint(long('a')), valueFingerprint(long('a')));
  assert.notEqual(valueFingerprint(long('a')), valueFingerprint(long('b')));
});
