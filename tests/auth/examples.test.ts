/**
 * The examples each authentication type registers (rendered in docs/authentication.md) work:
 * run as a whole config.json against a real local API, they authenticate as their text says.
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { json, startServer, type TestServer } from '../helpers/httpServer.ts';
import { run } from '../helpers/dataDir.ts';
import { authMethodTypes, getAuthMethod } from '../../src/auth/registry.ts';
import '../../src/auth/index.ts';

const servers: TestServer[] = [];
after(async () => {
  for (const s of servers) await s.close();
});

/** What each example's requests to `users` must carry (from its "Sends" text). */
const EXPECTED: Record<string, (headers: Record<string, unknown>, target: string) => boolean> = {
  basic: (h) => h['authorization'] === 'Basic Sm9obkRvZTpzZWNyZXQ=',
  query: (_h, t) => t === '/v1/users?apikey=k-123456',
  'url.query': (_h, t) => t === '/v1/users?apikey=k-123456',
  login: (h) => h['authorization'] === 'Bearer login-token',
  'oauth20.login': (h) => h['authorization'] === 'Bearer login-token',
  oauth20: (h) => h['authorization'] === 'Bearer SomeToken1234abcd567ef',
  oauth10: (h) => typeof h['authorization'] === 'string' && h['authorization'].startsWith('OAuth oauth_consumer_key="consumerKey"'),
};

for (const type of authMethodTypes()) {
  test(`the '${type}' example authenticates as documented`, async () => {
    const { example } = getAuthMethod(type);
    const s = await startServer((req, res) =>
      req.target.startsWith('/v1/users') ? json(res, 200, [{ id: 1 }]) : json(res, 200, { access_token: 'login-token', expires_in: 3600 }),
    );
    servers.push(s);
    const config: Record<string, unknown> = {
      parameters: {
        api: { baseUrl: `${s.url}/v1/`, authentication: example.authentication },
        config: { ...(example.config ?? {}), outputBucket: 'b', jobs: [{ endpoint: 'users' }] },
      },
    };
    if (example.authorization) config['authorization'] = example.authorization;
    const r = await run(config);
    assert.equal(r.code, 0, r.lines.join('\n'));
    const users = s.requests.filter((q) => q.target.startsWith('/v1/users'));
    assert.equal(users.length, 1);
    const check = EXPECTED[type];
    assert.ok(check, `no expectation for the '${type}' example: add one`);
    assert.ok(check(users[0]!.headers, users[0]!.target), `${type}: ${users[0]!.target} ${JSON.stringify(users[0]!.headers)}`);
    const logins = s.requests.filter((q) => !q.target.startsWith('/v1/users'));
    if (type === 'login')
      assert.deepEqual(
        [logins[0]?.method, logins[0]?.target, logins[0]?.body],
        ['POST', '/v1/auth/login', '{"user":"JohnDoe","password":"secret"}'],
      );
    if (type === 'oauth20.login') {
      assert.equal(logins[0]?.target, '/v1/oauth/token');
      assert.equal(logins[0]?.body, 'grant_type=refresh_token&refresh_token=r-1234abcd&client_id=my-client&client_secret=my-secret');
    }
  });
}
