/**
 * The sync actions' authentication registry (src/auth/helperRegistry.ts): the method comes from
 * `config.__AUTH_METHOD`, else `api.authentication.type`; an unknown one is the helper's
 * ValueError; what a method builds is an Authenticator that sets its header where it stands.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createHelperAuthenticator, helperAuthMethodSpecs, type HelperDialect } from '../../src/auth/helper.ts';
import { HeaderList } from '../../src/http/headers.ts';
import type { PreparedRequest } from '../../src/http/prepared.ts';
import type { Value } from '../../src/php/value.ts';

class DialectError extends Error {}
const dialect: HelperDialect = {
  str: (v) => String(v),
  truthy: (v) => v !== undefined && v !== null && v !== '' && v !== false && v !== 0,
  formEncode: (params) => [...params].map(([k, v]) => `${k}=${String(v)}`).join('&'),
  jsonText: (v) => JSON.stringify(v),
  fill: (fragment) => fragment ?? new Map(),
  evaluate: (e) => e,
  error: (kind, message) => new DialectError(`${kind}: ${message}`),
};
const map = (o: Record<string, unknown>) => new Map(Object.entries(o)) as Map<string, Value>;

function request(): PreparedRequest {
  const headers = HeaderList.from([
    ['Accept', ['*/*']],
    ['X-Key', ['placeholder']],
  ]);
  return {
    method: 'GET',
    url: { scheme: 'http', userinfo: undefined, host: 'h', port: undefined, path: '/', query: undefined },
    headers,
    body: undefined,
    authHeaders: new Set(),
  };
}

test("the registered methods are the helper's: basic, bearer, api-key, query, login/oauth2", () => {
  assert.deepEqual(
    helperAuthMethodSpecs().flatMap((s) => s.types),
    ['basic', 'bearer', 'api-key', 'query', 'login', 'oauth2'],
  );
});

test("an unknown method is the helper's ValueError, raised when the authentication is built", () => {
  assert.throws(
    () => createHelperAuthenticator({ user: new Map(), config: map({ __AUTH_METHOD: 'oauth20' }), api: map({}), dialect }),
    /value: Unsupported auth method: oauth20/,
  );
  assert.equal(
    createHelperAuthenticator({ user: new Map(), config: map({}), api: map({ authentication: map({ type: 'custom' }) }), dialect }).method,
    'custom',
  );
});

test('api-key sets the token where the header stands, marked as an authentication header', async () => {
  const auth = createHelperAuthenticator({
    user: new Map(),
    config: map({ __AUTH_METHOD: 'api-key', '#__AUTH_TOKEN': 'tok' }),
    api: map({ http: map({ headers: map({ 'X-Key': map({ attr: '#__AUTH_TOKEN' }) }) }) }),
    dialect,
  });
  const r = request();
  await auth.authenticate(r, undefined as never);
  assert.deepEqual(
    r.headers.entries.map((e) => [e.name, e.values[0]]),
    [
      ['Accept', '*/*'],
      ['X-Key', 'tok'],
    ],
  );
  assert.ok(r.authHeaders.has('x-key'));
  assert.deepEqual(auth.secrets(), ['tok']);
});
