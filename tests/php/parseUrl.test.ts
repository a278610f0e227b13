import assert from 'node:assert/strict';
import { test } from 'node:test';
import { phpParseUrl } from '../../src/php/parseUrl.ts';

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
