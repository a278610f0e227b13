/** The platform client's one redaction of the token (transport errors and every printed line). */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { tokenRedactor } from '../../src/platform/redaction.ts';

test('a short token: hidden as a value, the words around it kept whole', () => {
  const redact = tokenRedactor('x');
  assert.equal(redact('ex-generic-platform: Invalid access token (got x)'), 'ex-generic-platform: Invalid access token (got [hidden])');
  assert.equal(redact('POST https://q.test/jobs/x/kill'), 'POST https://q.test/jobs/[hidden]/kill');
});

test('a token of six characters or more is hidden anywhere, glued to a word too', () => {
  const redact = tokenRedactor('901-abc');
  assert.equal(
    redact('GET https://s.test/tokens/901-abc.json and x901-abcdef'),
    'GET https://s.test/tokens/[hidden].json and x[hidden]def',
  );
  assert.equal(redact('token 901-abc.'), 'token [hidden].');
});

test('a token in a URL query (raw and URL-encoded) and in a JSON body', () => {
  const redact = tokenRedactor('90/1+"ab"');
  assert.equal(redact('GET https://q.test/jobs?t=90%2F1%2B%22ab%22&x=1'), 'GET https://q.test/jobs?t=[hidden]&x=1');
  assert.equal(redact('GET https://q.test/jobs?t=90/1+"ab"&x=1'), 'GET https://q.test/jobs?t=[hidden]&x=1');
  assert.equal(redact('{"error":"bad","token":"90/1+\\"ab\\""}'), '{"error":"bad","token":"[hidden]"}');
});

test('no token: the text as it is', () => {
  assert.equal(tokenRedactor(undefined)('ex-generic-platform'), 'ex-generic-platform');
});
