import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pjson, pjsonString, logJson, isListLike } from '../../src/php/jsonEncode.ts';
import { decodeJson } from '../../src/php/jsonDecode.ts';
import { JsonObject, PhpArray, PhpFloat, type Value } from '../../src/php/value.ts';

const f = (x: number) => new PhpFloat(x);

test('pjson: spec 01 §3.5 worked POST body (config-mode input, shortest floats)', () => {
  const merged = decodeJson('{"account":7,"q":"a/b é","limit":10,"ratio":1.0,"big":1e20,"f":{"x":null,"y":{}}}', 'config');
  assert.equal(pjson(merged, 'shortest'), '{"account":7,"q":"a\\/b \\u00e9","limit":10,"ratio":1,"big":1.0e+20,"f":{"x":null,"y":[]}}');
});

test('pjson: scalars', () => {
  const cases: [Value, string][] = [
    [null, 'null'],
    [true, 'true'],
    [false, 'false'],
    [0, '0'],
    [-5, '-5'],
    [9223372036854775807n, '9223372036854775807'],
    [-9223372036854775808n, '-9223372036854775808'],
    ['', '""'],
    ['abc', '"abc"'],
  ];
  for (const [v, want] of cases) {
    assert.equal(pjson(v, 'p17'), want);
    assert.equal(pjson(v, 'shortest'), want);
  }
});

test('pjson: floats p17 vs shortest (spec 04 §2.4, 01 §3.4.3)', () => {
  const cases: [number, string, string][] = [
    [0.1, '0.10000000000000001', '0.1'],
    [1, '1', '1'],
    [-0, '-0', '-0'],
    [1.5, '1.5', '1.5'],
    [1e20, '1.0e+20', '1.0e+20'],
    [2.5e-7, '2.4999999999999999e-7', '2.5e-7'],
    [1.5e-7, '1.4999999999999999e-7', '1.5e-7'],
    [0.00001, '1.0000000000000001e-5', '1.0e-5'],
    [1e14, '100000000000000', '100000000000000'],
    [1e16, '10000000000000000', '10000000000000000'],
    [1e17, '1.0e+17', '1.0e+17'],
    [9223372036854775808, '9.2233720368547758e+18', '9.223372036854776e+18'],
  ];
  for (const [x, p17, shortest] of cases) {
    assert.equal(pjson(f(x), 'p17'), p17, `p17 ${x}`);
    assert.equal(pjson(f(x), 'shortest'), shortest, `shortest ${x}`);
  }
  for (const x of [Infinity, -Infinity, NaN]) {
    assert.throws(() => pjson(f(x), 'p17'));
    assert.throws(() => pjson([f(x)], 'shortest'));
  }
});

test('pjson: string escaping', () => {
  const cases: [string, string][] = [
    ['a"b', '"a\\"b"'],
    ['a\\b', '"a\\\\b"'],
    ['a/b', '"a\\/b"'],
    ['\b\f\n\r\t', '"\\b\\f\\n\\r\\t"'],
    ['\u0000\u0001\u001f', '"\\u0000\\u0001\\u001f"'],
    ['\u007f', '"\u007f"'],
    ['é', '"\\u00e9"'],
    ['ž', '"\\u017e"'],
    ['😀', '"\\ud83d\\ude00"'],
    ['\u2028', '"\\u2028"'],
    ['\uFFFD', '"\\ufffd"'],
    ['mix é/"x"\n😀 end', '"mix \\u00e9\\/\\"x\\"\\n\\ud83d\\ude00 end"'],
    ['2017-09-14', '"2017-09-14"'],
  ];
  for (const [s, want] of cases) {
    assert.equal(pjsonString(s), want, JSON.stringify(s));
    assert.equal(pjson(s, 'p17'), want);
  }
});

test('pjson: containers', () => {
  assert.equal(pjson([], 'p17'), '[]');
  assert.equal(pjson(new JsonObject(), 'p17'), '{}');
  assert.equal(pjson(new PhpArray(), 'p17'), '[]');
  assert.equal(pjson(['2017-09-14', 'abc', '1', '2'], 'p17'), '["2017-09-14","abc","1","2"]');
  // Response objects stay objects even with list-like keys.
  assert.equal(pjson(decodeJson('{"0":"a","1":"b"}', 'response'), 'p17'), '{"0":"a","1":"b"}');
  // Configuration maps with keys 0..n-1 in order become lists, at any depth.
  assert.equal(pjson(decodeJson('{"0":"a","1":"b"}', 'config'), 'p17'), '["a","b"]');
  assert.equal(pjson(decodeJson('{"x":{"0":"a","1":{"0":1}}}', 'config'), 'p17'), '{"x":["a",[1]]}');
  assert.equal(pjson(decodeJson('{"1":"a","0":"b"}', 'config'), 'p17'), '{"1":"a","0":"b"}');
  assert.equal(pjson(decodeJson('{"0":"a","2":"b"}', 'config'), 'p17'), '{"0":"a","2":"b"}');
  assert.equal(pjson(decodeJson('{"00":"a"}', 'config'), 'p17'), '{"00":"a"}');
  // Keys are escaped like strings; order is stored order.
  assert.equal(pjson(decodeJson('{"b/é":1,"a":{"":[]},"1":{}}', 'response'), 'p17'), '{"b\\/\\u00e9":1,"a":{"":[]},"1":{}}');
  // Round trip of a nested response.
  const text = '{"id":123,"name":"John Doe","tags":["active","admin"],"n":{"x":1.5,"y":null,"z":true}}';
  assert.equal(pjson(decodeJson(text, 'response'), 'shortest'), text);
});

test('isListLike', () => {
  assert.equal(isListLike(new Map()), true);
  assert.equal(
    isListLike(
      new Map([
        ['0', 1],
        ['1', 2],
      ]),
    ),
    true,
  );
  assert.equal(isListLike(new Map([['1', 1]])), false);
  assert.equal(
    isListLike(
      new Map([
        ['0', 1],
        ['x', 2],
      ]),
    ),
    false,
  );
});

test('logJson: plain JS values', () => {
  const cases: [unknown, string][] = [
    [{}, '[]'],
    [[], '[]'],
    [null, 'null'],
    [undefined, 'null'],
    [{ a: undefined }, '{"a":null}'],
    [{ url: 'http://x/y', s: 'žluť 😀' }, '{"url":"http://x/y","s":"žluť 😀"}'],
    [{ q: 'a"b\\c\n\t\u0001\u007f' }, '{"q":"a\\"b\\\\c\\n\\t\\u0001\u007f"}'],
    [{ ls: '\u2028\u2029' }, '{"ls":"\\u2028\\u2029"}'],
    [{ n: 5, b: true, x: false, big: 12n }, '{"n":5,"b":true,"x":false,"big":12}'],
    [{ fl: 1.5, inf: Infinity, ninf: -Infinity, nan: NaN }, '{"fl":1.5,"inf":"INF","ninf":"-INF","nan":"NaN"}'],
    [['a', 'b'], '["a","b"]'],
    [{ 0: 'a', 1: 'b' }, '["a","b"]'],
    [{ json: '{"a":1}', errDetail: '' }, '{"json":"{\\"a\\":1}","errDetail":""}'],
  ];
  for (const [v, want] of cases) assert.equal(logJson(v), want, want);
});

test('logJson: value model, zero fractions', () => {
  assert.equal(logJson(f(1)), '1.0');
  assert.equal(logJson(f(-0)), '-0.0');
  assert.equal(logJson(f(1.5)), '1.5');
  assert.equal(logJson(f(0.1)), '0.10000000000000001');
  assert.equal(logJson(f(0.1), 'shortest'), '0.1');
  assert.equal(logJson(f(1e16), 'shortest'), '10000000000000000.0');
  assert.equal(logJson(f(1e20)), '1.0e+20');
  assert.equal(logJson(f(Infinity)), '"INF"');
  assert.equal(logJson({ body: decodeJson('{"a":[1,2.0],"e":{}}', 'response') }), '{"body":{"a":[1,2.0],"e":{}}}');
  assert.equal(logJson(decodeJson('{"a":{},"0":1}', 'config')), '{"a":[],"0":1}');
  assert.equal(logJson(decodeJson('{"0":"x"}', 'config')), '["x"]');
  assert.equal(logJson(new Error('boom')), '{"class":"Error","message":"boom"}');
});

test('logJson: values deeper than 9 levels are replaced', () => {
  const nest = (n: number): unknown => (n === 0 ? 1 : { a: nest(n - 1) });
  // Context = level 1; its member values level 2; level 10 is replaced.
  assert.equal(logJson(nest(8)), '{"a":'.repeat(8) + '1' + '}'.repeat(8));
  assert.equal(logJson(nest(9)), '{"a":'.repeat(9) + '"Over 9 levels deep, aborting normalization"' + '}'.repeat(9));
  assert.equal(logJson(nest(20)), '{"a":'.repeat(9) + '"Over 9 levels deep, aborting normalization"' + '}'.repeat(9));
  // A self-referencing object terminates.
  const cyclic: Record<string, unknown> = {};
  cyclic.self = cyclic;
  assert.match(logJson(cyclic), /Over 9 levels deep/);
});

test('logJson: more than 1000 items are cut', () => {
  const out = logJson(Array.from({ length: 1002 }, (_, i) => i));
  assert.ok(out.endsWith(',"999":999,"...":"Over 1000 items (1002 total), aborting normalization"}'), out.slice(-80));
  assert.ok(out.startsWith('{"0":0,"1":1,'));
  assert.equal(logJson(Array.from({ length: 1000 }, () => 0)), '[' + Array(1000).fill('0').join(',') + ']');
});
