/**
 * The sync actions' retry timing (src/http/helperRetryTiming.ts, spec 05 §4.3): no wait before
 * the first retry, then 0.3 × 2^(n−1) s up to 120 s; `Retry-After` read as urllib3 reads it, on
 * any retried response; 413, 429 and 503 retried when they carry it. The extractor's timing is tested, unchanged, in retry.test.ts.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { HELPER_RETRIED_WITH_HEADER, HELPER_RETRY_TIMING, helperBackoffMs, helperRetryAfterMs } from '../../src/http/helperRetryTiming.ts';
import { DEFAULT_RETRY, retryHeaderValue, shouldRetry } from '../../src/http/retry.ts';

const now = 1_700_000_000;

test('back-off: nothing before retry 1, then 0.6, 1.2, 2.4 … s, at most 120 s', () => {
  assert.deepEqual([1, 2, 3, 4, 5, 6, 9, 10, 20].map(helperBackoffMs), [0, 600, 1200, 2400, 4800, 9600, 76_800, 120_000, 120_000]);
  assert.deepEqual(
    [1, 2, 3].map((r) => HELPER_RETRY_TIMING.delayMs(r, undefined, now)),
    [0, 600, 1200],
  );
});

test('Retry-After as urllib3 reads it: whole seconds or an HTTP date; zero, past and unreadable values give the back-off', () => {
  const wait = (value: string, retry = 3) => HELPER_RETRY_TIMING.delayMs(retry, value, now);
  assert.equal(wait('2'), 2000);
  assert.equal(wait(' 10 '), 10_000);
  // A large number is seconds, not a Unix time as the extractor reads it.
  assert.equal(helperRetryAfterMs(String(now + 7), now), (now + 7) * 1000);
  assert.equal(wait(new Date((now + 9) * 1000).toUTCString()), 9000);
  for (const value of ['0', new Date((now - 5) * 1000).toUTCString(), '1.5', 'soon', '-3']) assert.equal(wait(value), 1200, value);
});

test('retried statuses: codes, and 413, 429 and 503 when they carry a non-empty Retry-After (urllib3 is_retry)', () => {
  const policy = { ...DEFAULT_RETRY, httpCodes: [500], retriedWithHeader: HELPER_RETRIED_WITH_HEADER };
  const with10 = (status: number) => shouldRetry(policy, 0, { status, headers: { 'retry-after': '10' } });
  assert.deepEqual([500, 413, 429, 503, 502, 404].map(with10), [true, true, true, true, false, false]);
  assert.equal(shouldRetry(policy, 0, { status: 429, headers: {} }), false);
  assert.equal(shouldRetry(policy, 0, { status: 429, headers: { 'retry-after': '' } }), false);
  assert.equal(shouldRetry(DEFAULT_RETRY, 0, { status: 413, headers: { 'retry-after': '1' } }), false);
  assert.equal(retryHeaderValue(['1', '2']), '1, 2');
});
