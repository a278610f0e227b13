import assert from 'node:assert/strict';
import { test } from 'node:test';
import { mergeParamsIntoUrl } from '../../src/php/mergeQuery.ts';
import { PhpArray } from '../../src/php/value.ts';
import { m } from './helpers.ts';

test('mergeParamsIntoUrl: worked consequences of 01 §3.3 step 2', () => {
  assert.equal(mergeParamsIntoUrl('u?a%5B0%5D=1&x=%7E', m({ b: 1 })), 'u?a%255B0%255D=1&x=%7E&b=1');
  assert.equal(mergeParamsIntoUrl('users?b=x+y&a=1&c=%20z&flag', m({ a: '2', d: 'q r' })), 'users?b=x+y&a=2&c=+z&flag=&d=q+r');
  assert.equal(mergeParamsIntoUrl('users?b=x y&a=[1]', new PhpArray()), 'users?b=x y&a=[1]');
  assert.equal(mergeParamsIntoUrl('users?b=x y&a=[1]', []), 'users?b=x y&a=[1]');
  assert.equal(mergeParamsIntoUrl('users?b=x y&a=[1]', null), 'users?b=x y&a=[1]');
  assert.equal(mergeParamsIntoUrl('//cdn.example.com/x', m({ a: 1 })), '/x?a=1');
  assert.equal(mergeParamsIntoUrl('//cdn.example.com/x', new PhpArray()), '//cdn.example.com/x');
  assert.equal(mergeParamsIntoUrl('https://eu.example.com/x?a=1', m({ b: 2 })), 'https://eu.example.com/x?a=1&b=2');
});

test('mergeParamsIntoUrl: jobs and pagination examples (03 §2.4, §2.8, §5.3.4)', () => {
  assert.equal(mergeParamsIntoUrl('list?sort=name&dir=asc', m({ dir: 'desc', page: 1 })), 'list?sort=name&dir=desc&page=1');
  assert.equal(mergeParamsIntoUrl('orders', m({ status: 'paid' })), 'orders?status=paid');
  assert.equal(mergeParamsIntoUrl('orders?after=X1&status=paid', m({ status: 'paid' })), 'orders?after=X1&status=paid');
  assert.equal(
    mergeParamsIntoUrl('/v2/orders?after=X1&per=2', m({ status: 'paid', after: 'START' })),
    '/v2/orders?after=START&per=2&status=paid',
  );
  assert.equal(mergeParamsIntoUrl('e?e%5B0%5D=1', m({ z: 1 })), 'e?e%255B0%255D=1&z=1');
});

test('mergeParamsIntoUrl: key dropping, repeated keys, parts kept', () => {
  // top-level "" and "0" dropped; "00" kept; nested index 0 kept
  assert.equal(mergeParamsIntoUrl('u', m({ '': 'a', '0': 'b', '00': 'c', l: ['x'] })), 'u?00=c&l%5B0%5D=x');
  // list params: index 0 dropped
  assert.equal(mergeParamsIntoUrl('u', ['a', 'b', 'c']), 'u?1=b&2=c');
  // params non-empty before dropping: the endpoint query is still re-encoded
  assert.equal(mergeParamsIntoUrl('u?x=%7e&y=a%2fb', m({ '0': 'z' })), 'u?x=%7E&y=a%2Fb');
  // all params null: no "?"
  assert.equal(mergeParamsIntoUrl('users', m({ a: null })), 'users');
  // repeated key: first position, last value
  assert.equal(mergeParamsIntoUrl('u?a=1&b=2&a=3', m({ c: 1 })), 'u?a=3&b=2&c=1');
  // "=" inside a value: split on the first "="
  assert.equal(mergeParamsIntoUrl('u?a=b=c', m({ c: 1 })), 'u?a=b%3Dc&c=1');
  // empty pieces become the key ""
  assert.equal(mergeParamsIntoUrl('u?a=1&&b=2', m({ c: 1 })), 'u?a=1&=&b=2&c=1');
  // a param replacing an endpoint key may be nested
  assert.equal(mergeParamsIntoUrl('u?f=1&g=2', m({ f: m({ x: 'y' }) })), 'u?f%5Bx%5D=y&g=2');
  // scheme, userinfo, port and fragment kept; raw port re-rendered
  assert.equal(mergeParamsIntoUrl('http://u:p@h:8080/x?q=1#frag', m({ a: 1 })), 'http://u:p@h:8080/x?q=1&a=1#frag');
  assert.equal(mergeParamsIntoUrl('http://h:080/x', m({ a: 1 })), 'http://h:80/x?a=1');
  assert.equal(mergeParamsIntoUrl('users#', m({ a: 1 })), 'users?a=1');
  assert.equal(mergeParamsIntoUrl('users?', m({ a: 1 })), 'users?a=1');
  assert.equal(mergeParamsIntoUrl('?x=1', m({ a: 1 })), '?x=1&a=1');
  assert.equal(mergeParamsIntoUrl('', m({ a: 'é' })), '?a=%C3%A9');
  // invalid UTF-8 in the endpoint query survives byte for byte
  assert.equal(mergeParamsIntoUrl('u?x=%ff%C3&y=%e2%82%ac', m({ a: 1 })), 'u?x=%FF%C3&y=%E2%82%AC&a=1');
  // non-ASCII in the endpoint query
  assert.equal(mergeParamsIntoUrl('u?n=Zoë', m({ a: 1 })), 'u?n=Zo%C3%AB&a=1');
  // PHP replaces control characters in parse_url parts with "_"
  assert.equal(mergeParamsIntoUrl('u\tx?a=1', m({ b: 1 })), 'u_x?a=1&b=1');
  // PHP reads "host:port/path" without a scheme as host + port: the host is then lost
  assert.equal(mergeParamsIntoUrl('mock-server:80/x', m({ a: 1 })), '/x?a=1');
});
