import { test } from 'node:test';
import assert from 'node:assert/strict';
import { varExport } from '../../src/php/varExport.ts';
import { decodeJson } from '../../src/php/jsonDecode.ts';
import { JsonObject, PhpArray, PhpFloat, type Value } from '../../src/php/value.ts';

const f = (x: number) => new PhpFloat(x);

test('scalars (spec 03 §1.1 examples)', () => {
  const cases: [Value | undefined, string][] = [
    ['abc', "'abc'"],
    [5, '5'],
    [123, '123'],
    [-7, '-7'],
    [true, 'true'],
    [false, 'false'],
    [null, 'NULL'],
    [undefined, 'NULL'],
    ['', "''"],
    ["it's", "'it\\'s'"],
    ['a\\b', "'a\\\\b'"],
    ['a\0b', "'a' . \"\\0\" . 'b'"],
    ['žluť\n', "'žluť\n'"],
    [9223372036854775807n, '9223372036854775807'],
    [-9223372036854775808n, '-9223372036854775807-1'],
  ];
  for (const [v, want] of cases) assert.equal(varExport(v), want, want);
});

test('floats', () => {
  const cases: [number, string][] = [
    [1.5, '1.5'],
    [1, '1.0'],
    [0.1, '0.1'],
    [-0, '-0.0'],
    [100, '100.0'],
    [1e25, '1.0E+25'],
    [1.5e-7, '1.5E-7'],
    [Infinity, 'INF'],
    [-Infinity, '-INF'],
    [NaN, 'NAN'],
  ];
  for (const [x, want] of cases) assert.equal(varExport(f(x)), want, want);
  assert.equal(varExport(f(0.1), 'p17'), '0.10000000000000001');
  assert.equal(varExport(f(2), 'p17'), '2.0');
  assert.equal(varExport(decodeJson('1.0', 'config')), '1.0');
});

test('arrays', () => {
  assert.equal(varExport([]), 'array (\n)');
  assert.equal(varExport([1, 'a']), "array (\n  0 => 1,\n  1 => 'a',\n)");
  assert.equal(varExport([1, [2]]), 'array (\n  0 => 1,\n  1 => \n  array (\n    0 => 2,\n  ),\n)');
  assert.equal(
    varExport(decodeJson('{"a":{"b":[true]},"5":null,"x\'y":1.0}', 'config')),
    "array (\n  'a' => \n  array (\n    'b' => \n    array (\n      0 => true,\n    ),\n  ),\n  5 => NULL,\n  'x\\'y' => 1.0,\n)",
  );
  assert.equal(varExport(new PhpArray()), 'array (\n)');
});

test('objects (stdClass)', () => {
  assert.equal(varExport(new JsonObject()), '(object) array(\n)');
  assert.equal(varExport(decodeJson('{"a":1}', 'response')), "(object) array(\n   'a' => 1,\n)");
  assert.equal(
    varExport(decodeJson('{"1":{"c":[1]}}', 'response')),
    "(object) array(\n   '1' => \n  (object) array(\n     'c' => \n    array (\n      0 => 1,\n    ),\n  ),\n)",
  );
  assert.equal(varExport([decodeJson('{"a":1}', 'response')]), "array (\n  0 => \n  (object) array(\n     'a' => 1,\n  ),\n)");
});
