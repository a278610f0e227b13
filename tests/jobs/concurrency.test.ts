/**
 * Concurrent child jobs (jobs/prefetch.ts) against a real local server: a run at
 * concurrency 8 must be indistinguishable from the sequential run (concurrency 1) in everything
 * but timing and the order in which the server sees the requests: tables, state, every log line
 * in order (debug request lines included), which error wins and its message.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type http from 'node:http';
import { makeDataDir, runIn, type RunResult } from '../helpers/dataDir.ts';
import { startServer, type Received } from '../helpers/httpServer.ts';
import { DEFAULT_CONCURRENCY, concurrencyOf } from '../../src/jobs/concurrency.ts';
import { PhpArray } from '../../src/php/value.ts';
import { HostGate, type Permit } from '../../src/http/rateLimit/hostGate.ts';
import { systemClock } from '../../src/http/rateLimit/clock.ts';

interface Outcome extends RunResult {
  requests: string[];
  /** Most API requests the server was answering at once. */
  maxInFlight: number;
  logins: number;
  maxLoginsInFlight: number;
}

type Reply = { status?: number; body: unknown; delayMs?: number; headers?: Record<string, string> };

/** Delays in varying order: 0, 4, 8 or 12 ms, by a hash of the request target. */
function delayOf(target: string): number {
  let h = 7;
  for (let i = 0; i < target.length; i++) h = (h * 31 + target.charCodeAt(i)) >>> 0;
  return (h % 4) * 4;
}

async function runAt(
  concurrency: number,
  config: (base: string) => unknown,
  answer: (req: Received, seen: number) => Reply,
  nowMs?: () => number,
): Promise<Outcome> {
  let inFlight = 0;
  let maxInFlight = 0;
  let loginsInFlight = 0;
  let maxLoginsInFlight = 0;
  let logins = 0;
  const seen = new Map<string, number>();
  const server = await startServer((req, res: http.ServerResponse) => {
    const login = req.target.startsWith('/api/login');
    if (login) {
      logins++;
      maxLoginsInFlight = Math.max(maxLoginsInFlight, ++loginsInFlight);
    } else {
      maxInFlight = Math.max(maxInFlight, ++inFlight);
    }
    const n = seen.get(req.target) ?? 0;
    seen.set(req.target, n + 1);
    const reply = answer(req, n);
    setTimeout(() => {
      if (login) loginsInFlight--;
      else inFlight--;
      res.writeHead(reply.status ?? 200, { 'Content-Type': 'application/json', ...(reply.headers ?? {}) });
      res.end(JSON.stringify(reply.body));
    }, reply.delayMs ?? delayOf(req.target));
  });
  try {
    const cfg = config(server.url) as { parameters: { api: Record<string, unknown> } };
    cfg.parameters.api['http'] = { concurrency };
    const result = await runIn(makeDataDir(cfg), nowMs ? { nowMs } : {});
    return { ...result, requests: server.requests.map((r) => `${r.method} ${r.target}`), maxInFlight, logins, maxLoginsInFlight };
  } finally {
    await server.close();
  }
}

/** Rate-limit INFO lines say when and how much pacing happened: that depends on timing. */
const normalise = (lines: string[]): string[] =>
  lines
    .filter((l) => !l.includes('logger.INFO: Rate limit: '))
    .map((l) =>
      l
        .replace(/^\[[^\]]*\] /, '')
        .replace(/127\.0\.0\.1:\d+/g, 'HOST')
        .replace(/ge-test-\w+/g, 'DIR')
        // Response times and the run's duration differ from run to run.
        .replace(/ in [\d,]+ ms\b/g, ' in N ms')
        .replace(/, [\d.]+ s\. \{(.*)"durationMs":\d+\}/, ', N s. {$1"durationMs":N}'),
    );

function assertSameRun(par: Outcome, seq: Outcome): void {
  assert.equal(par.code, seq.code, par.lines.join('\n'));
  assert.deepEqual(par.tables(), seq.tables());
  assert.equal(par.state()?.replace(/"previousStart":\d+/, ''), seq.state()?.replace(/"previousStart":\d+/, ''));
  assert.deepEqual(normalise(par.lines), normalise(seq.lines));
}

const tree = (base: string): unknown => ({
  parameters: {
    api: { baseUrl: `${base}/api/`, pagination: { method: 'offset', limit: 3 } },
    config: {
      outputBucket: 'b',
      debug: true,
      jobs: [
        {
          endpoint: 'users',
          dataField: 'items',
          children: [
            {
              endpoint: 'users/{uid}/orders',
              dataType: 'orders',
              dataField: 'items',
              placeholders: { uid: 'id' },
              children: [{ endpoint: 'orders/{oid}/lines', dataType: 'lines', dataField: 'items', placeholders: { oid: 'id' } }],
            },
            { endpoint: 'users/{uid}/profile', dataType: 'profile', dataField: 'items', placeholders: { uid: 'id' } },
          ],
        },
      ],
    },
  },
});

/**
 * 7 users on 3 pages; user u has u % 4 orders (3 orders spill onto a second page); every order
 * has 2 lines; every user a profile. The first attempt of user 4's profile gets a 429.
 */
function api(failures: Record<string, number> = {}): (req: Received, seen: number) => Reply {
  return (req, seen) => {
    const url = new URL(req.target, 'http://x');
    const offset = Number(url.searchParams.get('offset'));
    const path = url.pathname;
    if (failures[path] !== undefined) return { status: 404, body: { error: `no ${path}` }, delayMs: failures[path] };
    if (path === '/api/users') {
      const ids = [1, 2, 3, 4, 5, 6, 7].slice(offset, offset + 3);
      return { body: { items: ids.map((id) => ({ id, name: `user ${id}`, tags: id % 2 ? ['a', 'b'] : [] })) } };
    }
    let m = /^\/api\/users\/(\d+)\/orders$/.exec(path);
    if (m) {
      const u = Number(m[1]);
      const all = Array.from({ length: u % 4 === 3 ? 4 : u % 4 }, (_, k) => ({ id: u * 10 + k, total: u + k / 4 }));
      return { body: { items: all.slice(offset, offset + 3) } };
    }
    m = /^\/api\/orders\/(\d+)\/lines$/.exec(path);
    if (m)
      return { body: { items: offset > 0 ? [] : [1, 2].map((k) => ({ id: Number(m![1]) * 10 + k, qty: k, meta: { sku: `s${k}` } })) } };
    m = /^\/api\/users\/(\d+)\/profile$/.exec(path);
    if (m) {
      if (m[1] === '4' && seen === 0) return { status: 429, body: { error: 'slow down' }, headers: { 'Retry-After': '1' } };
      return { body: { items: [{ bio: `bio ${m[1]}`, score: Number(m[1]) * 1.5 }] } };
    }
    return { status: 404, body: { error: 'unknown' } };
  };
}

test('concurrency 8 = concurrency 1: multi-level children, pagination, varying delays, a 429 with Retry-After', async () => {
  const seq = await runAt(1, tree, api());
  const par = await runAt(8, tree, api());
  assert.equal(seq.code, 0, seq.lines.join('\n'));
  assertSameRun(par, seq);
  assert.equal(seq.maxInFlight, 1);
  assert.ok(par.maxInFlight > 1 && par.maxInFlight <= 8, `in flight at once: ${par.maxInFlight}`);
  // The same requests (the 429 retry included), in another order.
  assert.deepEqual([...par.requests].sort(), [...seq.requests].sort());
  assert.equal(seq.requests.filter((r) => r.startsWith('GET /api/users/4/profile')).length, 2);
  assert.ok(seq.lines.some((l) => l.includes('Http request failed, retrying in 1.0 seconds [1x].')));
  assert.match(seq.tables()['b.lines'] ?? '', /^"311","1","s1","31"$/m);
});

test('a failing request surfaces at its turn with the sequential message; an earlier failure wins over a later one', async () => {
  // Order 31's lines fail slowly; user 3's profile (later in the sequential order: the profiles
  // of a page come after all its orders) fails at once.
  const failures = { '/api/orders/31/lines': 30, '/api/users/3/profile': 0 };
  const seq = await runAt(1, tree, api(failures));
  const par = await runAt(8, tree, api(failures));
  assert.equal(seq.code, 1);
  assertSameRun(par, seq);
  const error = normalise([seq.lines.at(-1)!])[0]!;
  assert.ok(
    error.startsWith(
      'logger.ERROR: The API request failed: [404] Client error: `GET http://HOST/api/orders/31/lines?limit=3&offset=0` resulted in a `404 Not Found` response',
    ),
    error,
  );
  // The later failure was requested early by the concurrent run, yet did not win.
  assert.ok(par.requests.includes('GET /api/users/3/profile?limit=3&offset=0'));
  assert.ok(!seq.requests.includes('GET /api/users/3/profile?limit=3&offset=0'));
  assert.equal(par.tables()['b.users'], undefined);
});

test('login expiry under concurrency: one login at a time, re-login on expiry, same output', async () => {
  let clock = 1_700_000_000_000;
  const withLogin = (base: string): unknown => {
    const config = tree(base) as { parameters: { api: Record<string, unknown> } };
    config.parameters.api['authentication'] = {
      type: 'login',
      loginRequest: { endpoint: 'login' },
      apiRequest: { headers: { 'X-Token': 'token' } },
      expires: 3,
    };
    return config;
  };
  const issued = new Set<string>();
  const base = api();
  const answer = (req: Received, seen: number): Reply => {
    if (req.target.startsWith('/api/login')) {
      const token = `t${issued.size}`;
      issued.add(token);
      return { body: { token }, delayMs: 15 };
    }
    clock += 1000; // every API request moves the extractor's clock by a second
    const token = req.headers['x-token'];
    if (typeof token !== 'string' || !issued.has(token)) return { status: 401, body: { error: 'no token' } };
    return base(req, seen);
  };
  const seq = await runAt(1, withLogin, answer, () => clock);
  const par = await runAt(8, withLogin, answer, () => clock);
  assert.equal(seq.code, 0, seq.lines.join('\n'));
  assert.equal(par.code, 0, par.lines.join('\n'));
  assert.deepEqual(par.tables(), seq.tables());
  assert.ok(seq.logins > 1 && par.logins > 1, `logins: ${seq.logins} / ${par.logins}`);
  assert.equal(par.maxLoginsInFlight, 1);
});

test('concurrency knob: EX_GENERIC_CONCURRENCY wins over parameters.api.http.concurrency; default 10; invalid values fail', () => {
  const api = (concurrency: unknown): PhpArray => new PhpArray([['http', new PhpArray([['concurrency', concurrency as never]])]]);
  assert.equal(concurrencyOf(undefined, {}), DEFAULT_CONCURRENCY);
  assert.equal(DEFAULT_CONCURRENCY, 10);
  assert.equal(concurrencyOf(api(3), {}), 3);
  assert.equal(concurrencyOf(api('4'), {}), 4);
  assert.equal(concurrencyOf(api(3), { EX_GENERIC_CONCURRENCY: '1' }), 1);
  assert.equal(concurrencyOf(api(1000), {}), 64);
  assert.throws(() => concurrencyOf(api(0), {}), /The 'concurrency' option must be a positive integer\./);
  assert.throws(() => concurrencyOf(api('x'), {}), /positive integer/);
  assert.throws(() => concurrencyOf(undefined, { EX_GENERIC_CONCURRENCY: '-2' }), /EX_GENERIC_CONCURRENCY must be a positive integer/);
});

test('host gate: at most `concurrency` holders; a freed slot goes to the earliest sequential position', async () => {
  const gate = new HostGate({ name: 'h', concurrency: 2, followSignals: true, clock: systemClock, notify: () => {} });
  const held: Permit[] = [await gate.acquire({ order: [0], slot: true }), await gate.acquire({ order: [1], slot: true })];
  const granted: string[] = [];
  const wait = (order: number[]): Promise<void> =>
    gate.acquire({ order, slot: true }).then((p) => {
      held.push(p);
      granted.push(order.join('.'));
    });
  const later = wait([2]);
  const nested = wait([0, 5, 1]);
  const first = wait([0, 5]);
  held.shift()!.done(undefined);
  await first;
  held.shift()!.done(undefined);
  await nested;
  held.shift()!.done(undefined);
  await later;
  assert.deepEqual(granted, ['0.5', '0.5.1', '2']);
});
