/**
 * Request budgets against real local servers that enforce them: a configured budget is never
 * exceeded in any window (counted by the server on arrival, logins and retries included),
 * pacing by the API's headers avoids 429s without configuration, and a 429 cuts the requests
 * on the wire. No wall-time assertions: the servers count.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type http from 'node:http';
import { makeDataDir, readTables, runIn, type RunResult } from '../../helpers/dataDir.ts';
import * as extractor from '../../../src/extractor.ts';
import { startServer, type Received } from '../../helpers/httpServer.ts';

type Reply = { status: number; body: unknown; headers?: Record<string, string> };

interface Served extends RunResult {
  arrivals: number[];
  tooMany: number;
  requests: string[];
}

/** Runs a parent `ids` job with a child per id against `answer`; answers after a few ms. */
/** A run on the real clock: its waits really wait (runIn's sleep returns at once, which makes pacing free). */
async function runOnRealClock(dir: string): Promise<RunResult> {
  const lines: string[] = [];
  const code = await extractor.run({ env: { KBC_DATADIR: dir }, write: (line) => lines.push(line) });
  return { code, lines, dir, tables: () => readTables(dir), state: () => undefined };
}

async function extract(
  answer: (req: Received, now: number) => Reply,
  api: Record<string, unknown> = {},
  onDone: () => void = () => {},
  realClock = true,
): Promise<Served> {
  const arrivals: number[] = [];
  let tooMany = 0;
  const server = await startServer((req, res: http.ServerResponse) => {
    const now = performance.now();
    arrivals.push(now);
    const reply = answer(req, now);
    if (reply.status === 429) tooMany++;
    setTimeout(() => {
      res.writeHead(reply.status, { 'Content-Type': 'application/json', ...(reply.headers ?? {}) });
      res.end(JSON.stringify(reply.body));
      onDone();
    }, 3);
  });
  try {
    const config = {
      parameters: {
        api: { baseUrl: `${server.url}/api/`, ...api },
        config: {
          outputBucket: 'b',
          jobs: [
            {
              endpoint: 'ids',
              dataType: 'ids',
              children: [{ endpoint: 'item/{id}', dataType: 'item', dataField: '.', placeholders: { id: 'id' } }],
            },
          ],
        },
      },
    };
    const result = realClock ? await runOnRealClock(makeDataDir(config)) : await runIn(makeDataDir(config));
    return { ...result, arrivals, tooMany, requests: server.requests.map((r) => r.target) };
  } finally {
    await server.close();
  }
}

function data(req: Received, ids: number): unknown {
  if (req.target.startsWith('/api/ids')) return Array.from({ length: ids }, (_, i) => ({ id: i + 1 }));
  if (req.target.startsWith('/api/login')) return { token: 't' };
  return { id: Number(/item\/(\d+)/.exec(req.target)?.[1]), ok: true };
}

/** Most arrivals in any window of `ms` (windows starting at each arrival). */
function most(arrivals: number[], ms: number): number {
  return Math.max(...arrivals.map((a) => arrivals.filter((b) => b >= a && b < a + ms).length));
}

test('configured budget: at most 5 requests in any second, the login and a retried 429 included', async () => {
  const IDS = 10;
  const seen = new Set<string>();
  const result = await extract(
    (req) => {
      if (req.target === '/api/item/4' && !seen.has(req.target)) {
        seen.add(req.target);
        // A date in the past: retry at once (as the reference does), so the test does not sleep.
        return { status: 429, body: { error: 'again' }, headers: { 'Retry-After': 'Thu, 01 Jan 1970 00:00:01 GMT' } };
      }
      return { status: 200, body: data(req, IDS) };
    },
    {
      http: { rateLimit: { requestsPerSecond: 5, followHeaders: false } },
      authentication: { type: 'login', loginRequest: { endpoint: 'login' }, apiRequest: { headers: { 'X-Token': { response: 'token' } } } },
    },
  );
  assert.equal(result.code, 0, result.lines.join('\n'));
  assert.equal(result.arrivals.length, 1 + 1 + IDS + 1, 'login, parent, children, one retry');
  assert.ok(result.requests[0]!.startsWith('/api/login'));
  // Arrivals are stamped when the server's handler runs, which shares the (loaded) event loop with
  // the extractor here, and a first request on a new connection is stamped late: 200 ms of that
  // jitter is allowed for. Unpaced, all 13 requests would arrive within a few tens of ms.
  assert.ok(
    most(result.arrivals, 800) <= 5,
    `${most(result.arrivals, 800)} requests in 800 ms: ${result.arrivals.map((a) => Math.round(a - result.arrivals[0]!)).join(' ')} ${result.requests.join(' ')}`,
  );
  assert.ok(
    result.lines.some((l) => l.includes('INFO: Rate limit: pacing requests to http://127.0.0.1') && l.includes('configured budget (5/s)')),
  );
  assert.ok(result.lines.some((l) => /INFO: Rate limit: 13 requests to http:\/\/127\.0\.0\.1:\d+ in [\d.]+ s/.test(l)));
});

test('no configuration, a fixed-window API (8 per second, RateLimit headers): paced by its headers, no 429', async () => {
  // 13 requests: unpaced, 5 of them would be refused; paced, the second window holds them (~1 s).
  const IDS = 12;
  const LIMIT = 8;
  let windowStart = -Infinity;
  let used = 0;
  const result = await extract((req, now): Reply => {
    if (now >= windowStart + 1000) {
      windowStart = now;
      used = 0;
    }
    const reset = String(Math.max(1, Math.ceil((windowStart + 1000 - now) / 1000)));
    if (used >= LIMIT)
      return {
        status: 429,
        body: {},
        headers: { 'Retry-After': reset, 'RateLimit-Limit': String(LIMIT), 'RateLimit-Remaining': '0', 'RateLimit-Reset': reset },
      };
    used++;
    return {
      status: 200,
      body: data(req, IDS),
      headers: { 'RateLimit-Limit': String(LIMIT), 'RateLimit-Remaining': String(LIMIT - used), 'RateLimit-Reset': reset },
    };
  });
  assert.equal(result.code, 0, result.lines.join('\n'));
  assert.equal(result.tooMany, 0);
  assert.equal(result.arrivals.length, 1 + IDS);
  assert.ok(result.lines.some((l) => l.includes('by its rate-limit headers')));
});

test('no configuration, a token bucket (20/s, RateLimit-Policy): paced at the policy rate, no 429', async () => {
  const IDS = 40;
  const RATE = 20;
  let tokens = RATE;
  let last: number | undefined;
  const result = await extract((req, now) => {
    tokens = Math.min(RATE, tokens + ((now - (last ?? now)) * RATE) / 1000);
    last = now;
    const headers = (left: number): Record<string, string> => ({
      'RateLimit-Limit': String(RATE),
      'RateLimit-Remaining': String(Math.floor(left)),
      'RateLimit-Reset': String(Math.ceil((RATE - left) / RATE)),
      'RateLimit-Policy': `${RATE};w=1`,
    });
    if (tokens < 1) return { status: 429, body: {}, headers: { 'Retry-After': '1', ...headers(tokens) } };
    tokens -= 1;
    return { status: 200, body: data(req, IDS), headers: headers(tokens) };
  });
  assert.equal(result.code, 0, result.lines.join('\n'));
  // Unpaced, the 40 requests arrive in one burst and half of them are refused. The server stamps
  // arrivals on an event loop it shares with the extractor, so on a loaded machine requests sent
  // 50 ms apart can arrive bunched beyond the pacer's reserve: a couple of 429s is jitter, not a burst.
  assert.ok(result.tooMany <= 2, `${result.tooMany} answers were 429`);
  assert.ok(result.lines.some((l) => l.includes(`by its rate-limit headers (${RATE} per 1 s)`)));
});

test('AIMD: an API that answers 429 beyond 2 requests in flight; the cut keeps 429s to a few', async () => {
  const IDS = 40;
  let inFlight = 0;
  const result = await extract(
    (req) => {
      if (++inFlight > 2) return { status: 429, body: { error: 'too many at once' } };
      return { status: 200, body: data(req, IDS) };
    },
    { http: { concurrency: 8 } },
    () => inFlight--,
    false,
  );
  assert.equal(result.code, 0, result.lines.join('\n'));
  assert.ok(result.lines.some((l) => /answered 429 Too Many Requests; requests on the wire cut from 8 to 4/.test(l)));
  // Without the cut, 6 of every 8 requests sent together would be refused, again and again: several
  // 429s per record. With it, the count depends on how answers and sends interleave
  // (half of the 40 on a loaded machine, far fewer on a quiet one), but stays below one per record.
  assert.ok(result.tooMany < IDS, `${result.tooMany} answers 429 for ${IDS} requests`);
  assert.ok(result.lines.some((l) => /INFO: Rate limit: \d+ requests to .* [1-9]\d* answered 429, concurrency ended at \d+\./.test(l)));
});
