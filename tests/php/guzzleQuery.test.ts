import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  buildQueryRebuild,
  mergeIndexedList,
  mergeReplace,
  parseQueryParamIsQuery,
  parseQueryRebuild,
  rebuildQuery,
} from '../../src/php/guzzleQuery.ts';
import { mergeParamsIntoUrl } from '../../src/php/mergeQuery.ts';
import { PhpArray, type Value } from '../../src/php/value.ts';
import { m, f, entries } from './helpers.ts';

test('Q-rebuild: round trip of 01 §3.4.2 and 02 §1.3', () => {
  assert.equal(buildQueryRebuild(parseQueryRebuild('b=x+y&a%5B0%5D=1&c=%7E&d&e=1&e=2')), 'b=x%20y&a%5B0%5D=1&c=~&d&e=1&e=2');
  assert.equal(buildQueryRebuild(parseQueryRebuild('q=a+b&t=x%7Ey')), 'q=a%20b&t=x~y');
  assert.equal(buildQueryRebuild(parseQueryRebuild('')), '');
  assert.equal(buildQueryRebuild(parseQueryRebuild('x=%FF')), 'x=%FF');
});

test('Q-rebuild parse: literal keys, nulls, lists', () => {
  assert.deepEqual(entries(parseQueryRebuild('a%5B0%5D=1&b&c=x=y&d=&e=1&e=2&e')), [
    ['a[0]', '1'],
    ['b', null],
    ['c', 'x=y'],
    ['d', ''],
    ['e', ['1', '2', null]],
  ]);
  // an existing null is replaced, keeping its position
  assert.deepEqual(entries(parseQueryRebuild('e&f=1&e=2')), [
    ['e', '2'],
    ['f', '1'],
  ]);
  assert.deepEqual(entries(parseQueryRebuild('a=1&')), [
    ['a', '1'],
    ['', null],
  ]);
  assert.deepEqual(entries(parseQueryRebuild('k+1=v+1&%E2%82%AC=%zz')), [
    ['k 1', 'v 1'],
    ['€', '%zz'],
  ]);
});

test('Q-rebuild build: value rendering', () => {
  const q = new Map<string, Value>([
    ['t', true],
    ['f', false],
    ['n', null],
    ['i', 7],
    ['fl', f(1e15)],
    ['s', 'a b/~'],
    ['l', ['x', null, 2]],
    ['e', []],
    ['k y', 'é'],
    ['m', m({ a: '1', b: '2' })],
  ]);
  assert.equal(buildQueryRebuild(q), 't=1&f=&n&i=7&fl=1.0E%2B15&s=a%20b%2F~&l=x&l&l=2&k%20y=%C3%A9&m=1&m=2');
});

test('Q-rebuild merge: replace variant', () => {
  const q = parseQueryRebuild('a=1&b=2');
  const out = mergeReplace(q, m({ b: 'x', c: 'y' }));
  assert.deepEqual(entries(out), [
    ['a', '1'],
    ['b', 'x'],
    ['c', 'y'],
  ]);
  assert.deepEqual(entries(q), [
    ['a', '1'],
    ['b', '2'],
  ]);
  assert.equal(rebuildQuery('search=a+b&t=x%7Ey', m({ apikey: 'k 1' }), 'replace'), 'search=a%20b&t=x~y&apikey=k%201');
  assert.equal(rebuildQuery('', new PhpArray(), 'replace'), '');
  assert.equal(rebuildQuery('', m({ token: 't' }), 'replace'), 'token=t');
});

test('Q-rebuild merge: indexed-list variant', () => {
  // identical PHP string forms collapse to one entry; the key moves to the end
  assert.deepEqual(entries(mergeIndexedList(parseQueryRebuild('k=7&z=1'), m({ k: 7 }))), [
    ['z', '1'],
    ['k[0]', '7'],
  ]);
  assert.deepEqual(entries(mergeIndexedList(parseQueryRebuild('k=a&z=1'), m({ k: 'b', n: 'new' }))), [
    ['z', '1'],
    ['n', 'new'],
    ['k[0]', 'a'],
    ['k[1]', 'b'],
  ]);
  // the second of two equal values is dropped but the index of the first is kept
  assert.deepEqual(entries(mergeIndexedList(new Map<string, Value>([['k', '1']]), m({ k: true }))), [['k[0]', '1']]);
  // an existing bracketed key is overwritten in place
  assert.deepEqual(entries(mergeIndexedList(parseQueryRebuild('k%5B1%5D=old&k=a&z=1'), m({ k: 'b' }))), [
    ['k[1]', 'b'],
    ['z', '1'],
    ['k[0]', 'a'],
  ]);
  assert.equal(rebuildQuery('k=a&z=1', m({ k: 'b' }), 'indexed'), 'z=1&k%5B0%5D=a&k%5B1%5D=b');
});

test('parseQueryParamIsQuery (03 §5.3.4)', () => {
  const p = parseQueryParamIsQuery('?cursor=c2&mode=a+b');
  assert.ok(p instanceof PhpArray);
  assert.deepEqual(entries(p), [
    ['cursor', 'c2'],
    ['mode', 'a b'],
  ]);
  assert.deepEqual(entries(parseQueryParamIsQuery('??a&b=1&b=2&c%5B0%5D=%7E')), [
    ['a', null],
    ['b', ['1', '2']],
    ['c[0]', '~'],
  ]);
  // a full URL is read as a query string
  assert.deepEqual(entries(parseQueryParamIsQuery('http://x/y?a=1&b=2')), [
    ['http://x/y?a', '1'],
    ['b', '2'],
  ]);
  assert.equal(parseQueryParamIsQuery('?').size, 0);
  assert.equal(parseQueryParamIsQuery('').size, 0);
  // P6: the parsed link overrides the job parameters in the GET merge
  const params = mergeReplace(m({ apikey: 'k1', per: 50, cursor: 'first' }), parseQueryParamIsQuery('?cursor=c2&mode=a+b'));
  assert.equal(mergeParamsIntoUrl('feed', new PhpArray(params)), 'feed?apikey=k1&per=50&cursor=c2&mode=a+b');
});
