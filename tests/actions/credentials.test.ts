/**
 * The sync actions' credentials stay in their origin (issue 32 #1; src/actions/helperHttp.ts
 * applies the extraction's credential scope): a redirect from the base URL's server to another
 * port of the same host gets no basic or bearer `Authorization`, no api-key header or query
 * value, no login session header. Two real servers on 127.0.0.1 on different ports are two
 * origins; a redirect within the origin keeps every credential.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { json, startServer, type TestServer } from '../helpers/httpServer.ts';
import { runAction } from './run.ts';

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
