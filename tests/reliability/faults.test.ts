/**
 * Fault injection (spec 01 §3.9–§3.13): a local API whose answers are scripted per request.
 * When the retries suffice, the output (tables, manifests, state) is byte-identical to the
 * fault-free run; when they do not, the run fails with exit 1, an error naming what failed and
 * how, the request made maxRetries + 1 times, and nothing in out/.
 */
import assert from 'node:assert/strict';
import type http from 'node:http';
import { after, before, describe, test } from 'node:test';
import {
  assertFailed,
  cleanup,
  NOW_S,
  outSnapshot,
  runWith,
  sendJson,
  startFaultServer,
  strip,
  type FaultServer,
  type Received,
} from './helpers.ts';

// ------------------------------------------------------------------------------------------------
// The API: 5 users on 3 pages (pagenum, limit 2), each with one order (a child job per user).

function users(page: number): unknown[] {
  const ids = page === 1 ? [1, 2] : page === 2 ? [3, 4] : page === 3 ? [5] : [];
  return ids.map((id) => ({ id, name: `User ${id} "é"`, tags: ['a', `t${id}`], address: { city: 'Praha', zip: 11000 + id } }));
}

function answer(req: Received, res: http.ServerResponse): void {
  const url = new URL(req.target, 'http://x');
  const orders = /^\/api\/users\/(\d+)\/orders$/.exec(url.pathname);
  if (orders) sendJson(res, 200, [{ oid: Number(orders[1]) * 10 + 1, amount: 12.5, lines: [{ sku: 'X', qty: 2 }] }]);
  else if (url.pathname === '/api/users') sendJson(res, 200, users(Number(url.searchParams.get('page'))));
  else sendJson(res, 404, { error: 'no such resource' });
}

type Fault = (req: Received, res: http.ServerResponse, server: FaultServer) => void;

const BODY = JSON.stringify(users(1));

/** The faults, each one HTTP exchange. */
const FAULTS: Record<string, Fault> = {
  '429 Retry-After seconds': (_q, res) => sendJson(res, 429, { error: 'slow down' }, { 'Retry-After': '3' }),
  '429 Retry-After Unix timestamp': (_q, res) => sendJson(res, 429, { error: 'slow down' }, { 'Retry-After': String(NOW_S + 5) }),
  '429 Retry-After HTTP date': (_q, res) =>
    sendJson(res, 429, { error: 'slow down' }, { 'Retry-After': new Date((NOW_S + 7) * 1000).toUTCString() }),
  '503 Retry-After seconds': (_q, res) => sendJson(res, 503, '<html>maintenance</html>', { 'Retry-After': '3' }),
  '503 Retry-After Unix timestamp': (_q, res) => sendJson(res, 503, '<html>maintenance</html>', { 'Retry-After': String(NOW_S + 5) }),
  '503 Retry-After HTTP date': (_q, res) =>
    sendJson(res, 503, '<html>maintenance</html>', { 'Retry-After': new Date((NOW_S + 7) * 1000).toUTCString() }),
  '500 burst': (_q, res) => sendJson(res, 500, { error: 'internal' }),
  'connection reset before the response': (_q, res) => {
    res.socket!.resetAndDestroy();
  },
  'connection reset in the middle of the body': (_q, res, s) => {
    res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': String(BODY.length) });
    res.write(BODY.slice(0, 40));
    s.later(10, () => res.socket?.resetAndDestroy());
  },
  'truncated body (Content-Length larger than sent, then close)': (_q, res, s) => {
    res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': String(BODY.length + 100) });
    res.write(BODY);
    s.later(10, () => res.socket?.end());
  },
  'headers slower than requestTimeout': (_q, res, s) => s.later(2_000, () => !res.destroyed && sendJson(res, 200, [])),
};

/** The message and delay schedule each fault produces once the retries are exhausted. */
const FINAL: Record<string, { message: RegExp; delays: number[] }> = {
  '429 Retry-After seconds': {
    message:
      /The API request failed: \[429\] Client error: `GET http:\/\/127\.0\.0\.1:\d+\/api\/users\/3\/orders\?page=1&limit=2` resulted in a `429 Too Many Requests` response: \{"error":"slow down"\} {2}\{"body":\{"error":"slow down"\},"attempts":3\} \[\]$/,
    delays: [3000, 3000],
  },
  '429 Retry-After Unix timestamp': {
    message: /\[429\] Client error: `GET \S+\/api\/users\/3\/orders\?page=1&limit=2` resulted in a `429 Too Many Requests`/,
    delays: [5000, 5000],
  },
  '429 Retry-After HTTP date': {
    message: /\[429\] Client error: `GET \S+\/api\/users\/3\/orders\?page=1&limit=2` resulted in a `429 Too Many Requests`/,
    delays: [7000, 7000],
  },
  '503 Retry-After seconds': {
    message:
      /The API request failed: \[503\] Server error: `GET \S+\/api\/users\/3\/orders\?page=1&limit=2` resulted in a `503 Service Unavailable` response: <html>maintenance<\/html> {2}\{"body":"","attempts":3\} \[\]$/,
    delays: [3000, 3000],
  },
  '503 Retry-After Unix timestamp': {
    message: /\[503\] Server error: `GET \S+\/api\/users\/3\/orders\?page=1&limit=2` resulted in a `503 Service Unavailable`/,
    delays: [5000, 5000],
  },
  '503 Retry-After HTTP date': {
    message: /\[503\] Server error: `GET \S+\/api\/users\/3\/orders\?page=1&limit=2` resulted in a `503 Service Unavailable`/,
    delays: [7000, 7000],
  },
  '500 burst': {
    message:
      /\[500\] Server error: `GET \S+\/api\/users\/3\/orders\?page=1&limit=2` resulted in a `500 Internal Server Error` response: \{"error":"internal"\} {2}\{"body":\{"error":"internal"\},"attempts":3\} \[\]$/,
    delays: [1000, 2000],
  },
  'connection reset before the response': { message: /^logger\.ERROR: CURL error 52: Empty reply from server /, delays: [1000, 2000] },
  'connection reset in the middle of the body': {
    message: /^logger\.ERROR: CURL error 56: Recv failure: Connection reset by peer /,
    delays: [1000, 2000],
  },
  'truncated body (Content-Length larger than sent, then close)': {
    message: /^logger\.ERROR: CURL error 56: Recv failure: Connection reset by peer /,
    delays: [1000, 2000],
  },
  'headers slower than requestTimeout': {
    message: /^logger\.ERROR: CURL error 28: Operation timed out after \d+ milliseconds with 0 bytes received /,
    delays: [1000, 2000],
  },
};

const MAX_RETRIES = 2;

function config(baseUrl: string, debug = false): unknown {
  return {
    parameters: {
      api: {
        baseUrl,
        pagination: { method: 'pagenum', limit: 2 },
        retryConfig: { maxRetries: MAX_RETRIES },
        http: { requestTimeout: 0.5, connectTimeout: 2 },
      },
      config: {
        debug,
        outputBucket: 'shop',
        incrementalOutput: true,
        jobs: [
          {
            endpoint: 'users',
            dataType: 'users',
            children: [{ endpoint: 'users/{id}/orders', dataType: 'orders', placeholders: { id: 'id' } }],
          },
        ],
      },
    },
  };
}

let baseline: Record<string, string>;
const servers: FaultServer[] = [];

async function server(handler: Parameters<typeof startFaultServer>[0]): Promise<FaultServer> {
  const s = await startFaultServer(handler);
  servers.push(s);
  return s;
}

before(async () => {
  const s = await server((q, res) => answer(q, res));
  const r = await runWith(config(`${s.url}/api/`));
  assert.equal(r.code, 0, r.lines.map(strip).join('\n'));
  baseline = outSnapshot(r.dir);
  assert.deepEqual(Object.keys(baseline), [
    'state.json',
    'tables/shop.orders',
    'tables/shop.orders.manifest',
    'tables/shop.orders_lines',
    'tables/shop.orders_lines.manifest',
    'tables/shop.users',
    'tables/shop.users.manifest',
    'tables/shop.users_tags',
    'tables/shop.users_tags.manifest',
  ]);
  assert.equal(s.requests.length, 3 + 5, 'three pages and five child requests');
  cleanup(r);
});

after(async () => {
  for (const s of servers) await s.close();
});

describe('retries suffice: output byte-identical to the fault-free run', () => {
  for (const [name, fault] of Object.entries(FAULTS)) {
    // The slow-header fault costs requestTimeout per attempt: inject it into two requests only.
    const targets = name.startsWith('headers slower')
      ? (t: string) => t === '/api/users?page=2&limit=2' || t === '/api/users/5/orders?page=1&limit=2'
      : () => true;
    test(`${name}: first ${MAX_RETRIES} attempts of every request fail`, async () => {
      let s: FaultServer;
      s = await server((q, res, attempt) => (attempt < MAX_RETRIES && targets(q.target) ? fault(q, res, s) : answer(q, res)));
      const r = await runWith(config(`${s.url}/api/`, true));
      assert.equal(r.code, 0, r.lines.map(strip).slice(-5).join('\n'));
      assert.deepEqual(outSnapshot(r.dir), baseline);
      const faulty = [...new Set(s.requests.map((q) => q.target))].filter(targets);
      assert.equal(s.requests.length, 8 + faulty.length * MAX_RETRIES);
      for (const t of faulty) assert.equal(s.count(t), MAX_RETRIES + 1, t);
      const expected = FINAL[name]!.delays;
      assert.deepEqual(
        [...r.sleeps].sort(),
        faulty.flatMap(() => expected).sort(),
        'Retry-After (seconds, timestamp, HTTP date) or exponential back-off',
      );
      const retryLines = r.lines.filter((l) => l.includes('Http request failed, retrying in'));
      assert.equal(retryLines.length, faulty.length * MAX_RETRIES);
      // At WARNING (visible without debug): the request, the reason, the attempt and the wait.
      assert.match(
        strip(retryLines[0]),
        /^logger\.WARNING: Http request failed, retrying in \d+\.\d seconds \[1x\]\. GET http:\/\/127\.0\.0\.1:\d+\/api\/\S+: .+ \(attempt 1 of 3\)\. \{"http_code":/,
      );
      cleanup(r);
    });
  }

  test('a mix of every fault over the run still gives the same output', async () => {
    const kinds = Object.keys(FAULTS).filter((k) => !k.startsWith('headers slower'));
    let n = 0;
    const plan = new Map<string, string>();
    let s: FaultServer;
    s = await server((q, res, attempt) => {
      if (!plan.has(q.target)) plan.set(q.target, kinds[n++ % kinds.length]!);
      return attempt < 1 ? FAULTS[plan.get(q.target)!]!(q, res, s) : answer(q, res);
    });
    const r = await runWith(config(`${s.url}/api/`));
    assert.equal(r.code, 0, r.lines.map(strip).slice(-5).join('\n'));
    assert.deepEqual(outSnapshot(r.dir), baseline);
    assert.equal(s.requests.length, 16);
    cleanup(r);
  });
});

describe('retries exhausted: exit 1, which request, how, how many attempts, nothing written', () => {
  const FAILING = '/api/users/3/orders?page=1&limit=2';
  for (const [name, fault] of Object.entries(FAULTS)) {
    test(name, async () => {
      let s: FaultServer;
      // Pages 1–2 and the children of users 1–2 succeed first: rows are staged when the run fails.
      s = await server((q, res) => (q.target === FAILING ? fault(q, res, s) : answer(q, res)));
      const r = await runWith(config(`${s.url}/api/`, true));
      const error = assertFailed(r, 1, name);
      const { message, delays } = FINAL[name]!;
      assert.match(error, message);
      assert.equal(s.count(FAILING), MAX_RETRIES + 1, 'attempts = maxRetries + 1');
      assert.deepEqual(r.sleeps, delays);
      // How many attempts, which URL and what failed: today only the debug retry lines say so;
      // the final ERROR line of a network error names neither the URL nor the attempt count
      // (needs a change in src/http/client.ts, see the reliability report).
      const retries = r.lines.filter((l) => l.includes('Http request failed, retrying in'));
      assert.equal(retries.length, MAX_RETRIES);
      const lastRetry = strip(retries.at(-1));
      assert.ok(lastRetry.includes(`[${MAX_RETRIES}x]`), lastRetry);
      assert.ok(lastRetry.includes(`"url":"${s.url}${FAILING}"`), lastRetry);
      const curl = /^logger\.ERROR: (CURL error \d+: )/.exec(error);
      if (curl) {
        assert.ok(lastRetry.includes(`"exception_class":"CurlError","message":"${curl[1]}`), lastRetry);
      } else {
        assert.match(lastRetry, /"http_code":(429|500|503),"body":/);
      }
      cleanup(r);
    });
  }

  test('non-debug runs show the same final error, and the retries at WARNING', async () => {
    const s = await server((q, res) => (q.target === FAILING ? sendJson(res, 503, { error: 'down' }) : answer(q, res)));
    const r = await runWith(config(`${s.url}/api/`, false));
    const error = assertFailed(r, 1, '503 without debug');
    assert.match(
      error,
      /\[503\] Server error: `GET http:\/\/127\.0\.0\.1:\d+\/api\/users\/3\/orders\?page=1&limit=2` resulted in a `503 Service Unavailable` response: \{"error":"down"\} {2}\{"body":\{"error":"down"\},"attempts":3\} \[\]$/,
    );
    const retries = r.lines.filter((l) => l.includes('retrying'));
    assert.equal(retries.length, 2);
    assert.ok(retries.every((l) => l.includes('logger.WARNING: ') && l.includes(': HTTP 503 Service Unavailable (attempt ')));
    cleanup(r);
  });

  test('404 is not retried: one attempt, the error names the request', async () => {
    const s = await server((q, res) => (q.target === FAILING ? sendJson(res, 404, { error: 'gone' }) : answer(q, res)));
    const r = await runWith(config(`${s.url}/api/`));
    assert.match(
      assertFailed(r, 1, '404'),
      /\[404\] Client error: `GET \S+\/api\/users\/3\/orders\?page=1&limit=2` resulted in a `404 Not Found` response/,
    );
    assert.equal(s.count(FAILING), 1);
    assert.deepEqual(r.sleeps, []);
    cleanup(r);
  });

  test('a connection refused (nothing listening) is retried, then exit 1 naming host and port', async () => {
    const s = await server(() => {});
    const port = s.port;
    await s.close();
    const r = await runWith(config(`http://127.0.0.1:${port}/api/`));
    assert.match(
      assertFailed(r, 1, 'refused'),
      new RegExp(`^logger\\.ERROR: CURL error 7: Failed to connect to 127\\.0\\.0\\.1 port ${port}: Connection refused `),
    );
    assert.deepEqual(r.sleeps, [1000, 2000]);
    cleanup(r);
  });

  test('the default policy gives up after 10 retries (1 s … 512 s back-off, Retry-After 0 = back-off)', async () => {
    const s = await server((_q, res) => sendJson(res, 502, { error: 'bad gateway' }, { 'Retry-After': '0' }));
    const cfg = config(`${s.url}/api/`) as { parameters: { api: Record<string, unknown> } };
    delete cfg.parameters.api['retryConfig'];
    const r = await runWith(cfg);
    assert.match(assertFailed(r, 1, 'default retries'), /\[502\] Server error/);
    assert.equal(s.requests.length, 11);
    assert.deepEqual(r.sleeps, [1000, 2000, 4000, 8000, 16000, 32000, 64000, 128000, 256000, 512000]);
    cleanup(r);
  });
});
