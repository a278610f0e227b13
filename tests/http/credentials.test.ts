/**
 * Credentials go only to the origins they were configured for (issue 19 #2): on a redirect or a
 * next-page link to another origin (scheme, host, port) the Basic Authorization header, query-auth
 * tokens, login-derived headers and parameters, Bearer client headers and headers carrying `#`
 * values are withheld, with one WARNING line; `image_parameters.allowed_hosts` and
 * `api.credentialOrigins` extend the set. Two real servers on 127.0.0.1 on different ports are
 * two origins.
 */
import assert from 'node:assert/strict';
import { after, before, beforeEach, test } from 'node:test';
import { cleanup, runWith, sendJson, startFaultServer, strip, type FaultServer, type Received } from '../reliability/helpers.ts';

let home: FaultServer;
let other: FaultServer;

before(async () => {
  other = await startFaultServer((q, res) => {
    if (q.target.startsWith('/redirect-back')) {
      res.writeHead(302, { Location: `${home.url}/api/back` });
      return res.end();
    }
    if (q.target.startsWith('/page2')) return sendJson(res, 200, { items: [{ id: 2 }], next: `${other.url}/page3` });
    sendJson(res, 200, { items: [{ id: 3 }] });
  });
  home = await startFaultServer((q, res) => {
    if (q.target.startsWith('/login')) return sendJson(res, 200, { token: 'LOGIN-TOKEN-abc123' });
    if (q.target.startsWith('/api/moved')) {
      res.writeHead(302, { Location: `${other.url}/moved-here` });
      return res.end();
    }
    if (q.target.startsWith('/api/same')) {
      res.writeHead(301, { Location: '/api/here' });
      return res.end();
    }
    if (q.target.startsWith('/api/paged')) return sendJson(res, 200, { items: [{ id: 1 }], next: `${other.url}/page2` });
    sendJson(res, 200, { items: [{ id: 9 }] });
  });
});
after(async () => {
  await home.close();
  await other.close();
});
let homeFrom = 0;
let otherFrom = 0;
beforeEach(() => {
  homeFrom = home.requests.length;
  otherFrom = other.requests.length;
});

const SECRETS = { password: 'pa55-word', key: 'key-0123456789', bearer: 'bearer-secret-xyz' };

function config(endpoint: string, extra: { api?: Record<string, unknown>; root?: Record<string, unknown> } = {}): unknown {
  return {
    ...extra.root,
    parameters: {
      api: {
        baseUrl: `${home.url}/api/`,
        authentication: { type: 'basic' },
        http: {
          headers: {
            'X-Api-Key': { attr: '#key' },
            'X-Plain': 'visible',
          },
        },
        pagination: { method: 'response.url', urlKey: 'next' },
        ...extra.api,
      },
      config: {
        username: 'ann',
        '#password': SECRETS.password,
        '#key': SECRETS.key,
        outputBucket: 'b',
        jobs: [{ endpoint, dataField: 'items', params: { token: { attr: '#key' }, page: 1 } }],
      },
    },
  };
}

function carriesCredentials(q: Received): boolean {
  return (
    q.headers['authorization'] !== undefined ||
    q.headers['x-api-key'] !== undefined ||
    q.headers['x-token'] !== undefined ||
    /[?&](token|t)=/.test(q.target) ||
    Object.values(SECRETS).some((s) => q.target.includes(s))
  );
}

const warnings = (lines: string[]): string[] => lines.map(strip).filter((l) => l.startsWith('logger.WARNING: Credentials withheld'));

test('a redirect to another origin: Authorization, # headers and # query values withheld, one WARNING', async () => {
  const r = await runWith(config('moved'));
  assert.equal(r.code, 0, r.lines.map(strip).slice(-2).join('\n'));
  const first = home.requests[homeFrom]!;
  assert.ok(first.headers['authorization']?.startsWith('Basic '));
  assert.equal(first.headers['x-api-key'], SECRETS.key);
  const moved = other.requests.slice(otherFrom);
  assert.equal(moved.length, 1);
  assert.equal(moved[0]!.target, '/moved-here');
  assert.equal(carriesCredentials(moved[0]!), false, JSON.stringify(moved[0]!.headers));
  assert.equal(moved[0]!.headers['x-plain'], 'visible', 'headers without credentials still go');
  const w = warnings(r.lines);
  assert.equal(w.length, 1);
  // Authentication (Basic) is not run for the foreign origin at all.
  assert.ok(w[0]!.includes(`Credentials withheld from ${other.url} (authentication, header X-Api-Key)`), w[0]);
  assert.ok(w[0]!.includes('parameters.api.credentialOrigins'), w[0]);
  assert.ok(!w[0]!.includes(SECRETS.key));
  cleanup(r);
});

test('next-page links to another origin: no credentials on any of them, still one WARNING; back home they return', async () => {
  const r = await runWith(config('paged', { api: { pagination: { method: 'response.url', urlKey: 'next', includeParams: true } } }));
  assert.equal(r.code, 0, r.lines.map(strip).slice(-2).join('\n'));
  const pages = other.requests.slice(otherFrom);
  assert.deepEqual(
    pages.map((q) => q.target.split('?')[0]),
    ['/page2', '/page3'],
  );
  for (const q of pages) assert.equal(carriesCredentials(q), false, `${q.target} ${JSON.stringify(q.headers)}`);
  assert.ok(
    pages.every((q) => q.target.includes('page=1')),
    'parameters without credentials still go',
  );
  const w = warnings(r.lines);
  assert.equal(w.length, 1);
  assert.ok(w[0]!.includes('(authentication, header X-Api-Key, query parameter token)'), w[0]);
  cleanup(r);
});

test('a redirect within the origin keeps the credentials, without a warning', async () => {
  const r = await runWith(config('same'));
  assert.equal(r.code, 0);
  const hops = home.requests.slice(homeFrom);
  assert.deepEqual(
    hops.map((q) => q.target.split('?')[0]),
    ['/api/same', '/api/here'],
  );
  for (const q of hops) assert.ok(q.headers['authorization']?.startsWith('Basic ') && q.headers['x-api-key'] === SECRETS.key);
  assert.deepEqual(warnings(r.lines), []);
  cleanup(r);
});

test('login auth: the absolute login endpoint is an origin of its own; login-derived values stay home', async () => {
  const login = {
    api: {
      baseUrl: `${other.url}/`,
      authentication: {
        type: 'login',
        loginRequest: { endpoint: `${home.url}/login`, headers: { 'X-Key': { attr: '#key' } } },
        apiRequest: { headers: { 'X-Token': 'token' }, query: { t: 'token' } },
      },
    },
  };
  // baseUrl on `other`, login on `home`; the job redirects from `other` back to `home`: home is
  // the login endpoint's origin, so the credentials are allowed there too.
  const r = await runWith(config('redirect-back', login));
  assert.equal(r.code, 0, r.lines.map(strip).slice(-2).join('\n'));
  const loginRequest = home.requests.slice(homeFrom).find((q) => q.target.startsWith('/login'))!;
  assert.equal(loginRequest.headers['x-key'], SECRETS.key);
  const api = other.requests[otherFrom]!;
  assert.equal(api.headers['x-token'], 'LOGIN-TOKEN-abc123');
  const back = home.requests.slice(homeFrom).find((q) => q.target.startsWith('/api/back'))!;
  assert.equal(back.headers['x-token'], 'LOGIN-TOKEN-abc123');
  assert.deepEqual(warnings(r.lines), []);
  cleanup(r);
});

test('login auth: a redirect to a third origin gets neither the login token nor the # header', async () => {
  const third = await startFaultServer((_q, res) => sendJson(res, 200, { items: [{ id: 7 }] }));
  const home2 = await startFaultServer((q, res) => {
    if (q.target.startsWith('/login')) return sendJson(res, 200, { token: 'LOGIN-TOKEN-abc123' });
    res.writeHead(307, { Location: `${third.url}/x` });
    res.end();
  });
  try {
    const r = await runWith(
      config('users', {
        api: {
          baseUrl: `${home2.url}/`,
          authentication: {
            type: 'login',
            loginRequest: { endpoint: 'login' },
            apiRequest: { headers: { 'X-Token': 'token' }, query: { t: 'token' } },
          },
        },
      }),
    );
    assert.equal(r.code, 0, r.lines.map(strip).slice(-2).join('\n'));
    assert.equal(third.requests.length, 1);
    assert.equal(carriesCredentials(third.requests[0]!), false, JSON.stringify(third.requests[0]));
    assert.match(warnings(r.lines)[0]!, /\(authentication, header X-Api-Key\)/);
    cleanup(r);
  } finally {
    await third.close();
    await home2.close();
  }
});

test('image_parameters.allowed_hosts and api.credentialOrigins extend the origins', async () => {
  const host = { host: '127.0.0.1', scheme: 'http', port: other.port };
  const viaAllowed = await runWith(
    config('moved', { root: { image_parameters: { allowed_hosts: [host, { host: '127.0.0.1', port: home.port }] } } }),
  );
  assert.equal(viaAllowed.code, 0, viaAllowed.lines.map(strip).slice(-2).join('\n'));
  const viaOption = await runWith(config('moved', { api: { credentialOrigins: [other.url] } }));
  assert.equal(viaOption.code, 0);
  const moved = other.requests.slice(otherFrom);
  assert.equal(moved.length, 2);
  for (const q of moved) assert.ok(q.headers['authorization']?.startsWith('Basic ') && q.headers['x-api-key'] === SECRETS.key);
  assert.deepEqual([...warnings(viaAllowed.lines), ...warnings(viaOption.lines)], []);
  // A port of its own is another origin: an entry for another port does not cover it.
  const wrongPort = await runWith(config('moved', { api: { credentialOrigins: [`http://127.0.0.1:${other.port === 1 ? 2 : 1}`] } }));
  assert.equal(warnings(wrongPort.lines).length, 1);
  for (const r of [viaAllowed, viaOption, wrongPort]) cleanup(r);
});

test('api.credentialOrigins that are not origins are user errors naming the entry', async () => {
  for (const [value, path] of [
    [['not a url'], 'parameters.api.credentialOrigins[0]'],
    [[`${other.url}`, 'ftp://x'], 'parameters.api.credentialOrigins[1]'],
    ['http://x', 'parameters.api.credentialOrigins'],
  ] as const) {
    const r = await runWith(config('users', { api: { credentialOrigins: value } }));
    assert.equal(r.code, 1);
    const error = strip(r.lines.at(-1));
    assert.ok(error.includes(`"configPath":"${path}"`), error);
    cleanup(r);
  }
});

test('one WARNING per origin for the whole run, also across iterations', async () => {
  const base = config('moved') as { parameters: Record<string, unknown> };
  base.parameters['iterations'] = [{ username: 'ann' }, { username: 'bob' }];
  const r = await runWith(base);
  assert.equal(r.code, 0, r.lines.map(strip).slice(-2).join('\n'));
  assert.equal(other.requests.length - otherFrom, 2);
  assert.equal(warnings(r.lines).length, 1);
  cleanup(r);
});

test('a job endpoint written as an absolute URL on another origin is configured: it gets the credentials', async () => {
  const r = await runWith(config(`${other.url}/direct`));
  assert.equal(r.code, 0, r.lines.map(strip).slice(-2).join('\n'));
  const direct = other.requests.slice(otherFrom);
  assert.equal(direct.length, 1);
  assert.ok(direct[0]!.headers['authorization']?.startsWith('Basic ') && direct[0]!.headers['x-api-key'] === SECRETS.key);
  assert.deepEqual(warnings(r.lines), []);
  cleanup(r);
});

test('query authentication: the token is not added to a redirect to another origin', async () => {
  const r = await runWith(config('moved', { api: { authentication: { type: 'query', query: { apikey: { attr: '#key' }, v: '2' } } } }));
  assert.equal(r.code, 0, r.lines.map(strip).slice(-2).join('\n'));
  assert.ok(home.requests[homeFrom]!.target.includes(`apikey=${SECRETS.key}`));
  const moved = other.requests.slice(otherFrom);
  assert.deepEqual(
    moved.map((q) => q.target),
    ['/moved-here'],
  );
  assert.equal(warnings(r.lines).length, 1);
  cleanup(r);
});

test('a login token the API copied into a next-page link to another origin is withheld from it', async () => {
  const foreign = await startFaultServer((_q, res) => sendJson(res, 200, { items: [{ id: 5 }] }));
  const api = await startFaultServer((q, res) => {
    if (q.target.startsWith('/login')) return sendJson(res, 200, { token: 'LOGIN-TOKEN-abc123' });
    sendJson(res, 200, { items: [{ id: 4 }], next: `${foreign.url}/page2?t=LOGIN-TOKEN-abc123&page=2` });
  });
  try {
    const r = await runWith({
      parameters: {
        api: {
          baseUrl: `${api.url}/`,
          authentication: { type: 'login', loginRequest: { endpoint: 'login' }, apiRequest: { query: { t: 'token' } } },
          pagination: { method: 'response.url', urlKey: 'next' },
        },
        config: { outputBucket: 'b', jobs: [{ endpoint: 'items', dataField: 'items' }] },
      },
    });
    assert.equal(r.code, 0, r.lines.map(strip).slice(-2).join('\n'));
    assert.deepEqual(
      foreign.requests.map((q) => q.target),
      ['/page2?page=2'],
    );
    assert.match(warnings(r.lines)[0]!, /\(authentication, query parameter t\)/);
    cleanup(r);
  } finally {
    await foreign.close();
    await api.close();
  }
});

test('credentials in the baseUrl userinfo: sent as Basic (as curl does) to that origin only, hidden in the log', async () => {
  const withUserinfo = {
    parameters: {
      api: { baseUrl: home.url.replace('http://', 'http://ann:p%40ss-w0rd@') + '/api/' },
      config: {
        debug: true,
        outputBucket: 'b',
        jobs: [
          { endpoint: 'moved', dataField: 'items' },
          { endpoint: 'same', dataField: 'items' },
        ],
      },
    },
  };
  const r = await runWith(withUserinfo);
  assert.equal(r.code, 0, r.lines.map(strip).slice(-2).join('\n'));
  const basic = `Basic ${Buffer.from('ann:p@ss-w0rd').toString('base64')}`;
  const homeHops = home.requests.slice(homeFrom);
  assert.deepEqual(
    homeHops.map((q) => [q.target, q.headers['authorization']]),
    [
      ['/api/moved', basic],
      ['/api/same', basic],
      ['/api/here', basic],
    ],
  );
  // The redirect to the other origin carries no userinfo, so no credentials.
  assert.equal(other.requests.slice(otherFrom)[0]!.headers['authorization'], undefined);
  const log = r.lines.join('\n');
  for (const secret of ['p@ss-w0rd', 'p%40ss-w0rd', basic.slice(6)]) assert.ok(!log.includes(secret), secret);
  cleanup(r);
});

test('a userinfo in the baseUrl does not replace an Authorization the configuration sets', async () => {
  const r = await runWith(config('same', { api: { baseUrl: home.url.replace('http://', 'http://url:user@') + '/api/', pagination: {} } }));
  assert.equal(r.code, 0, r.lines.map(strip).slice(-2).join('\n'));
  for (const q of home.requests.slice(homeFrom))
    assert.equal(q.headers['authorization'], `Basic ${Buffer.from(`ann:${SECRETS.password}`).toString('base64')}`);
  cleanup(r);
});
