/**
 * Secret scan (issue 19 #1): every value derived from a login or OAuth response, and every
 * computed auth header or query parameter, is a secret from the moment it exists. Runs with debug
 * on and off, with login and OAuth authentication, tokens in the query and in headers, retries
 * whose log lines carry the response body, and an API that echoes the request (headers, URL,
 * body) in its error body; no derived value may appear in any log line in any encoding.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { makeDataDir } from '../helpers/dataDir.ts';
import { pjsonString } from '../../src/php/jsonEncode.ts';
import { rawurlencode, urlencode } from '../../src/php/urlEncoding.ts';
import { cleanup, runWith, sendJson, startFaultServer, strip, type FaultServer } from '../reliability/helpers.ts';

/** Login-derived values with characters every encoding changes. */
const LOGIN_TOKEN = 'Sess/ion+Tok=en~é 42';
const SESSION_ID = 'sid:Z9/y+x==';
const REFRESH = 'refresh&Tok/en';
const ACCESS = 'acc3ss/Tok+en~ü';

function forms(value: string): string[] {
  const once = [
    value,
    urlencode(value),
    rawurlencode(value),
    encodeURIComponent(value),
    Buffer.from(value).toString('base64'),
    JSON.stringify(value).slice(1, -1),
    pjsonString(value).slice(1, -1),
  ];
  const twice = [urlencode(value), rawurlencode(value)].flatMap((f) => [encodeURIComponent(f), urlencode(f), rawurlencode(f)]);
  return [...new Set([...once, ...twice, ...[...once, ...twice].map((f) => JSON.stringify(f).slice(1, -1))])];
}

let api: FaultServer;
/** Values the server received in auth headers and auth query parameters: all derived. */
const onTheWire = new Set<string>();
const AUTH_HEADERS = ['authorization', 'x-session', 'x-token'];
const AUTH_QUERY = ['token', 'sig', 'access_token', 'sid'];

before(async () => {
  // Attempts counted per request without its per-attempt signature (oauth20 adds a fresh one each time).
  const attempts = new Map<string, number>();
  api = await startFaultServer((q, res) => {
    const key = `${q.method} ${q.target.replace(/[?&]sig=[^&]*/, '')}`;
    const attempt = attempts.get(key) ?? 0;
    attempts.set(key, attempt + 1);
    for (const h of AUTH_HEADERS) if (typeof q.headers[h] === 'string') onTheWire.add(q.headers[h] as string);
    const query = new URLSearchParams(q.target.split('?')[1] ?? '');
    for (const k of AUTH_QUERY) for (const v of query.getAll(k)) onTheWire.add(v);
    if (q.target.includes('/login')) {
      return sendJson(res, 200, { token: LOGIN_TOKEN, session: { id: SESSION_ID }, refresh_token: REFRESH, token_type: 'bearer' });
    }
    if (q.target.includes('/oauth/token')) return sendJson(res, 200, { access_token: ACCESS, expires_in: 3600 });
    const echo = {
      headers: q.headers,
      url: q.target,
      body: q.body,
      text: `${q.method} ${q.target} ${JSON.stringify(q.headers)}`,
      // The request URL inside another URL (percent-encoded twice), the headers as base64.
      returnTo: `/signin?return_to=${encodeURIComponent(q.target)}`,
      headersBase64: Buffer.from(JSON.stringify(q.headers)).toString('base64'),
    };
    // The first attempt of every API request fails with a retryable echo: retry lines carry the body.
    // A date in the past: retried at once (the built command's runs really wait).
    if (attempt === 0) return sendJson(res, 503, echo, { 'Retry-After': 'Wed, 01 Jan 2020 00:00:00 GMT' });
    if (q.target.includes('/fail')) return sendJson(res, 401, echo);
    sendJson(res, 200, [{ id: 1 }]);
  });
});
after(() => api.close());

let runs = 0;

const CASES: Record<string, { api: Record<string, unknown>; root?: Record<string, unknown>; config?: Record<string, unknown> }> = {
  'login: token in the query, session in a header': {
    api: {
      authentication: {
        type: 'login',
        loginRequest: { endpoint: 'login', method: 'POST', params: { user: 'ann', password: { attr: '#password' } } },
        apiRequest: {
          query: { token: { response: 'token' }, sid: 'session.id' },
          headers: { 'X-Session': { function: 'concat', args: ['S ', { response: 'session.id' }] }, 'X-Token': 'token' },
        },
      },
    },
    config: { '#password': 'pw-123456' },
  },
  'login (GET, text format): the whole response body is the token': {
    api: {
      authentication: {
        type: 'login',
        format: 'text',
        loginRequest: { endpoint: 'login', params: { user: 'ann' } },
        apiRequest: { query: { token: { function: 'md5', args: [{ response: 'data' }] } } },
      },
    },
  },
  'oauth20.login: access token from the token response as a Bearer header': {
    api: {
      authentication: {
        type: 'oauth20.login',
        loginRequest: {
          endpoint: 'oauth/token',
          method: 'FORM',
          params: { grant_type: 'refresh_token', refresh_token: { user: 'refresh_token' }, client_secret: { consumer: 'client_secret' } },
        },
        apiRequest: {
          headers: { Authorization: { function: 'concat', args: ['Bearer ', { response: 'access_token' }] } },
          query: { access_token: 'access_token' },
        },
      },
    },
    root: {
      authorization: {
        oauth_api: { credentials: { '#data': JSON.stringify({ refresh_token: REFRESH }), appKey: 'app', '#appSecret': 'app-secret-1' } },
      },
    },
  },
  'oauth20: computed MAC header and query token': {
    api: {
      authentication: {
        type: 'oauth20',
        format: 'json',
        headers: {
          Authorization: {
            function: 'concat',
            args: ['MAC id="', { authorization: 'data.access_token' }, '", nonce="', { authorization: 'nonce' }, '"'],
          },
        },
        query: { sig: { function: 'md5', args: [{ authorization: 'nonce' }] } },
      },
    },
    root: {
      authorization: {
        oauth_api: { credentials: { '#data': JSON.stringify({ access_token: ACCESS }), appKey: 'app', '#appSecret': 'x1' } },
      },
    },
  },
  'query: a computed signature parameter': {
    api: {
      authentication: {
        type: 'query',
        query: { sig: { function: 'sha1', args: [{ function: 'concat', args: [{ attr: 'plainKey' }, { request: 'path' }] }] } },
      },
    },
    config: { plainKey: 'not-a-hash-key' },
  },
};

function config(name: string, endpoint: string, debug: boolean): unknown {
  const c = CASES[name]!;
  return {
    ...c.root,
    parameters: {
      api: { baseUrl: `${api.url}/api/`, retryConfig: { maxRetries: 2 }, ...c.api },
      config: { debug, outputBucket: 'scan', ...c.config, jobs: [{ endpoint, params: { run: ++runs } }] },
    },
  };
}

function leaks(lines: readonly string[]): string[] {
  const text = lines.join('\n');
  const derived = new Set([LOGIN_TOKEN, SESSION_ID, REFRESH, ACCESS, ...onTheWire]);
  const hits: string[] = [];
  for (const value of derived) for (const form of forms(value)) if (form.length > 2 && text.includes(form)) hits.push(form);
  // Base64 runs decoded (whatever their alignment in the line): no derived value inside.
  for (const run of text.match(/[A-Za-z0-9+/]{16,}={0,2}/g) ?? []) {
    const decoded = Buffer.from(run, 'base64').toString('utf8');
    for (const value of derived) if (value.length >= 6 && decoded.includes(value)) hits.push(`base64 ${run}`);
  }
  return hits;
}

for (const name of Object.keys(CASES)) {
  for (const debug of [true, false]) {
    test(`${name}, debug ${debug ? 'on' : 'off'}: success after a retry, no derived value in the log`, async () => {
      const r = await runWith(config(name, 'users', debug));
      assert.equal(r.code, 0, r.lines.map(strip).slice(-3).join('\n'));
      if (debug) {
        assert.ok(r.lines.some((l) => l.includes('HTTP/1.1')));
        assert.ok(r.lines.some((l) => l.includes('retrying in') && l.includes('"body":')));
      }
      assert.ok(onTheWire.size > 0);
      assert.deepEqual(leaks(r.lines), []);
      cleanup(r);
    });

    test(`${name}, debug ${debug ? 'on' : 'off'}: an error body echoing the request is redacted in the ERROR line`, async () => {
      const r = await runWith(config(name, 'fail', debug));
      assert.equal(r.code, 1);
      const error = strip(r.lines.at(-1));
      assert.match(error, /^logger\.ERROR: The API request failed: \[401\]/);
      assert.ok(error.includes('[hidden]'), error);
      assert.deepEqual(leaks(r.lines), []);
      cleanup(r);
    });
  }
}

test('a one-character login token is hidden where it is a value and corrupts nothing else', async () => {
  const s = await startFaultServer((q, res) => {
    if (q.target.startsWith('/login')) return sendJson(res, 200, { token: 'o' });
    if (q.target.includes('/fail')) return sendJson(res, 400, { url: q.target, token: q.headers['x-token'] });
    sendJson(res, 200, [{ id: 1, name: 'logger ok' }]);
  });
  try {
    const cfg = (endpoint: string) => ({
      parameters: {
        api: {
          baseUrl: `${s.url}/`,
          authentication: {
            type: 'login',
            loginRequest: { endpoint: 'login' },
            apiRequest: { query: { t: 'token' }, headers: { 'X-Token': 'token' } },
          },
        },
        config: { debug: true, jobs: [{ endpoint }] },
      },
    });
    const ok = await runWith(cfg('users'));
    assert.equal(ok.code, 0);
    const request = ok.lines.map(strip).find((l) => l.includes('GET /users'))!;
    assert.match(request, /GET \/users\?t=\[hidden\] HTTP\/1\.1/);
    assert.match(request, /X-Token: \[hidden\]/);
    for (const line of ok.lines) assert.match(line, /^\[[^\]]+\] logger\.(DEBUG|INFO|WARNING): /);
    assert.ok(ok.lines.some((l) => l.includes('Extractor finished successfully.')));
    assert.ok(!ok.lines.some((l) => /l\[hidden\]gger|g\[hidden\]/.test(l)));
    cleanup(ok);
    const failed = await runWith(cfg('fail'));
    const error = strip(failed.lines.at(-1));
    assert.ok(error.includes('"token":"[hidden]"') && error.includes('/fail?t=[hidden]'), error);
    assert.ok(error.startsWith('logger.ERROR: The API request failed: [400] Client error:'), error);
    cleanup(failed);
  } finally {
    await s.close();
  }
});

test('a login answered with a bare token instead of JSON: the token is not shown in the error', async () => {
  const s = await startFaultServer((_q, res) => {
    res.writeHead(200, { 'Content-Type': 'text/plain' });
    res.end('bare-token-0123456789\n');
  });
  try {
    const r = await runWith({
      parameters: {
        api: {
          baseUrl: `${s.url}/`,
          authentication: { type: 'login', loginRequest: { endpoint: 'login' }, apiRequest: { headers: { 'X-Token': 'data' } } },
        },
        config: { debug: true, jobs: [{ endpoint: 'users' }] },
      },
    });
    const error = strip(r.lines.at(-1));
    assert.equal(r.code, 1);
    assert.match(error, /^logger\.ERROR: Invalid JSON response from API/);
    assert.ok(!r.lines.join('\n').includes('bare-token'), error);
    cleanup(r);
  } finally {
    await s.close();
  }
});

/** The built command, as the platform runs it: stdout and stderr both scanned. */
const CLI = path.resolve(import.meta.dirname, '../../dist/cli.js');

function runCli(dir: string): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI], { env: { ...process.env, KBC_DATADIR: dir } });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (out += c.toString('utf8')));
    child.on('close', (code) => resolve({ code, out }));
  });
}

test('the built command: stdout and stderr of login and oauth runs, debug on and off, hold no derived value', {
  skip: !fs.existsSync(CLI) && 'npm run build first',
}, async () => {
  for (const name of [
    'login: token in the query, session in a header',
    'oauth20.login: access token from the token response as a Bearer header',
  ]) {
    for (const debug of [true, false]) {
      for (const endpoint of ['users', 'fail']) {
        const dir = makeDataDir(config(name, endpoint, debug));
        const r = await runCli(dir);
        assert.equal(r.code, endpoint === 'fail' ? 1 : 0, r.out.slice(-400));
        assert.deepEqual(leaks(r.out.split('\n')), [], `${name} ${endpoint} debug ${debug}`);
        fs.rmSync(dir, { recursive: true, force: true });
      }
    }
  }
});

test('credential-named client headers with plain values (no # key) are secrets too', async () => {
  const s = await startFaultServer((q, res) => sendJson(res, 401, { echo: q.headers['authorization'], key: q.headers['x-api-key'] }));
  try {
    const r = await runWith({
      parameters: {
        api: { baseUrl: `${s.url}/`, http: { headers: { Authorization: 'Bearer plain-token-42', 'X-Api-Key': 'k9' } } },
        config: { debug: true, jobs: [{ endpoint: 'users' }] },
      },
    });
    assert.equal(r.code, 1);
    const text = r.lines.join('\n');
    assert.ok(!text.includes('plain-token-42') && !text.includes('"k9"'), text);
    assert.ok(strip(r.lines.at(-1)).includes('"key":"[hidden]"'));
    cleanup(r);
  } finally {
    await s.close();
  }
});
