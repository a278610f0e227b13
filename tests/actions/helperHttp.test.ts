/**
 * The sync actions' HTTP (src/actions/helperHttp.ts, spec 05 §4.2 step 9 and §4.3) against real
 * local servers: redirects up to Python `requests`' limit of 30, `api.ssl_verify: false`
 * against a self-signed certificate made at test time, every response header answered, and
 * credentials kept in their origin on redirects.
 */
import assert from 'node:assert/strict';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { getEventListeners } from 'node:events';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { type ActionClock, HelperHttp, newRequest } from '../../src/actions/helperHttp.ts';
import { runSyncAction } from '../../src/actions/index.ts';
import { createLogger } from '../../src/logging/logger.ts';
import { makeDataDir } from '../helpers/dataDir.ts';
import { json, startServer, type TestServer } from '../helpers/httpServer.ts';
import { lastLine, runAction } from './run.ts';
import { opensslMissing, selfSignedCertificate } from '../helpers/tls.ts';

let api: TestServer;
before(async () => {
  // /hop/N redirects to /hop/N-1; /hop/0 answers.
  api = await startServer((req, res) => {
    const hop = /^\/hop\/(\d+)$/.exec(req.target);
    if (hop && hop[1] !== '0') return void res.writeHead(302, { Location: `/hop/${Number(hop[1]) - 1}` }).end();
    json(res, 200, [{ id: 1 }]);
  });
});
after(() => api.close());

function testRequest(baseUrl: string, endpoint: string, apiExtra: Record<string, unknown> = {}) {
  return runAction({
    action: 'test_request',
    parameters: { __SELECTED_JOB: '0', api: { baseUrl, ...apiExtra }, config: { jobs: [{ endpoint }] } },
  });
}

test('redirects: 30 are followed as by Python requests; the 31st is a request error of the action', async () => {
  const followed = await testRequest(`${api.url}/`, 'hop/30');
  assert.equal(followed.code, 0, followed.stderr);
  assert.equal(followed.stderr, '');
  const answer = followed.answer();
  assert.equal(answer.response.status_code, 200);
  assert.deepEqual(answer.records, [{ id: 1 }]);
  assert.equal(answer.request.url, `${api.url}/hop/0`);

  const before = api.requests.length;
  const tooMany = await testRequest(`${api.url}/`, 'hop/31');
  assert.equal(tooMany.code, 0, tooMany.stderr);
  assert.equal(
    lastLine(tooMany),
    'keboola.component.exceptions.UserException: Request "GET: hop/31" failed with the following error: Exceeded 30 redirects.\n',
  );
  assert.equal(api.requests.length - before, 31);
});

test('api.ssl_verify: false reaches a self-signed server, with a WARNING in debug_log; checks stay on otherwise', {
  skip: opensslMissing(),
}, async () => {
  const { key, cert } = selfSignedCertificate();
  const server = https.createServer({ key, cert }, (_req, res) => {
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.end('[{"id": 7}]');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const baseUrl = `https://localhost:${(server.address() as AddressInfo).port}/`;
  try {
    const off = await testRequest(baseUrl, 'users', { ssl_verify: false });
    assert.equal(off.code, 0, off.stderr);
    assert.equal(off.stderr, '');
    const answer = off.answer();
    assert.equal(answer.response.status_code, 200);
    assert.deepEqual(answer.records, [{ id: 7 }]);
    assert.match(answer.debug_log, /\nWARNING: api\.ssl_verify is false: the API's TLS certificate is not checked/);

    for (const extra of [{}, { ssl_verify: true }, { ssl_verify: null }]) {
      const on = await testRequest(baseUrl, 'users', extra);
      assert.equal(on.code, 0, on.stderr);
      assert.match(
        lastLine(on),
        /^keboola\.component\.exceptions\.UserException: Request "GET: users" failed with the following error: SSL certificate problem: /,
      );
    }
    // A CA certificate wins over ssl_verify (§4.2 step 9): the server's own certificate is trusted.
    const withCa = await testRequest(baseUrl, 'users', { ssl_verify: false, caCertificate: cert });
    assert.equal(withCa.answer().response.status_code, 200);
    assert.doesNotMatch(withCa.answer().debug_log, /WARNING/);
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

test('test_request answers with every response header, 1500 of them (Node kept 1000 and dropped the rest silently)', async () => {
  const many = await startServer((_req, res) => {
    const raw: string[] = ['Content-Type', 'application/json'];
    for (let i = 0; i < 1500; i++) raw.push(`X-H-${i}`, String(i));
    res.writeHead(200, raw);
    res.end('[{"id": 1}]');
  });
  try {
    const r = await testRequest(`${many.url}/`, 'x');
    assert.equal(r.code, 0, r.stderr);
    const headers = r.answer().response.headers;
    assert.equal(Object.keys(headers).filter((n) => n.startsWith('X-H-')).length, 1500);
    assert.equal(headers['X-H-1499'], '1499');
  } finally {
    await many.close();
  }
});

// Credentials stay in their origin (issue 32 #1; HelperHttp applies the extraction's credential
// scope): a redirect from the base URL's server to another port of the same host gets no basic or
// bearer `Authorization`, no api-key header or query value, no login session header; a redirect
// within the origin keeps every credential. Two servers on 127.0.0.1 on different ports are two origins.

let home: TestServer;
let other: TestServer;
before(async () => {
  other = await startServer((_req, res) => json(res, 200, [{ at: 'other' }]));
  home = await startServer((req, res) => {
    if (req.target.startsWith('/login')) return json(res, 200, { session: 'SESSION-abc123' });
    if (req.target.startsWith('/away')) return void res.writeHead(302, { Location: `${other.url}/landed` }).end();
    if (req.target.startsWith('/stay')) return void res.writeHead(302, { Location: '/landed' }).end();
    json(res, 200, [{ at: 'home' }]);
  });
});
after(async () => {
  await home.close();
  await other.close();
});

const METHODS: Record<
  string,
  { api?: Record<string, unknown>; config: Record<string, unknown>; carries: (h: Record<string, unknown>, target: string) => boolean }
> = {
  basic: { config: { __AUTH_METHOD: 'basic', username: 'u', '#password': 'pass-word-1' }, carries: (h) => h.authorization !== undefined },
  bearer: { config: { __AUTH_METHOD: 'bearer', '#__BEARER_TOKEN': 'bearer-token-1' }, carries: (h) => h.authorization !== undefined },
  'api-key header': {
    api: { http: { headers: { 'X-Key': { attr: '#__AUTH_TOKEN' } } } },
    config: { __AUTH_METHOD: 'api-key', '#__AUTH_TOKEN': 'api-key-token-1' },
    carries: (h) => h['x-key'] !== undefined,
  },
  'api-key query': {
    api: { http: { defaultOptions: { params: { key: { attr: '#__AUTH_TOKEN' } } } } },
    config: { __AUTH_METHOD: 'api-key', '#__AUTH_TOKEN': 'api-key-token-2' },
    carries: (_h, target) => target.includes('api-key-token-2'),
  },
  login: {
    api: {
      authentication: {
        type: 'login',
        loginRequest: { endpoint: 'login' },
        apiRequest: { headers: { 'X-Session': { response: 'session' } } },
      },
    },
    config: {},
    carries: (h) => h['x-session'] !== undefined,
  },
};

function run(method: string, endpoint: string) {
  const { api = {}, config } = METHODS[method]!;
  return runAction({
    action: 'test_request',
    parameters: { __SELECTED_JOB: '0', api: { baseUrl: `${home.url}/`, ...api }, config: { ...config, jobs: [{ endpoint }] } },
  });
}

for (const method of Object.keys(METHODS)) {
  test(`${method}: not forwarded by a redirect to another port, kept within the origin`, async () => {
    const away = await run(method, 'away');
    assert.equal(away.code, 0, away.stdout);
    const landed = other.requests.at(-1)!;
    assert.equal(landed.target.split('?')[0], '/landed');
    assert.equal(METHODS[method]!.carries(landed.headers, landed.target), false, JSON.stringify(landed));
    assert.deepEqual(away.answer().records, [{ at: 'other' }]);

    const stay = await run(method, 'stay');
    assert.equal(stay.code, 0, stay.stdout);
    const kept = home.requests.at(-1)!;
    assert.equal(kept.target.split('?')[0], '/landed');
    assert.equal(METHODS[method]!.carries(kept.headers, kept.target), true, JSON.stringify(kept));
  });
}

// One client for the whole action (src/actions/helperHttp.ts): the login and the API requests go
// through the same HttpClient; the login is sent once (spec 05 §2.5 step 3), the API requests are
// retried by the action's policy, and every retry pause gives back its abort listener.

/** A session on its own AbortSignal, against `server`: one retry on 503. */
function session(signal: AbortSignal) {
  const now = Date.now();
  return new HelperHttp(
    {
      configuration: { retry: { maxRetries: 1, codes: [503] }, tls: { ca: undefined, clientCertificate: undefined, verifyOff: false } },
      signal,
      deadlines: { retriesEndBy: now + 25_000, attemptsEndBy: now + 28_000, budgetSeconds: 25 },
      debugLog: [],
      auth: { secrets: () => [], authenticate: async () => {} },
    },
    { scope: () => true, secrets: () => [] },
  );
}

test('the login goes out once on the action client (a 503 is not retried); an API request on it is retried', async () => {
  // Every path answers 503 the first time it is asked, then 200.
  const seen = new Set<string>();
  const flaky = await startServer((req, res) => {
    if (seen.has(req.target)) return json(res, 200, { token: 't' });
    seen.add(req.target);
    json(res, 503, { error: 'busy' });
  });
  const http = session(new AbortController().signal);
  try {
    const login = await http.login({ method: 'GET', url: `${flaky.url}/login`, headers: [], body: null });
    assert.equal(login.status, 503);
    assert.deepEqual(
      flaky.requests.map((r) => r.target),
      ['/login'],
    );
    const response = await http.send(newRequest('GET', `${flaky.url}/items`));
    assert.equal(response.status, 200);
    assert.deepEqual(
      flaky.requests.map((r) => r.target),
      ['/login', '/items', '/items'],
    );
  } finally {
    http.close();
    await flaky.close();
  }
});

test('a retry pause removes its abort listener when it ends (left behind, ten of them made Node warn on stderr)', async () => {
  let asked = 0;
  const flaky = await startServer((_req, res) => json(res, asked++ === 0 ? 503 : 200, [{ id: 1 }]));
  const controller = new AbortController();
  const http = session(controller.signal);
  try {
    const response = await http.send(newRequest('GET', `${flaky.url}/items`));
    assert.equal(response.status, 200);
    assert.equal(flaky.requests.length, 2, 'one retry, after one pause');
    assert.equal(getEventListeners(controller.signal, 'abort').length, 0);
  } finally {
    http.close();
    await flaky.close();
  }
});

// The helper's retry timing (spec 05 §4.3, src/http/helperRetryTiming.ts): nothing before the
// first retry, then 0.6, 1.2, 2.4 … s, or `Retry-After` on any retried response. The action runs in
// this process on a virtual clock (its pauses move the clock, nothing sleeps); the requests go
// to a real server.

/** A clock whose pauses are recorded and move it at once. */
function virtualClock() {
  let now = Date.now();
  const waits: number[] = [];
  const clock: ActionClock = {
    nowMs: () => now,
    pause: async (ms, signal) => {
      signal.throwIfAborted();
      waits.push(ms);
      now += ms;
    },
  };
  return { clock, waits };
}

/** test_request of `endpoint` on `server`, in process, on a virtual clock. */
async function timedTestRequest(server: TestServer, http: Record<string, unknown> = {}) {
  const { clock, waits } = virtualClock();
  const config = {
    action: 'test_request',
    parameters: { __SELECTED_JOB: '0', api: { baseUrl: `${server.url}/`, http }, config: { jobs: [{ endpoint: 'orders' }] } },
  };
  let stdout = '';
  const code = await runSyncAction({
    action: 'test_request',
    configFile: path.join(makeDataDir(config), 'config.json'),
    logger: createLogger({ write: () => {} }),
    writeStdout: (t) => {
      stdout += t;
    },
    writeStderr: (t) => assert.fail(`stderr: ${t}`),
    clock,
  });
  return { code, answer: JSON.parse(stdout), waits };
}

/** A server answering `first(i)` to request i while it returns a status, then 200. */
function scripted(first: (i: number) => { status: number; headers?: Record<string, string> } | undefined) {
  return startServer((_req, res, i) => {
    const answer = first(i);
    if (answer === undefined) return json(res, 200, [{ id: 1 }]);
    res.writeHead(answer.status, { 'Content-Type': 'text/plain', ...answer.headers });
    res.end('busy');
  });
}

test("an API answering 503 five times, then 200: test_request answers the 200 after the helper's waits, well within the 25 s budget", async () => {
  const server = await scripted((i) => (i < 5 ? { status: 503 } : undefined));
  try {
    const r = await timedTestRequest(server);
    assert.equal(r.code, 0);
    assert.equal(r.answer.response.status_code, 200);
    assert.deepEqual(r.answer.records, [{ id: 1 }]);
    assert.equal(server.requests.length, 6);
    // Retry 1 without a pause, then 0.6, 1.2, 2.4, 4.8 s: 9 s in all. The extractor's 1, 2, 4, 8 s
    // would have needed 16 s more before the sixth request, past the budget.
    assert.deepEqual(r.waits, [600, 1200, 2400, 4800]);
    assert.match(r.answer.debug_log, /retrying in 0\.0 seconds \[1x\]/);
  } finally {
    await server.close();
  }
});

test("an endpoint that keeps answering 503: the retries that fit in 25 s on the helper's timing, then the last 503", async () => {
  const server = await scripted(() => ({ status: 503 }));
  try {
    const r = await timedTestRequest(server);
    assert.equal(r.answer.response.status_code, 503);
    // Requests at 0, 0, 0.6, 1.8, 4.2, 9.0 and 18.6 s; the next pause (19.2 s) would end at 37.8 s.
    assert.equal(server.requests.length, 7);
    assert.deepEqual(r.waits, [600, 1200, 2400, 4800, 9600]);
    assert.match(
      r.answer.debug_log,
      /Retries stopped after 7 attempts of GET .*: the next wait \(19\.2 s\) would end after the sync action's retry budget/,
    );
  } finally {
    await server.close();
  }
});

test('a 500 with Retry-After: 3 waits 3 s, as urllib3 does on any retried response', async () => {
  const server = await scripted(() => ({ status: 500, headers: { 'Retry-After': '3' } }));
  try {
    const r = await timedTestRequest(server, { maxRetries: 3 });
    assert.equal(r.answer.response.status_code, 500);
    assert.equal(server.requests.length, 4);
    assert.deepEqual(r.waits, [3000, 3000, 3000]);
  } finally {
    await server.close();
  }
});

test('a 413 with Retry-After is retried though not among the codes; without the header it is the answer', async () => {
  const asking = await scripted((i) => (i < 1 ? { status: 413, headers: { 'Retry-After': '1' } } : undefined));
  const plain = await scripted((i) => (i < 1 ? { status: 413 } : undefined));
  try {
    const retried = await timedTestRequest(asking);
    assert.equal(retried.answer.response.status_code, 200);
    assert.deepEqual(retried.waits, [1000]);
    const answered = await timedTestRequest(plain);
    assert.equal(answered.answer.response.status_code, 413);
    assert.equal(plain.requests.length, 1);
  } finally {
    await asking.close();
    await plain.close();
  }
});

test('a 429 with Retry-After: 2 waits 2 s before every retry, then answers the 200', async () => {
  const server = await scripted((i) => (i < 2 ? { status: 429, headers: { 'Retry-After': '2' } } : undefined));
  try {
    const r = await timedTestRequest(server);
    assert.equal(r.answer.response.status_code, 200);
    assert.equal(server.requests.length, 3);
    assert.deepEqual(r.waits, [2000, 2000]);
  } finally {
    await server.close();
  }
});

test('a 429 whose rate-limit headers say the budget resets in 40 s is retried after its Retry-After, as the helper does', async () => {
  // Paced by the extraction's rate limiter, the request waited for the reset and the action ran into its 60 s limit.
  const rateLimited = { 'Retry-After': '1', 'X-RateLimit-Limit': '10', 'X-RateLimit-Remaining': '0', 'X-RateLimit-Reset': '40' };
  const server = await scripted((i) => (i < 1 ? { status: 429, headers: rateLimited } : undefined));
  try {
    const r = await timedTestRequest(server);
    assert.equal(r.answer.response.status_code, 200);
    assert.equal(server.requests.length, 2);
    assert.deepEqual(r.waits, [1000]);
  } finally {
    await server.close();
  }
});

// Redirects as Python `requests` follows them (spec 05 §4.3, src/actions/helperHttp.ts
// HELPER_REDIRECTS): 301, 302, 303, 307 and 308 only, and a hop other than 307/308 without body
// and body headers; the answer reports the final response and the request as it was sent.

let redirecting: TestServer;
before(async () => {
  redirecting = await startServer((req, res) => {
    const status = /^\/r(\d{3})/.exec(req.target)?.[1];
    if (status)
      return void res.writeHead(Number(status), { Location: '/landed', 'Content-Type': 'application/json' }).end('[{"at": "3xx"}]');
    json(res, 200, [{ method: req.method, contentType: req.headers['content-type'] ?? null, body: req.body }]);
  });
});
after(() => redirecting.close());

function redirectedJob(job: Record<string, unknown>, headers: Record<string, string> = {}) {
  return runAction({
    action: 'test_request',
    parameters: { __SELECTED_JOB: '0', api: { baseUrl: `${redirecting.url}/`, http: { headers } }, config: { jobs: [job] } },
  });
}

test('a 300 with a Location is the final response, as Python requests leaves it (the extractor follows every 3xx)', async () => {
  const before = redirecting.requests.length;
  const r = await redirectedJob({ endpoint: 'r300' });
  assert.equal(r.code, 0, r.stderr);
  const answer = r.answer();
  assert.equal(answer.response.status_code, 300);
  assert.deepEqual(answer.records, [{ at: '3xx' }]);
  assert.equal(redirecting.requests.length - before, 1);
});

test('a POST redirected by 302 goes on as a GET without body or Content-Type; a 307 keeps both', async () => {
  const moved = (await redirectedJob({ endpoint: 'r302', method: 'POST', params: { a: 1 } })).answer();
  assert.deepEqual(moved.records, [{ method: 'GET', contentType: null, body: '' }]);
  assert.equal(moved.request.method, 'GET');
  assert.equal(moved.request.headers['Content-Type'], undefined);
  assert.equal(moved.request.data, null);

  const kept = (await redirectedJob({ endpoint: 'r307', method: 'POST', params: { a: 1 } })).answer();
  assert.deepEqual(kept.records, [{ method: 'POST', contentType: 'application/json', body: '{"a": 1}' }]);
  assert.equal(kept.request.headers['Content-Type'], 'application/json');
});

test('a configured Content-Type is not sent on after a 301 (Python requests drops it on every hop but 307/308)', async () => {
  const r = (await redirectedJob({ endpoint: 'r301' }, { 'Content-Type': 'application/json' })).answer();
  assert.deepEqual(r.records, [{ method: 'GET', contentType: null, body: '' }]);
  assert.equal(r.request.headers['Content-Type'], undefined);
  assert.equal(redirecting.requests.at(-2)!.headers['content-type'], 'application/json', 'the first request had it');
});
