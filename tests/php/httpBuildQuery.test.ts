import assert from 'node:assert/strict';
import { test } from 'node:test';
import { httpBuildQuery } from '../../src/php/httpBuildQuery.ts';
import { mergeParamsIntoUrl } from '../../src/php/mergeQuery.ts';
import { JsonObject, PhpArray } from '../../src/php/value.ts';
import { m, f } from './helpers.ts';

test('httpBuildQuery: spec 01 §3.4.1 test vector (key "0" kept by the encoder itself)', () => {
  // explicit entries: a JS object literal would move the key "0" first
  const params = new PhpArray([
    ['t', true],
    ['f', false],
    ['n', null],
    ['fl', f(1.5)],
    ['f2', f(2.0)],
    ['arr', [1, 'a b']],
    ['obj', m({ x: 1, y: m({ z: 2 }) })],
    ['e', []],
    ['0', 'zero'],
    ['s', "~!*()'"],
  ]);
  assert.equal(
    httpBuildQuery(params),
    't=1&f=0&fl=1.5&f2=2&arr%5B0%5D=1&arr%5B1%5D=a+b&obj%5Bx%5D=1&obj%5By%5D%5Bz%5D=2&0=zero&s=%7E%21%2A%28%29%27',
  );
  // the GET merge removes the "0" key (01 §3.4.1 item 3)
  assert.equal(
    mergeParamsIntoUrl('x', params),
    'x?t=1&f=0&fl=1.5&f2=2&arr%5B0%5D=1&arr%5B1%5D=a+b&obj%5Bx%5D=1&obj%5By%5D%5Bz%5D=2&s=%7E%21%2A%28%29%27',
  );
});

test('httpBuildQuery: nested, floats, form body example, objects, empty containers', () => {
  assert.equal(httpBuildQuery(m({ f: m({ a: [1, 'x y'] }) })), 'f%5Ba%5D%5B0%5D=1&f%5Ba%5D%5B1%5D=x+y');
  assert.equal(
    httpBuildQuery(m({ user: 'John Doe', pass: 'p&ss=1', n: null, b: false, fl: f(1e15) })),
    'user=John+Doe&pass=p%26ss%3D1&b=0&fl=1.0E%2B15',
  );
  assert.equal(httpBuildQuery(m({ big: f(1e20), third: f(1 / 3), neg: f(-0) })), 'big=1.0E%2B20&third=0.33333333333333&neg=-0');
  assert.equal(httpBuildQuery(m({ i: 9007199254740993n })), 'i=9007199254740993');
  assert.equal(httpBuildQuery(m({ o: new JsonObject([['k y', 'v']]), e: new PhpArray(), l: [null, [], 3] })), 'o%5Bk+y%5D=v&l%5B2%5D=3');
  assert.equal(httpBuildQuery(m({ 'a b': 1, é: 2 })), 'a+b=1&%C3%A9=2');
  assert.equal(httpBuildQuery(['a', 'b']), '0=a&1=b');
  assert.equal(httpBuildQuery(new PhpArray()), '');
  assert.equal(httpBuildQuery('scalar'), '');
  // 03 §2.8 J1 and J3
  assert.equal(
    httpBuildQuery(
      m({
        q: 'a b',
        tags: ['x', 'y'],
        filter: m({ from: '2020-01-01', open: true, none: new PhpArray() }),
        skip: null,
        n: f(1.5),
        ok: false,
      }),
    ),
    'q=a+b&tags%5B0%5D=x&tags%5B1%5D=y&filter%5Bfrom%5D=2020-01-01&filter%5Bopen%5D=1&n=1.5&ok=0',
  );
  assert.equal(
    httpBuildQuery(m({ status: 'open', ids: [1, 2], limit: 2, offset: 0 })),
    'status=open&ids%5B0%5D=1&ids%5B1%5D=2&limit=2&offset=0',
  );
});
