import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseQueryRebuild, buildQueryRebuild, mergeReplace, mergeIndexedList, rebuildQuery, parseQueryParamIsQuery } from '../../src/php/guzzleQuery.ts';
import { mergeParamsIntoUrl } from '../../src/php/mergeQuery.ts';
import { phpParseUrl } from '../../src/php/parseUrl.ts';
import { httpBuildQuery } from '../../src/php/httpBuildQuery.ts';
import { urlencode, rawurlencode, percentDecode } from '../../src/php/urlEncoding.ts';
import { JsonObject, PhpArray, PhpFloat, type Value } from '../../src/php/value.ts';

/** Configuration-style map from a plain object (JS order: integer-like keys come first). */
function m(o: Record<string, Value>): PhpArray {
  return new PhpArray(Object.entries(o));
}
const f = (x: number) => new PhpFloat(x);

/** Ordered plain form of a map, for comparisons. */
function entries(map: ReadonlyMap<string, unknown>): [string, unknown][] {
  return [...map];
}

test('urlencode: PHP byte rules', () => {
  assert.equal(urlencode('AZaz09-_.'), 'AZaz09-_.');
  assert.equal(urlencode('a b'), 'a+b');
  assert.equal(urlencode("~!*()'"), '%7E%21%2A%28%29%27');
  assert.equal(urlencode('é/:'), '%C3%A9%2F%3A');
  assert.equal(urlencode('€'), '%E2%82%AC');
  assert.equal(urlencode('😀'), '%F0%9F%98%80');
  assert.equal(urlencode('+&='), '%2B%26%3D');
  assert.equal(urlencode(''), '');
});

test('rawurlencode: RFC 3986 unreserved kept', () => {
  assert.equal(rawurlencode('AZaz09-_.~'), 'AZaz09-_.~');
  assert.equal(rawurlencode('a b+c'), 'a%20b%2Bc');
  assert.equal(rawurlencode('a[0]'), 'a%5B0%5D');
  assert.equal(rawurlencode('ü'), '%C3%BC');
});

test('percentDecode: invalid UTF-8 bytes survive a decode/encode round trip', () => {
  assert.equal(percentDecode('a+b%20c', true), 'a b c');
  assert.equal(percentDecode('a+b', false), 'a+b');
  assert.equal(percentDecode('%zz%4', true), '%zz%4');
  assert.equal(percentDecode('%C3%A9', false), 'é');
  for (const enc of ['%FF', '%C3', '%E2%82', '%C3%C3%A9', '%ED%A0%80', '%F4%90%80%80', '%C0%AF']) {
    assert.equal(rawurlencode(percentDecode(enc, false)), enc, enc);
  }
});

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
  assert.equal(httpBuildQuery(m({ 'a b': 1, 'é': 2 })), 'a+b=1&%C3%A9=2');
  assert.equal(httpBuildQuery(['a', 'b']), '0=a&1=b');
  assert.equal(httpBuildQuery(new PhpArray()), '');
  assert.equal(httpBuildQuery('scalar'), '');
  // 03 §2.8 J1 and J3
  assert.equal(
    httpBuildQuery(
      m({ q: 'a b', tags: ['x', 'y'], filter: m({ from: '2020-01-01', open: true, none: new PhpArray() }), skip: null, n: f(1.5), ok: false }),
    ),
    'q=a+b&tags%5B0%5D=x&tags%5B1%5D=y&filter%5Bfrom%5D=2020-01-01&filter%5Bopen%5D=1&n=1.5&ok=0',
  );
  assert.equal(httpBuildQuery(m({ status: 'open', ids: [1, 2], limit: 2, offset: 0 })), 'status=open&ids%5B0%5D=1&ids%5B1%5D=2&limit=2&offset=0');
});

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

test('phpParseUrl: PHP 7.4 parse_url', () => {
  assert.deepEqual(phpParseUrl('https://u:p:q@Ex.com:8080/a/b?x=1&y#f'), {
    scheme: 'https',
    user: 'u',
    pass: 'p:q',
    host: 'Ex.com',
    port: 8080,
    path: '/a/b',
    query: 'x=1&y',
    fragment: 'f',
  });
  assert.deepEqual(phpParseUrl('users?b=1'), { path: 'users', query: 'b=1' });
  assert.deepEqual(phpParseUrl('//cdn.example.com/x'), { host: 'cdn.example.com', path: '/x' });
  assert.deepEqual(phpParseUrl('localhost:8080'), { host: 'localhost', port: 8080 });
  assert.deepEqual(phpParseUrl('v1/users:search?x=1'), { path: 'v1/users:search', query: 'x=1' });
  assert.deepEqual(phpParseUrl('items:batchGet'), { scheme: 'items', path: 'batchGet' });
  assert.deepEqual(phpParseUrl('http://[::1]:8080/x'), { scheme: 'http', host: '[::1]', port: 8080, path: '/x' });
  assert.deepEqual(phpParseUrl('http://[::1]/x'), { scheme: 'http', host: '[::1]', path: '/x' });
  assert.deepEqual(phpParseUrl(''), { path: '' });
  assert.equal(phpParseUrl('http:///x'), null);
  assert.equal(phpParseUrl('http://h:99999/'), null);
  assert.equal(phpParseUrl('http://h:0/'), null);
  assert.equal(phpParseUrl('/a:80/x?y'), null);
});

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
