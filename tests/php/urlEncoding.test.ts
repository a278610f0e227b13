import assert from 'node:assert/strict';
import { test } from 'node:test';
import { percentDecode, rawurlencode, urlencode } from '../../src/php/urlEncoding.ts';

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
