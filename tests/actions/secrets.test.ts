/** Masking in sync-action answers (src/actions/secrets.ts, issue 26 #2): where a secret stands as a value, never inside a word. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { maskSecrets, maskSecretsInValue } from '../../src/actions/secrets.ts';
import { JsonObject } from '../../src/php/value.ts';

test('a short secret is hidden as a value (query, header, JSON string, userinfo, path segment), not inside a word', () => {
  const mask = (text: string) => maskSecrets(text, ['token']);
  assert.equal(mask('http://h/001-token-header/orders?key=token'), 'http://h/001-token-header/orders?key=--HIDDEN--');
  assert.equal(mask('Bearer token'), 'Bearer --HIDDEN--');
  assert.equal(mask('{"key": "token", "tokens": 1}'), '{"key": "--HIDDEN--", "tokens": 1}');
  assert.equal(mask('http://user:token@h/token/x'), 'http://user:--HIDDEN--@h/--HIDDEN--/x');
  assert.equal(mask('token.json and tokenizer, my_token'), 'token.json and tokenizer, my_token');
  assert.equal(mask('failed for token.'), 'failed for --HIDDEN--.');
});

test('encoded forms are hidden too; an empty secret is skipped', () => {
  assert.equal(maskSecrets('?k=a%2Fb&x=1', ['a/b']), '?k=--HIDDEN--&x=1');
  assert.equal(maskSecrets('{"k": "a\\"b"}', ['a"b']), '{"k": "--HIDDEN--"}');
  assert.equal(maskSecrets('abc', ['']), 'abc');
});

test('values: strings masked inside lists and objects; an object without a secret is returned as it is', () => {
  const clean = new JsonObject([['a', 'x']]);
  const value = [clean, new JsonObject([['t', 'token']])];
  const masked = maskSecretsInValue(value, ['token']) as JsonObject[];
  assert.equal(masked[0], clean);
  assert.equal(masked[1]!.get('t'), '--HIDDEN--');
  assert.equal((value[1] as JsonObject).get('t'), 'token', 'the original is not changed');
});
