import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  ASCII_MEMBERS,
  isValidUrl,
  parseReference,
  normalizeReference,
  removeDotSegments,
  resolveUrl,
  ResolvedUrl,
} from '../../src/http/url.ts';
import { InvalidUriError } from '../../src/errors/InvalidUriError.ts';

test('isValidUrl: examples of 01 §3.2', () => {
  for (const u of [
    'http://mock-server:80/x/',
    'HTTPS://X.COM/',
    'http://x.com/?a=[1]',
    'http://1.2.3.999/',
    'http://[::1]:8080/',
    'http://ü.de/é',
    'http://x.com#frag',
  ]) {
    assert.equal(isValidUrl(u), true, u);
  }
  for (const u of [
    'http://x.com/{id}',
    'http://x.com/a b',
    'http://x.com/a|b',
    'http://x.com/?a={1}',
    'http://x.com/%zz',
    'ftp://x.com/',
  ]) {
    assert.equal(isValidUrl(u), false, u);
  }
});

test('isValidUrl: more of the validator grammar', () => {
  const valid = [
    'http://localhost',
    'http://mock-server/087-function-baseurl/',
    'https://api.example.com/v2/',
    'http://user:p%40ss@host.com/',
    'http://user@host.com:1/',
    'http://a_b.example.com/',
    'http://ex|ample.com/', // Unicode symbols are accepted in the host
    'http://ex^ample.com/',
    'http://xn--bcher-kva.example/',
    'http://axn--b-/', // a host may end with "-" only inside an xn-- label
    'http://example.com./',
    "http://x.com/a%2Fb/;p=1/@:!$&'()*+,=~",
    'http://x.com/?q=[a]/?&b=c',
    'http://x.com/p#a/b?c',
    'http://[::ffff:1.2.3.4]/',
    'http://[2001:db8::]/',
    'http://[1:2:3:4:5:6:7:8]/',
    'http://x.com/\n', // PCRE "$" accepts one final newline
    'http://日本.jp/パス?クエリ#フラグ',
  ];
  for (const u of valid) assert.equal(isValidUrl(u), true, JSON.stringify(u));
  const invalid = [
    '',
    'x.com',
    '/relative',
    'http://',
    'http:///x',
    'http://x/', // the domain alternative needs at least two characters
    'http://a-/',
    'http://xn--/',
    'http://a../',
    'http://user:@host.com/',
    'http://:pass@host.com/',
    'http://a@b@host.com/',
    'http://host.com:/',
    'http://host.com:8a/',
    'http://x.com/a"b',
    'http://x.com/a\\b',
    'http://x.com/a<b',
    'http://x.com/a^b',
    'http://x.com/?a=|',
    'http://x.com/#a#b',
    'http://x.com/#[x]',
    'http://x.com/%4',
    'http://[::1::2]/',
    'http://[1:2:3:4:5:6:7:8:9]/',
    'http://[::ffff:1.2.3.256]/',
    'http://[::1/',
    'http://x.com/\n\n',
    'http://x.com/\r\n',
    ' http://x.com/',
  ];
  for (const u of invalid) assert.equal(isValidUrl(u), false, JSON.stringify(u));
});

test('isValidUrl: long hostile input stays fast', () => {
  const start = Date.now();
  assert.equal(isValidUrl('http://' + 'a-'.repeat(50000) + '{'), false);
  assert.equal(isValidUrl('http://x.com/' + '%a'.repeat(50000)), false);
  assert.ok(Date.now() - start < 1000);
});

test('parseReference: components, absent vs empty', () => {
  assert.deepEqual(parseReference('users?'), { path: 'users', query: '' });
  assert.deepEqual(parseReference('users'), { path: 'users' });
  assert.deepEqual(parseReference('users#'), { path: 'users', fragment: '' });
  assert.deepEqual(parseReference('https://u:p@Ex.COM:8080/a?b=1#c'), {
    scheme: 'https',
    userinfo: 'u:p',
    host: 'Ex.COM',
    port: '8080',
    authority: 'u:p@Ex.COM:8080',
    path: '/a',
    query: 'b=1',
    fragment: 'c',
  });
  assert.deepEqual(parseReference('//cdn.example.com/x'), { host: 'cdn.example.com', authority: 'cdn.example.com', path: '/x' });
  assert.deepEqual(parseReference('?x=1'), { path: '', query: 'x=1' });
  assert.deepEqual(parseReference(''), { path: '' });
  assert.deepEqual(parseReference('user/{id} x/ü'), { path: 'user/{id} x/ü' });
  // PHP parse_url quirk: "host:port/path" without scheme
  assert.deepEqual(parseReference('localhost:8080/x'), { host: 'localhost', port: '8080', authority: 'localhost:8080', path: '/x' });
  assert.throws(() => parseReference('http://h:99999/'), InvalidUriError);
  assert.throws(() => parseReference('http:///x'), /Unable to parse URI: http:\/\/\/x/);
});

test('normalizeReference: 01 §3.3 step 4', () => {
  const n = (s: string) => normalizeReference(parseReference(s));
  assert.equal(n('user/{id} x/ü').path, 'user/%7Bid%7D%20x/%C3%BC');
  assert.equal(n('u?b=x y&a=[1]').query, 'b=x%20y&a=%5B1%5D');
  assert.equal(n("u?a=+&b==&c=/?:@!$'()*,;~").query, "a=+&b==&c=/?:@!$'()*,;~");
  assert.equal(n('a%2fb%zz%4/%').path, 'a%2fb%25zz%254/%25');
  assert.equal(n('a|b^c`d"e\\f<g>h').path, 'a%7Cb%5Ec%60d%22e%5Cf%3Cg%3Eh');
  assert.equal(n('p?q=|^`{}').query, 'q=%7C%5E%60%7B%7D');
  assert.equal(n('p?').query, undefined);
  assert.equal(n('p#').fragment, undefined);
  assert.equal(n('p#a b').fragment, 'a%20b');
  assert.equal(n('p/😀').path, 'p/%F0%9F%98%80');
  assert.deepEqual(n('HTTPS://EXAMPLE.com:443/A'), { scheme: 'https', host: 'example.com', authority: 'example.com', path: '/A' });
  assert.equal(n('http://h:443/').port, '443');
  assert.equal(n('http://h:80/').port, undefined);
  assert.equal(n('http://us er:p:w@h/').userinfo, 'us%20er:p%3Aw');
});

test('removeDotSegments (Guzzle)', () => {
  const cases: [string, string][] = [
    ['', ''],
    ['/', '/'],
    ['/a/b/c/./../../g', '/a/g'],
    ['mid/content=5/../6', 'mid/6'],
    ['/a/b/..', '/a/'],
    ['/a/b/.', '/a/b/'],
    ['/..', '/'],
    ['/../x', '/x'],
    ['a/../../b', 'b'],
    ['/a//../b', '/a/b'],
    ['/no/dots', '/no/dots'],
    ['/v1.0/x', '/v1.0/x'],
  ];
  for (const [i, o] of cases) assert.equal(removeDotSegments(i), o, i);
});

test('resolveUrl: table of 01 §3.3 step 5', () => {
  const rows: [string, string, string][] = [
    ['https://example.com/3.0/', 'campaign', 'https://example.com/3.0/campaign'],
    ['https://example.com/3.0/', 'campaign/', 'https://example.com/3.0/campaign/'],
    ['https://example.com/3.0/', '/1.0/campaign', 'https://example.com/1.0/campaign'],
    ['https://example.com/3.0', 'campaign', 'https://example.com/campaign'],
    ['http://example.com/api', 'users', 'http://example.com/users'],
    ['https://example.com', 'campaign', 'https://example.com/campaign'],
    ['https://example.com/3.0/', 'https://eu.example.com/x?a=1&b=2', 'https://eu.example.com/x?a=1&b=2'],
    ['https://example.com/3.0/', '//cdn.example.com/x', 'https://cdn.example.com/x'],
    ['https://example.com/3.0/', '../2.0/campaign', 'https://example.com/2.0/campaign'],
    ['https://example.com/3.0/?k=1', 'campaign', 'https://example.com/3.0/campaign'],
    ['https://example.com/3.0/', '?x=1', 'https://example.com/3.0/?x=1'],
    ['https://EXAMPLE.com:443/3.0/', 'users', 'https://example.com/3.0/users'],
    ['http://mock-server:80/038-default-headers/', 'users', 'http://mock-server/038-default-headers/users'],
  ];
  for (const [base, ep, want] of rows) assert.equal(resolveUrl(base, ep).href, want, `${base} + ${ep}`);
});

test('resolveUrl: table of 03 §2.7 and relative next-page links', () => {
  const rows: [string, string, string][] = [
    ['https://example.com/3.0/', 'campaign', 'https://example.com/3.0/campaign'],
    ['https://example.com/3.0/', 'campaign/', 'https://example.com/3.0/campaign/'],
    ['https://example.com/3.0/', '/1.0/campaign', 'https://example.com/1.0/campaign'],
    ['https://example.com/3.0/', 'https://eu.example.com/x', 'https://eu.example.com/x'],
    ['https://example.com/3.0/', '//other.host/p', 'https://other.host/p'],
    ['https://example.com/3.0/', '../x', 'https://example.com/x'],
    ['https://example.com/3.0/', '?page=2', 'https://example.com/3.0/?page=2'],
    ['https://example.com/', 'campaign', 'https://example.com/campaign'],
    ['https://example.com', 'campaign', 'https://example.com/campaign'],
    ['https://example.com/3.0', 'campaign', 'https://example.com/campaign'],
    ['https://example.com/3.0/', 'user/a b/ü', 'https://example.com/3.0/user/a%20b/%C3%BC'],
    ['http://h/api/', '?page=2', 'http://h/api/?page=2'],
    ['http://h/api/', 'users?page=2', 'http://h/api/users?page=2'],
    ['http://h/api/', '/api/users?page=2', 'http://h/api/users?page=2'],
    ['https://api.example.com/v2/', 'https://api.example.com/v2/orders?after=X2', 'https://api.example.com/v2/orders?after=X2'],
  ];
  for (const [base, ep, want] of rows) assert.equal(resolveUrl(base, ep).href, want, `${base} + ${ep}`);
});

test('resolveUrl: request target, Host header and fields', () => {
  const r = resolveUrl('http://mock-server:80/038-default-headers/', 'users');
  assert.ok(r instanceof ResolvedUrl);
  assert.equal(r.scheme, 'http');
  assert.equal(r.host, 'mock-server');
  assert.equal(r.port, undefined);
  assert.equal(r.userinfo, undefined);
  assert.equal(r.path, '/038-default-headers/users');
  assert.equal(r.query, undefined);
  assert.equal(r.target, '/038-default-headers/users');
  assert.equal(r.hostHeader, 'mock-server');

  const p = resolveUrl('https://api.example.com:8443/v2/', 'search?q=a+b&x=%7E#frag');
  assert.equal(p.port, 8443);
  assert.equal(p.hostHeader, 'api.example.com:8443');
  assert.equal(p.target, '/v2/search?q=a+b&x=%7E');
  assert.equal(p.fragment, 'frag');
  assert.equal(p.href, 'https://api.example.com:8443/v2/search?q=a+b&x=%7E');

  // an empty path is sent as "/"; Guzzle's string form keeps it empty
  const e = resolveUrl('https://example.com', '');
  assert.equal(e.path, '/');
  assert.equal(e.target, '/');
  assert.equal(e.href, 'https://example.com');
  assert.equal(resolveUrl('https://example.com/v1/', 'https://eu.example.com?x=1').target, '/?x=1');
});

test('resolveUrl: Guzzle quirks around empty references and queries', () => {
  // empty reference: the base as it is, query included
  assert.equal(resolveUrl('https://example.com/3.0/?k=1', '').href, 'https://example.com/3.0/?k=1');
  assert.equal(resolveUrl('https://example.com/3.0/?k=1', '?').href, 'https://example.com/3.0/?k=1');
  assert.equal(resolveUrl('https://example.com/3.0/?k=1', '#f').href, 'https://example.com/3.0/?k=1');
  assert.equal(resolveUrl('https://example.com/3.0/?k=1', '?x=1').href, 'https://example.com/3.0/?x=1');
  assert.equal(resolveUrl('https://example.com/3.0/', 'users?').href, 'https://example.com/3.0/users');
  // dot segments of the base path are removed only when a path is merged
  assert.equal(resolveUrl('http://h/a/./b/', '?x').href, 'http://h/a/./b/?x');
  assert.equal(resolveUrl('http://h/a/./b/', 'c').href, 'http://h/a/b/c');
  // default port dropped for the final scheme; other ports kept
  assert.equal(resolveUrl('https://example.com/', '//cdn.example.com:443/x').href, 'https://cdn.example.com/x');
  assert.equal(resolveUrl('https://example.com/', '//cdn.example.com:80/x').href, 'https://cdn.example.com:80/x');
  assert.equal(resolveUrl('https://example.com/', 'http://Other.COM:80/a/../b').href, 'http://other.com/b');
  // PHP reads "host:port/path" as an authority: the base scheme is used
  assert.equal(resolveUrl('http://example.com/api/', 'localhost:8080/x').href, 'http://localhost:8080/x');
  assert.throws(() => resolveUrl('http://example.com/', 'http://h:0/'), InvalidUriError);
});

test('resolveUrl: normalisation of path and query (not WHATWG)', () => {
  const base = 'https://example.com/3.0/';
  assert.equal(resolveUrl(base, 'user/{id} x/ü').target, '/3.0/user/%7Bid%7D%20x/%C3%BC');
  assert.equal(resolveUrl(base, "s?q='a'&b=x y&a=[1]").target, "/3.0/s?q='a'&b=x%20y&a=%5B1%5D");
  assert.equal(resolveUrl(base, 's?a=%7e&b=%zz&c=|^`').target, '/3.0/s?a=%7e&b=%25zz&c=%7C%5E%60');
  assert.equal(resolveUrl(base, 's?a=+&b=/?:@').target, '/3.0/s?a=+&b=/?:@');
});

test('resolveUrl: userinfo and the masked form', () => {
  const r = resolveUrl('https://john:s3cret@api.example.com/v1/', 'users');
  assert.equal(r.userinfo, 'john:s3cret');
  assert.equal(r.href, 'https://john:s3cret@api.example.com/v1/users');
  assert.equal(r.hrefMaskedPassword, 'https://john:***@api.example.com/v1/users');
  assert.equal(r.hostHeader, 'api.example.com');
  const u = resolveUrl('https://john@api.example.com/v1/', 'users');
  assert.equal(u.hrefMaskedPassword, 'https://john@api.example.com/v1/users');
  assert.equal(resolveUrl('https://a.com/', 'users').hrefMaskedPassword, 'https://a.com/users');
});

test('ResolvedUrl.withQuery (query rewrites by authentication)', () => {
  const r = resolveUrl('https://example.com/v1/', 'search?q=a+b');
  const w = r.withQuery('q=a%20b&token=x y');
  assert.equal(w.target, '/v1/search?q=a%20b&token=x%20y');
  assert.equal(w.href, 'https://example.com/v1/search?q=a%20b&token=x%20y');
  assert.equal(r.withQuery('').target, '/v1/search');
  assert.equal(r.withQuery(undefined).query, undefined);
  assert.equal(r.target, '/v1/search?q=a+b');
});

test('resolveUrl: many calls stay fast', () => {
  const start = Date.now();
  for (let i = 0; i < 20000; i++) resolveUrl('https://api.example.com/v2/', `users/${i}?page=${i}&q=a+b`);
  assert.ok(Date.now() - start < 1500);
});

test("the validator's ASCII twins: each Unicode class's ASCII members are exactly the ones named", () => {
  for (const [unicode, ascii] of Object.entries(ASCII_MEMBERS)) {
    const byIcu = new RegExp(`^[${unicode}]$`, 'u');
    const byName = new RegExp(`^[${ascii}]$`, 'u');
    for (let c = 0; c < 128; c++) {
      const ch = String.fromCharCode(c);
      assert.equal(byName.test(ch), byIcu.test(ch), `${unicode} and U+${c.toString(16).padStart(4, '0')}`);
    }
  }
});
