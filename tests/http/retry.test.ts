import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_RETRY, parseHttpDate, retryDelayMs, shouldRetry } from '../../src/http/retry.ts';
import { retryPolicyFrom } from '../../src/http/retryOptions.ts';
import { decodeJson } from '../../src/php/jsonDecode.ts';

const now = 1_700_000_000;

test('exponential backoff starts at 1 s and doubles', () => {
  assert.deepEqual(
    [1, 2, 3, 10].map((r) => retryDelayMs(r, undefined, now)),
    [1000, 2000, 4000, 512000],
  );
});

test('Retry-After as seconds, as a Unix timestamp and as an HTTP date', () => {
  assert.equal(retryDelayMs(1, '3', now), 3000);
  assert.equal(retryDelayMs(1, '5.7', now), 5000);
  assert.equal(retryDelayMs(1, String(now + 7), now), 7000);
  const date = new Date((now + 9) * 1000).toUTCString();
  assert.equal(retryDelayMs(1, date, now), 9000);
  // In the past: retry immediately (negative delay).
  assert.ok(retryDelayMs(1, String(now - 5), now) < 0);
  // Zero and garbage fall back to the backoff.
  assert.equal(retryDelayMs(2, '0', now), 2000);
  assert.equal(retryDelayMs(2, 'soon', now), 2000);
});

test('HTTP dates with numeric zones and a mismatching weekday (PHP moves forward)', () => {
  assert.equal(parseHttpDate('Tue, 14 Nov 2023 22:13:20 GMT'), 1700000000);
  assert.equal(parseHttpDate('Tue, 14 Nov 2023 23:13:20 +0100'), 1700000000);
  // 14 Nov 2023 is a Tuesday; "Wed" moves to the 15th.
  assert.equal(parseHttpDate('Wed, 14 Nov 2023 22:13:20 GMT'), 1700000000 + 86400);
});

test('retry decisions: listed codes (2xx included), curl codes, maxRetries', () => {
  const policy = retryPolicyFrom(decodeJson('{"maxRetries": 2, "http": {"codes": [202, "503"]}}', 'config'));
  assert.equal(policy.maxRetries, 2);
  assert.deepEqual(policy.httpCodes, [202]);
  assert.equal(shouldRetry(policy, 0, { status: 202, headers: {} }), true);
  assert.equal(shouldRetry(policy, 0, { status: 503, headers: {} }), false);
  assert.equal(shouldRetry(policy, 2, { status: 202, headers: {} }), false);
  assert.equal(shouldRetry(policy, 0, { curlCode: 28 }), true);
  assert.equal(shouldRetry(policy, 0, { curlCode: 60 }), false);
});

test('legacy retry keys replace the whole http object', () => {
  const policy = retryPolicyFrom(decodeJson('{"headerName": "X-Wait", "http": {"codes": [418]}}', 'config'));
  assert.equal(policy.retryHeader, 'X-Wait');
  assert.deepEqual(policy.httpCodes, DEFAULT_RETRY.httpCodes);
  assert.deepEqual(retryPolicyFrom(decodeJson('{}', 'config')), DEFAULT_RETRY);
});
