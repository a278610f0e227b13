/**
 * The rate limiter's parts on an injected clock: header parsing, the configured sliding
 * windows, pacing by the API's statements, AIMD on 429 and the order of permits.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readSignals } from '../../../src/http/rateLimit/signals.ts';
import { ConfiguredBudget, SlidingWindow } from '../../../src/http/rateLimit/budget.ts';
import { SignalPacer } from '../../../src/http/rateLimit/signalPacer.ts';
import { HostGate, type Permit } from '../../../src/http/rateLimit/hostGate.ts';
import type { Clock } from '../../../src/http/rateLimit/clock.ts';
import { RateLimiter, rateLimitOptions } from '../../../src/http/rateLimit/index.ts';
import { decodeJson } from '../../../src/php/jsonDecode.ts';

/** A clock that moves only when told to, firing due timers in order. */
class FakeClock implements Clock {
  private t = 1_700_000_000_000;
  private timers: { at: number; fn: () => void; live: boolean }[] = [];
  now(): number {
    return this.t;
  }
  timer(fn: () => void, ms: number): () => void {
    const entry = { at: this.t + Math.max(0, ms), fn, live: true };
    this.timers.push(entry);
    return () => {
      entry.live = false;
    };
  }
  /** Timers not yet fired or cancelled. */
  pending(): number {
    return this.timers.filter((x) => x.live).length;
  }
  async advance(ms: number): Promise<void> {
    const end = this.t + ms;
    for (;;) {
      const due = this.timers.filter((x) => x.live && x.at <= end).sort((a, b) => a.at - b.at)[0];
      if (due === undefined) break;
      due.live = false;
      this.t = Math.max(this.t, due.at);
      due.fn();
      await new Promise((r) => setImmediate(r));
    }
    this.t = end;
    await new Promise((r) => setImmediate(r));
  }
}

test('signals: IETF draft fields, the combined field, X-RateLimit variants, Retry-After', () => {
  const now = 1_700_000_000_000;
  assert.deepEqual(
    readSignals(200, { 'ratelimit-limit': '100', 'ratelimit-remaining': '7', 'ratelimit-reset': '3', 'ratelimit-policy': '100;w=60' }, now),
    { limit: 100, remaining: 7, resetMs: 3000, windowMs: 60_000 },
  );
  assert.deepEqual(readSignals(200, { ratelimit: 'limit=50, remaining=4, reset=2' }, now), { limit: 50, remaining: 4, resetMs: 2000 });
  assert.deepEqual(readSignals(200, { ratelimit: '"default";r=4;t=2', 'ratelimit-policy': '"default";q=50;w=10' }, now), {
    remaining: 4,
    resetMs: 2000,
    windowMs: 10_000,
    limit: 50,
  });
  // Reset as delta seconds, Unix seconds and Unix milliseconds.
  assert.equal(
    readSignals(200, { 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': '1', 'x-ratelimit-reset': '30' }, now)!.resetMs,
    30_000,
  );
  assert.equal(readSignals(200, { 'x-ratelimit-reset': String(now / 1000 + 12) }, now)!.resetMs, 12_000);
  assert.equal(readSignals(200, { 'x-rate-limit-reset': String(now + 500) }, now)!.resetMs, 500);
  assert.equal(readSignals(429, { 'retry-after': '2' }, now)!.retryAfterMs, 2000);
  assert.equal(readSignals(429, { 'retry-after': String(now / 1000 + 3) }, now)!.retryAfterMs, 3000);
  assert.equal(readSignals(503, { 'retry-after': new Date(now + 5000).toUTCString() }, now)!.retryAfterMs, 5000);
  assert.equal(readSignals(200, { 'retry-after': '2' }, now), undefined, 'Retry-After counts on 429/503 only');
  assert.equal(readSignals(200, { 'content-type': 'application/json' }, now), undefined);
});

test('configured budget: never more than N sends in any window, per second and per minute at once', () => {
  const budget = new ConfiguredBudget({ requestsPerSecond: 5, requestsPerMinute: 12 });
  const sends: number[] = [];
  let t = 0;
  while (sends.length < 30) {
    t = budget.earliest(t);
    budget.record(t);
    sends.push(t);
  }
  const most = (window: number): number => Math.max(...sends.map((s) => sends.filter((x) => x >= s && x < s + window).length));
  assert.equal(most(1000), 5);
  assert.equal(most(60_000), 12);
  // A fraction: 0.5 per second is one request per 2 s.
  const slow = new SlidingWindow(0.5, 1000);
  assert.equal(slow.count, 1);
  assert.equal(slow.windowMs, 2000);
});

test('rateLimit options: checked with the path of the offending key', () => {
  const api = (json: string) => decodeJson(json, 'config');
  assert.deepEqual(rateLimitOptions(api('{"http":{"rateLimit":{"requestsPerSecond":2.5}}}')), {
    followHeaders: true,
    requestsPerSecond: 2.5,
  });
  assert.deepEqual(rateLimitOptions(api('{"http":{}}')), { followHeaders: true });
  assert.throws(() => rateLimitOptions(api('{"http":{"rateLimit":{"requestsPerMinute":0}}}')), {
    message: /'requestsPerMinute' option of 'rateLimit' must be a number greater than 0/,
  });
  assert.throws(() => rateLimitOptions(api('{"http":{"rateLimit":{"followHeaders":"no"}}}')), {
    configPath: 'parameters.api.http.rateLimit.followHeaders',
  } as never);
});

test('pacer: bursts while the budget is above the reserve, spaces requests below it, waits for the reset when spent', () => {
  const pacer = new SignalPacer();
  const now = 0;
  const seq = pacer.onSend(now, false);
  pacer.observe(seq, { limit: 10, remaining: 5, resetMs: 4000 }, now);
  // 5 left, reserve 2: three go at once, the fourth too (the first one spaced from now).
  for (let i = 0; i < 4; i++) {
    assert.equal(pacer.earliest(now), now);
    pacer.onSend(now, pacer.paced(now));
  }
  // Below the reserve: what is left is spread over the time to the reset (2 left, 4 s → 2 s apart).
  assert.equal(pacer.earliest(now), 2000);
  assert.match(pacer.engagedWith!, /5 left of 10/);
  pacer.onSend(2000, pacer.paced(2000));
  // None left: not before the reset; then a new window.
  assert.equal(pacer.earliest(2000), 4000);
  assert.equal(pacer.earliest(4000), 4000);
});

test('pacer: with a policy window, the policy rate below the reserve; Retry-After holds everything', () => {
  const pacer = new SignalPacer();
  const seq = pacer.onSend(0, false);
  pacer.observe(seq, { limit: 100, remaining: 20, resetMs: 1000, windowMs: 1000 }, 0);
  assert.equal(pacer.earliest(0), 0);
  pacer.onSend(0, pacer.paced(0));
  assert.ok(pacer.earliest(0) >= 10, 'at most 100 per second');
  pacer.observe(seq + 1, { retryAfterMs: 3000 }, 0);
  assert.equal(pacer.earliest(100), 3000);
});

test('AIMD: a 429 halves the requests on the wire (once per round), successes grow it back by one per round', async () => {
  const clock = new FakeClock();
  const notices: string[] = [];
  const gate = new HostGate({ name: 'h', concurrency: 8, followSignals: true, clock, notify: (m) => notices.push(m) });
  const held: Permit[] = [];
  for (let i = 0; i < 8; i++) held.push(await gate.acquire({ order: [i], slot: true }));
  let granted = 0;
  const waiters = Array.from({ length: 20 }, (_, i) =>
    gate.acquire({ order: [100 + i], slot: true }).then((p) => {
      granted++;
      return p;
    }),
  );
  // Two 429s to requests sent in the same round: one cut, to 4.
  held.shift()!.done({ status: 429, headers: {} });
  held.shift()!.done({ status: 429, headers: {} });
  await clock.advance(0);
  assert.equal(granted, 0, '6 on the wire, the window is 4');
  assert.equal(gate.stats.concurrency, 4);
  assert.equal(gate.stats.concurrencyCuts, 1);
  assert.match(notices[0]!, /cut from 8 to 4/);
  // Answers bring the wire below 4: only then new requests go.
  held.shift()!.done({ status: 200, headers: {} });
  held.shift()!.done({ status: 200, headers: {} });
  held.shift()!.done({ status: 200, headers: {} });
  await clock.advance(0);
  assert.equal(granted, 1, '3 on the wire + 1');
  // Successes grow the window by about one per round of answers.
  for (const p of held.splice(0)) p.done({ status: 200, headers: {} });
  await clock.advance(0);
  assert.ok(gate.stats.concurrency >= 4 && gate.stats.concurrency <= 6, String(gate.stats.concurrency));
  const permits = await Promise.all(waiters.slice(0, granted));
  for (const p of permits) p.done({ status: 200, headers: {} });
});

test('host gate: logins pass without a slot but are paced; an aborted wait leaves the queue', async () => {
  const clock = new FakeClock();
  const gate = new HostGate({
    name: 'h',
    concurrency: 1,
    budget: new ConfiguredBudget({ requestsPerSecond: 1 }),
    followSignals: true,
    clock,
    notify: () => {},
  });
  const first = await gate.acquire({ order: [0], slot: true });
  let login = false;
  const loginPermit = gate.acquire({ order: [0], slot: false }).then((p) => {
    login = true;
    return p;
  });
  await clock.advance(500);
  assert.equal(login, false, 'the budget holds the login too');
  await clock.advance(600);
  assert.equal(login, true, 'no slot needed');
  const stop = new AbortController();
  const aborted = gate.acquire({ order: [1], slot: true, signal: stop.signal });
  stop.abort(new Error('dropped'));
  await assert.rejects(aborted, /dropped/);
  (await loginPermit).done(undefined);
  first.done(undefined);
  assert.equal(gate.stats.requests, 2);
});

test('host gate: a wait aborted while paced leaves no timer behind; an API cannot hold a host for more than an hour', async () => {
  const clock = new FakeClock();
  const gate = new HostGate({ name: 'h', concurrency: 4, followSignals: true, clock, notify: () => {} });
  const first = await gate.acquire({ order: [0], slot: true });
  first.done({ status: 429, headers: { 'retry-after': String(10 * 86400) } });
  const stop = new AbortController();
  const held = gate.acquire({ order: [1], slot: true, signal: stop.signal });
  await clock.advance(0);
  assert.equal(clock.pending(), 1, 'waiting for the Retry-After');
  stop.abort(new Error('run ended'));
  await assert.rejects(held, /run ended/);
  assert.equal(clock.pending(), 0);
  let granted = false;
  const next = gate.acquire({ order: [2], slot: true }).then((p) => {
    granted = true;
    return p;
  });
  await clock.advance(3600_000 + 1);
  assert.equal(granted, true, 'held for an hour at most');
  (await next).done(undefined);
});

test('a retry delay counts as time passed, also several in a row on a clock that stands still', { timeout: 10_000 }, async () => {
  const frozen: Clock = {
    now: () => 0,
    timer: (fn, ms) => {
      const t = setTimeout(fn, ms);
      return () => clearTimeout(t);
    },
  };
  const limiter = new RateLimiter({ followHeaders: true }, 2, () => {}, frozen);
  for (let i = 0; i < 3; i++) {
    // Held for 10 minutes by the Retry-After unless the retry's own delay counts.
    const permit = await limiter.acquire('h', { order: [0], slot: true });
    permit.done({ status: 503, headers: { 'retry-after': '600' } });
    await limiter.sleep(600_000, async () => {});
  }
});
