import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { phpSerialize, md5Hex, md5OfSerialized, isCanonicalIntKey } from '../../src/php/serialize.ts';
import { decodeJson } from '../../src/php/jsonDecode.ts';
import { JsonObject, PhpArray, PhpFloat, type Value } from '../../src/php/value.ts';

const f = (x: number) => new PhpFloat(x);

test('spec 04 §2.2 example (010, first record) and its md5', () => {
  const rec = decodeJson('{"id":123,"name":"John Doe","tags":["active","admin"]}', 'response');
  const s = phpSerialize(rec);
  assert.equal(s, 'O:8:"stdClass":3:{s:2:"id";i:123;s:4:"name";s:8:"John Doe";s:4:"tags";a:2:{i:0;s:6:"active";i:1;s:5:"admin";}}');
  assert.equal(md5Hex(s), '3ca896f39b257a4f2d2f4784e7680c87');
});

test('scalars', () => {
  const cases: [Value, string][] = [
    [null, 'N;'],
    [true, 'b:1;'],
    [false, 'b:0;'],
    [0, 'i:0;'],
    [-42, 'i:-42;'],
    [9223372036854775807n, 'i:9223372036854775807;'],
    [-9223372036854775808n, 'i:-9223372036854775808;'],
    ['', 's:0:"";'],
    ['abc', 's:3:"abc";'],
    ['žk', 's:3:"žk";'],
    ['a"b;\\', 's:5:"a"b;\\";'],
    ['😀', 's:4:"😀";'],
    ['€'.repeat(40), `s:120:"${'€'.repeat(40)}";`],
    ['x'.repeat(100), `s:100:"${'x'.repeat(100)}";`],
  ];
  for (const [v, want] of cases) assert.equal(phpSerialize(v), want);
});

test('floats: 17 significant digits, E exponent', () => {
  const cases: [number, string][] = [
    [0.1, 'd:0.10000000000000001;'],
    [1.5, 'd:1.5;'],
    [-1.5, 'd:-1.5;'],
    [100, 'd:100;'],
    [1, 'd:1;'],
    [0, 'd:0;'],
    [-0, 'd:-0;'],
    [1e22, 'd:1.0E+22;'],
    [1e25, 'd:1.0000000000000001E+25;'],
    [0.00001, 'd:1.0000000000000001E-5;'],
    [Infinity, 'd:INF;'],
    [-Infinity, 'd:-INF;'],
    [NaN, 'd:NAN;'],
    [9223372036854775808, 'd:9.2233720368547758E+18;'],
  ];
  for (const [x, want] of cases) assert.equal(phpSerialize(f(x)), want, String(x));
  assert.equal(phpSerialize(decodeJson('1.0', 'response')), 'd:1;');
  assert.equal(phpSerialize(decodeJson('1', 'response')), 'i:1;');
});

test('objects: keys always strings', () => {
  assert.equal(phpSerialize(new JsonObject()), 'O:8:"stdClass":0:{}');
  assert.equal(
    phpSerialize(decodeJson('{"1":"a","b":{},"":null,"ž":[]}', 'response')),
    'O:8:"stdClass":4:{s:1:"1";s:1:"a";s:1:"b";O:8:"stdClass":0:{}s:0:"";N;s:2:"ž";a:0:{}}',
  );
});

test('lists', () => {
  assert.equal(phpSerialize([]), 'a:0:{}');
  assert.equal(phpSerialize([1, 'x', [null]]), 'a:3:{i:0;i:1;i:1;s:1:"x";i:2;a:1:{i:0;N;}}');
});

test('associative arrays (config userData): canonical int keys as i:', () => {
  const m = decodeJson(
    '{"5":1,"-3":2,"05":3,"a":4,"0":5,"-0":6,"1.0":7,"9223372036854775808":8,"-9223372036854775808":9}',
    'config',
  ) as PhpArray;
  assert.equal(
    phpSerialize(m),
    'a:9:{i:5;i:1;i:-3;i:2;s:2:"05";i:3;s:1:"a";i:4;i:0;i:5;s:2:"-0";i:6;s:3:"1.0";i:7;s:19:"9223372036854775808";i:8;i:-9223372036854775808;i:9;}',
  );
  assert.equal(phpSerialize(new PhpArray([['k', 'v']])), 'a:1:{s:1:"k";s:1:"v";}');
});

test('isCanonicalIntKey', () => {
  const yes = ['0', '5', '-3', '123', '9223372036854775807', '-9223372036854775808'];
  const no = [
    '',
    '-',
    '-0',
    '05',
    '00',
    '1.0',
    '1e3',
    ' 1',
    '1 ',
    '+1',
    'a',
    '9223372036854775808',
    '-9223372036854775809',
    '99999999999999999999',
  ];
  for (const k of yes) assert.equal(isCanonicalIntKey(k), true, k);
  for (const k of no) assert.equal(isCanonicalIntKey(k), false, k);
});

test('md5Hex hashes UTF-8 bytes', () => {
  assert.equal(md5Hex(''), 'd41d8cd98f00b204e9800998ecf8427e');
  assert.equal(md5Hex('abc'), '900150983cd24fb0d6963f7d28e17f72');
  const bytes = Buffer.from('žluť 😀', 'utf8');
  assert.equal(md5Hex('žluť 😀'), createHash('md5').update(bytes).digest('hex'));
  assert.match(md5Hex('x'), /^[0-9a-f]{32}$/);
});

test('md5OfSerialized (bytes, no strings) equals md5Hex(phpSerialize(v) + suffix)', () => {
  let s = 7;
  const rnd = () => {
    s = (s * 1103515245 + 12345) >>> 0;
    return s / 4294967296;
  };
  const strings = ['', 'a', 'ž', '😀', 'a"b;\\', 'x'.repeat(255), 'y'.repeat(256) + 'é', 'é'.repeat(300), '0', '12', '-3', '05', 'k\uD800'];
  const gen = (depth: number): Value => {
    const r = rnd();
    if (depth > 3 || r < 0.5) {
      const t = Math.floor(rnd() * 10);
      if (t === 0) return null;
      if (t === 1) return rnd() < 0.5;
      if (t === 2) return Math.floor((rnd() - 0.5) * 2 ** Math.floor(rnd() * 54));
      if (t === 3) return rnd() < 0.5 ? 9223372036854775807n : -123456789012345678n;
      if (t === 4) return f((rnd() - 0.5) * 10 ** Math.floor(rnd() * 40 - 20));
      if (t === 5) return f([0, -0, Infinity, -Infinity, NaN, 0.1, 1e17, 1e-5][Math.floor(rnd() * 8)]!);
      if (t === 6) return f(Math.floor(rnd() * 1e6) / 100 + 0.25);
      return strings[Math.floor(rnd() * strings.length)]!;
    }
    const n = Math.floor(rnd() * 5);
    if (r < 0.7) return Array.from({ length: n }, () => gen(depth + 1));
    const m = r < 0.85 ? new JsonObject() : new PhpArray();
    for (let i = 0; i < n; i++) m.set(strings[Math.floor(rnd() * strings.length)]! + (rnd() < 0.3 ? String(i) : ''), gen(depth + 1));
    return m;
  };
  for (let i = 0; i < 3000; i++) {
    const v = gen(0);
    const suffix = i % 3 === 0 ? '' : i % 3 === 1 ? 'items_0123456789abcdef0123456789abcdef' : 'ž';
    assert.equal(md5OfSerialized(v, suffix), md5Hex(phpSerialize(v) + suffix), phpSerialize(v));
  }
});
