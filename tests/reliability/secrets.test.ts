/**
 * Secrets (spec 01 §4.5): with `config.debug: true`, for every authentication type and AWS
 * signing, no secret value — raw, base64, URL-encoded (form, raw and WHATWG styles) or
 * JSON-escaped — appears in any log line, in out/ (tables, manifests, state) or in the final
 * error, including retry lines and errors whose body echoes the request (Authorization header,
 * URL with the query, body).
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { rawurlencode, urlencode } from '../../src/php/urlEncoding.ts';
import { pjsonString } from '../../src/php/jsonEncode.ts';
import { cleanup, runWith, sendJson, startFaultServer, strip, type FaultServer, type Run } from './helpers.ts';

/** Secrets with characters that every encoding changes: space, / + = & ? " \ ~ ( ) * ! ' and non-ASCII. */
const S = {
  username: 'usr Ωmega/1',
  password: `Pa$$ w0rd/é!*(x)~'"\\`,
  apiKey: 'k3y+plus&amp=eq?',
  token: 'bearer-Tok/en+==',
  appSecret: 'app sec/ret+=',
  accessToken: 'acc3ss-t0ken~/+',
  refreshToken: 'refr3sh tok/en',
  tokenSecret: 'tok-secret*()',
  awsSecret: 'aws/Secret+Key==x',
  other: 'just "another" secret',
};

function forms(secret: string): string[] {
  const once = [
    secret,
    Buffer.from(secret).toString('base64'),
    encodeURIComponent(secret),
    urlencode(secret),
    rawurlencode(secret),
    JSON.stringify(secret).slice(1, -1),
    pjsonString(secret).slice(1, -1),
  ];
  return [...new Set([...once, ...once.map((f) => JSON.stringify(f).slice(1, -1))])];
}

let api: FaultServer;
before(async () => {
  api = await startFaultServer((q, res, attempt) => {
    const echo = {
      error: 'unauthorized',
      authorization: q.headers['authorization'] ?? null,
      xKey: q.headers['x-api-key'] ?? null,
      url: q.target,
      body: q.body,
    };
    if (/\/(login|token)/.test(q.target))
      return sendJson(res, 200, { token: 'LOGIN-TOKEN-1', access_token: 'OAUTH-ACCESS-1', expires_in: 3600 });
    // Every request fails once with a retryable echo (retry log lines carry the body).
    if (attempt === 0) return sendJson(res, 503, echo, { 'Retry-After': '1' });
    if (q.target.includes('/fail')) return sendJson(res, 401, echo);
    sendJson(res, 200, [{ id: 1, name: 'row' }]);
  });
});
after(() => api.close());

const OAUTH2 = JSON.stringify({ access_token: S.accessToken, refresh_token: S.refreshToken, token_type: 'bearer-like' });

/** `api` extras, `config` attributes and root keys of each authentication case. */
const CASES: Record<
  string,
  { api?: Record<string, unknown>; config?: Record<string, unknown>; root?: Record<string, unknown>; parameters?: Record<string, unknown> }
> = {
  basic: { api: { authentication: { type: 'basic' } }, config: { '#username': S.username, '#password': S.password } },
  query: {
    api: {
      authentication: { type: 'query', query: { apikey: { attr: '#apiKey' }, sig: { function: 'md5', args: [{ attr: '#apiKey' }] } } },
    },
    config: { '#apiKey': S.apiKey },
  },
  login: {
    api: {
      authentication: {
        type: 'login',
        loginRequest: {
          endpoint: 'login',
          method: 'POST',
          params: { user: { attr: '#username' }, password: { attr: '#password' } },
          headers: { 'X-Key': { attr: '#apiKey' } },
        },
        apiRequest: { headers: { 'X-Token': 'token' }, query: { k: { attr: '#apiKey' } } },
      },
    },
    config: { '#username': S.username, '#password': S.password, '#apiKey': S.apiKey },
  },
  'login (FORM, GET)': {
    api: {
      authentication: {
        type: 'login',
        loginRequest: { endpoint: 'login', method: 'FORM', params: { user: { attr: '#username' }, password: { attr: '#password' } } },
        apiRequest: { headers: { Authorization: { function: 'concat', args: ['Bearer ', { response: 'token' }] } } },
      },
    },
    config: { '#username': S.username, '#password': S.password },
  },
  oauth20: {
    api: {
      authentication: {
        type: 'oauth20',
        format: 'json',
        headers: { Authorization: { function: 'concat', args: ['Bearer ', { authorization: 'data.access_token' }] } },
        query: { t: { authorization: 'data.access_token' } },
      },
    },
    root: { authorization: { oauth_api: { credentials: { '#data': OAUTH2, appKey: 'client-id', '#appSecret': S.appSecret } } } },
  },
  'oauth20.login': {
    api: {
      authentication: {
        type: 'oauth20.login',
        loginRequest: {
          endpoint: 'token',
          method: 'FORM',
          params: { refresh_token: { user: 'refresh_token' }, client_secret: { consumer: 'client_secret' } },
          headers: { 'X-Refresh': { user: 'refresh_token' } },
        },
        apiRequest: { headers: { Authorization: { function: 'concat', args: ['Bearer ', { response: 'access_token' }] } } },
      },
    },
    root: { authorization: { oauth_api: { credentials: { '#data': OAUTH2, appKey: 'client-id', '#appSecret': S.appSecret } } } },
  },
  oauth10: {
    api: { authentication: { type: 'oauth10' } },
    root: {
      authorization: {
        oauth_api: {
          credentials: {
            '#data': JSON.stringify({ oauth_token: 'user-token-1', oauth_token_secret: S.tokenSecret }),
            appKey: 'client-id',
            '#appSecret': S.appSecret,
          },
        },
      },
    },
  },
  'AWS signature': {
    parameters: {
      aws: {
        signature: {
          credentials: { accessKeyId: 'AKIDEXAMPLE', '#secretKey': S.awsSecret, serviceName: 'execute-api', regionName: 'eu-central-1' },
        },
      },
    },
  },
  '# attributes in headers (bearer, API key)': {
    api: {
      http: { headers: { Authorization: { function: 'concat', args: ['Bearer ', { attr: '#token' }] }, 'X-Api-Key': { attr: '#apiKey' } } },
    },
    config: { '#token': S.token, '#apiKey': S.apiKey },
  },
};

let runs = 0;

function config(name: string, endpoint: string, method = 'GET'): unknown {
  const c = CASES[name]!;
  return {
    ...c.root,
    parameters: {
      ...c.parameters,
      api: { baseUrl: `${api.url}/api/`, retryConfig: { maxRetries: 2 }, ...c.api },
      config: {
        debug: true,
        outputBucket: 'secure',
        '#other': S.other,
        ...c.config,
        // A # attribute in job params ends up in the query (GET) or the body (POST, FORM).
        // `run` makes every run's URLs unique, so each one meets its own first-attempt 503.
        jobs: [{ endpoint, method, params: { q: { attr: '#other' }, page: 1, run: ++runs } }],
      },
    },
  };
}

function outFiles(dir: string): string[] {
  const out = path.join(dir, 'out');
  if (!fs.existsSync(out)) return [];
  return (fs.readdirSync(out, { recursive: true }) as string[])
    .map((f) => path.join(out, f))
    .filter((f) => fs.statSync(f).isFile())
    .map((f) => fs.readFileSync(f, 'utf8'));
}

/** Secret-derived header values the server saw (Basic and Bearer credentials). */
function wireCredentials(from: number): string[] {
  const values = new Set<string>();
  for (const q of api.requests.slice(from)) {
    const auth = q.headers['authorization'];
    if (typeof auth === 'string' && /^(Basic|Bearer) /.test(auth) && !auth.includes('LOGIN-TOKEN') && !auth.includes('OAUTH-ACCESS'))
      values.add(auth.replace(/^\S+ /, ''));
  }
  return [...values];
}

function leaks(r: Run, from: number): string[] {
  const haystack = [...r.lines, ...outFiles(r.dir)].join('\n');
  const hits: string[] = [];
  for (const [name, secret] of Object.entries(S))
    for (const form of forms(secret)) if (haystack.includes(form)) hits.push(`${name} as ${JSON.stringify(form)}`);
  for (const value of wireCredentials(from)) if (haystack.includes(value)) hits.push(`credential on the wire ${value}`);
  return hits;
}

for (const name of Object.keys(CASES)) {
  test(`${name}: no secret in logs, out/ or state (success with retries)`, async () => {
    const from = api.requests.length;
    const r = await runWith(config(name, 'users'));
    assert.equal(r.code, 0, r.lines.map(strip).slice(-3).join('\n'));
    assert.ok(
      r.lines.some((l) => l.includes('HTTP/1.1')),
      'debug request lines were written',
    );
    assert.ok(
      r.lines.some((l) => l.includes('Http request failed, retrying in') && l.includes('"body":')),
      'retry lines echo the request',
    );
    assert.ok(fs.existsSync(path.join(r.dir, 'out', 'state.json')));
    assert.deepEqual(leaks(r, from), []);
    cleanup(r);
  });

  for (const method of ['GET', 'POST', 'FORM']) {
    test(`${name}: a ${method} request failing with 401 that echoes Authorization, URL and body: error line redacted`, async () => {
      const from = api.requests.length;
      const r = await runWith(config(name, 'fail', method));
      assert.equal(r.code, 1);
      const error = strip(r.lines.at(-1));
      assert.match(error, /^logger\.ERROR: The API request failed: \[401\] Client error: `(GET|POST) http:\/\/127\.0\.0\.1:\d+\/api\/fail/);
      assert.ok(error.includes('"authorization":'), 'the echo is in the error context');
      assert.deepEqual(leaks(r, from), []);
      if (name === 'basic') assert.ok(error.includes('"authorization":"[hidden]"'), error);
      if (name.startsWith('#')) assert.ok(error.includes('"authorization":"[hidden]"') && error.includes('"xKey":"[hidden]"'), error);
      cleanup(r);
    });
  }
}

test('a secret cut by the 120-byte error summary is hidden whole, not left half-visible', async () => {
  const s = await startFaultServer((q, res) => sendJson(res, 400, { padding: 'p'.repeat(80), echo: q.headers['x-api-key'] }));
  try {
    const r = await runWith({
      parameters: {
        api: { baseUrl: `${s.url}/`, http: { headers: { 'X-Api-Key': { attr: '#key' } } } },
        config: { '#key': 'SECRET-0123456789-abcdefghij', jobs: [{ endpoint: 'x' }] },
      },
    });
    const error = strip(r.lines.at(-1));
    assert.equal(r.code, 1);
    assert.ok(!/SECRET|0123456789|abcdefghij/.test(error), error);
    assert.ok(error.includes('"echo":"[hidden]"'), error);
    cleanup(r);
  } finally {
    await s.close();
  }
});

test('a failing login request whose error body echoes the credentials (json and text formats)', async () => {
  const s = await startFaultServer((q, res) => sendJson(res, 401, { padding: 'p'.repeat(70), echo: q.body }));
  try {
    for (const format of ['json', 'text']) {
      const r = await runWith({
        parameters: {
          api: {
            baseUrl: `${s.url}/`,
            authentication: {
              type: 'login',
              format,
              loginRequest: { endpoint: 'login', method: 'FORM', params: { p: { attr: '#password' } } },
              apiRequest: { headers: { X: 'token' } },
            },
          },
          config: { '#password': 'LOGIN-SECRET-0123456789-abcdefghij', jobs: [{ endpoint: 'x' }] },
        },
      });
      const error = strip(r.lines.at(-1));
      assert.equal(r.code, 1, error);
      assert.match(error, /^logger\.ERROR: The API request failed: \[401\] Client error: `POST http:\/\/127\.0\.0\.1:\d+\/login`/);
      assert.ok(!/LOGIN|SECRET|0123456789|abcdefghij/.test(error), `${format}: ${error}`);
      cleanup(r);
    }
  } finally {
    await s.close();
  }
});
