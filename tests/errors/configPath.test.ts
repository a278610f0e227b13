/** Config paths are built in one place: keys that are not plain names are written `["key"]`. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { childPath, itemPath, PLAIN_ASCII_KEY, PLAIN_KEY_SOURCE } from '../../src/errors/configPath.ts';

test('plain keys with a dot, others in brackets as JSON strings', () => {
  assert.equal(childPath('parameters.api.http.headers', 'X-Api-Key'), 'parameters.api.http.headers.X-Api-Key');
  assert.equal(childPath('parameters.config', '#token'), 'parameters.config.#token');
  assert.equal(childPath('parameters.api.http.headers', 'X Token'), 'parameters.api.http.headers["X Token"]');
  assert.equal(childPath('parameters.config.mappings.users', 'user.name'), 'parameters.config.mappings.users["user.name"]');
  assert.equal(childPath('parameters.config.mappings', 'users/{id}'), 'parameters.config.mappings.users/{id}');
  assert.equal(childPath('parameters.config.jobs[0].placeholders', '1:id'), 'parameters.config.jobs[0].placeholders.1:id');
  assert.equal(childPath('parameters.config.mappings', 'a[0]'), 'parameters.config.mappings["a[0]"]');
  assert.equal(childPath('p', 'say "hi"'), 'p["say \\"hi\\""]');
  assert.equal(childPath('p', ''), 'p[""]');
  assert.equal(childPath('', 'parameters'), 'parameters');
});

test('list entries by index; a map used as a list by its quoted key', () => {
  assert.equal(itemPath('parameters.config.jobs', 0), 'parameters.config.jobs[0]');
  assert.equal(itemPath('parameters.config.jobs', '3'), 'parameters.config.jobs[3]');
  assert.equal(itemPath('parameters.config.jobs', 'users'), 'parameters.config.jobs["users"]');
});

test('the ASCII twin of the plain-key pattern agrees with the Unicode one on every ASCII character', () => {
  const unicode = new RegExp(PLAIN_KEY_SOURCE, 'u');
  for (let c = 0; c < 128; c++) {
    const ch = String.fromCharCode(c);
    for (const key of [ch, `a${ch}b`]) assert.equal(PLAIN_ASCII_KEY.test(key), unicode.test(key), JSON.stringify(key));
  }
  assert.equal(childPath('p', 'clé'), 'p.clé');
  assert.equal(childPath('p', 'a\u200bb'), 'p["a\u200bb"]', 'a format character (\\p{C}) outside ASCII');
});
