/**
 * Timers above 2^31−1 ms (issue 19 #3): Node turns them into 1 ms. Configured timeouts out of
 * range are the longest timer, with a WARNING naming the key (the reference accepts them); a server asking for a wait longer
 * than the maximum honoured (6 h) fails with a clear message instead of retrying in a hot loop; an
 * exponential back-off grown past it names maxRetries; and a sleep never ends before it is due.
 */
import assert from 'node:assert/strict';
import { after, before, mock, test } from 'node:test';
import { MAX_SERVER_WAIT_MS, MAX_TIMER_MS, sleepAtLeast } from '../../src/http/waits.ts';
import { assertFailed, cleanup, NOW_S, runWith, sendJson, startFaultServer, strip, type FaultServer } from '../reliability/helpers.ts';

let api: FaultServer;
before(async () => {
  api = await startFaultServer((q, res) => {
    const retryAfter = new URLSearchParams(q.target.split('?')[1] ?? '').get('retryAfter');
    if (q.target.startsWith('/busy')) return sendJson(res, 503, { busy: true }, retryAfter === null ? {} : { 'Retry-After': retryAfter });
    sendJson(res, 200, [{ id: 1 }]);
  });
});
after(() => api.close());

function config(http: Record<string, unknown>, endpoint = 'users', retryConfig?: Record<string, unknown>): unknown {
  return {
    parameters: {
      api: { baseUrl: `${api.url}/`, http, ...(retryConfig ? { retryConfig } : {}) },
      config: { outputBucket: 'w', jobs: [{ endpoint }] },
    },
  };
}

test('timeouts a timer cannot hold ("no timeout": 1e7) are the longest timer, with a WARNING naming the key', async () => {
  for (const [key, value, text] of [
    ['requestTimeout', 1e7, '10000000'],
    ['connectTimeout', '1e10', '"1e10"'],
    ['requestTimeout', 2147484, '2147484'],
  ] as const) {
    const r = await runWith(config({ [key]: value }));
    assert.equal(r.code, 0, r.lines.map(strip).slice(-2).join('\n'));
    const warnings = r.lines.map(strip).filter((l) => l.includes('longer than the longest timeout possible'));
    assert.deepEqual(warnings, [
      `logger.WARNING: parameters.api.http.${key}: ${text} seconds is longer than the longest timeout possible: 2147483 seconds (about 24.8 days) are used instead. {"configPath":"parameters.api.http.${key}"} []`,
    ]);
    cleanup(r);
  }
  // The largest value a timer holds is taken as it is.
  const r = await runWith(config({ requestTimeout: Math.floor(MAX_TIMER_MS / 1000), connectTimeout: 2147483 }));
  assert.equal(r.code, 0, r.lines.map(strip).slice(-2).join('\n'));
  assert.ok(!r.lines.some((l) => l.includes('longest timeout')));
  cleanup(r);
});

test('Retry-After beyond the maximum: one request, a clear error, no retries in a hot loop', async () => {
  for (const value of ['3000000', String(NOW_S + 30 * 86400), 'Wed, 01 Jan 2100 00:00:00 GMT']) {
    const before = api.requests.length;
    const r = await runWith(config({}, `busy?retryAfter=${encodeURIComponent(value)}`));
    const error = assertFailed(r, 1, value);
    assert.match(error, /The API asked to wait [\d.]+ (days|h) before retry 1 of GET http:\/\/127\.0\.0\.1:\d+\/busy/);
    assert.ok(error.includes(`(Retry-After: ${value})`) && error.includes('the longest wait honoured is 6.0 h'), error);
    assert.equal(api.requests.length - before, 1, 'no retry was sent');
    assert.deepEqual(r.sleeps, []);
    cleanup(r);
  }
});

test('Retry-After up to the maximum is honoured in full', async () => {
  const r = await runWith(config({}, `busy?retryAfter=${MAX_SERVER_WAIT_MS / 1000}`, { maxRetries: 2 }));
  assert.equal(r.code, 1);
  assert.deepEqual(r.sleeps, [MAX_SERVER_WAIT_MS, MAX_SERVER_WAIT_MS]);
  cleanup(r);
});

test('an exponential back-off grown past the maximum names maxRetries', async () => {
  const r = await runWith(config({}, 'busy', { maxRetries: 40 }));
  const error = assertFailed(r, 1, 'maxRetries 40');
  assert.match(error, /^logger\.ERROR: Retry 16 of GET http:\/\/127\.0\.0\.1:\d+\/busy would wait 9\.1 h \(exponential back-off\)/);
  assert.ok(error.includes('"configPath":"parameters.api.retryConfig.maxRetries"'), error);
  assert.deepEqual(
    r.sleeps,
    Array.from({ length: 15 }, (_, i) => 1000 * 2 ** i),
  );
  cleanup(r);
});

test('a sleep longer than a timer can hold is cut into steps and ends when due, not after 1 ms', async () => {
  mock.timers.enable({ apis: ['setTimeout'] });
  try {
    let now = 0;
    let done = false;
    const asked = MAX_TIMER_MS + 5000;
    const sleeping = sleepAtLeast(asked, () => now).then(() => (done = true));
    const settle = () => new Promise<void>((resolve) => setImmediate(resolve));
    for (const step of [1, MAX_TIMER_MS - 2, 1, 4999]) {
      now += step;
      mock.timers.tick(step);
      await settle();
      assert.equal(done, false, `still sleeping at ${now} of ${asked} ms`);
    }
    now += 1;
    mock.timers.tick(1);
    await sleeping;
    assert.equal(now, asked);
  } finally {
    mock.timers.reset();
  }
});

test('a sleep never ends before it is due, even when a timer fires early', async () => {
  mock.timers.enable({ apis: ['setTimeout'] });
  try {
    // The clock runs 1 ms behind the timers: the first timer fires with 1 ms still to go.
    let now = 0;
    let done = false;
    const sleeping = sleepAtLeast(1000, () => now).then(() => (done = true));
    now = 999;
    mock.timers.tick(1000);
    await new Promise<void>((resolve) => setImmediate(resolve));
    assert.equal(done, false);
    now = 1000;
    mock.timers.tick(1);
    await sleeping;
  } finally {
    mock.timers.reset();
  }
});
