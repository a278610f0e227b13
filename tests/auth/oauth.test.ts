import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { describe, it } from 'node:test';
import { ApplicationError } from '../../src/errors/ApplicationError.ts';
import { UserError } from '../../src/errors/UserError.ts';
import { oauth1Header } from '../../src/auth/oauth10.ts';
import { HeaderList } from '../../src/http/headers.ts';
import type { PreparedRequest } from '../../src/http/prepared.ts';
import { harness, header, line, setupError, startServer } from './helpers.ts';

const CREDS = { '#data': '{"status":"ok","refresh_token":"1234abcd5678efgh"}', appKey: 'someId', '#appSecret': 'appSecret' };

function userError(e: unknown, message: string): void {
  assert.ok(e instanceof UserError, `expected a UserError, got ${String(e)}`);
  assert.equal(e.message, message);
}

describe('oauth20.login', () => {
  it('105-oauth2-login: consumer and user contexts in the login request headers', async () => {
    const server = await startServer((r) => (r.target.endsWith('/token') ? { body: '{"credentials":{"access_token":"acc3ss"}}' } : {}));
    const h = harness({
      baseUrl: `${server.url}/105-oauth2-login/`,
      oauthCredentials: CREDS,
      authentication: {
        type: 'oauth20.login',
        loginRequest: {
          endpoint: 'token',
          headers: { 'X-Refresh-Token': { user: 'refresh_token' }, 'X-App-Key': { consumer: 'client_id' } },
        },
        apiRequest: { headers: { 'X-Access-Token': 'credentials.access_token' } },
      },
    });
    try {
      await h.send({ endpoint: 'users', params: { a: 'b c' } });
      const [login, users] = server.requests;
      assert.equal(line(login!), 'GET /105-oauth2-login/token');
      assert.equal(header(login!, 'x-refresh-token'), '1234abcd5678efgh');
      assert.equal(header(login!, 'x-app-key'), 'someId');
      assert.equal(line(users!), 'GET /105-oauth2-login/users?a=b%20c');
      assert.equal(header(users!, 'x-access-token'), 'acc3ss');
    } finally {
      h.close();
      await server.close();
    }
  });

  it('114-oauth2-google: FORM refresh with consumer/user params, token in the query', async () => {
    const server = await startServer((r) =>
      r.target.includes('token') ? { body: '{"access_token":"mkoijn098uhbygv","expires_in":3600}' } : {},
    );
    const h = harness({
      baseUrl: `${server.url}/114/`,
      oauthCredentials: { '#data': '{"refresh_token":"efgh56789"}', appKey: 'clientId1234asdf', '#appSecret': 'clientSecret5678ghjk' },
      authentication: {
        type: 'oauth20.login',
        loginRequest: {
          endpoint: 'token',
          method: 'FORM',
          params: {
            client_id: { consumer: 'client_id' },
            client_secret: { consumer: 'client_secret' },
            refresh_token: { user: 'refresh_token' },
            grant_type: 'refresh_token',
          },
        },
        apiRequest: { query: { access_token: 'access_token' } },
      },
    });
    try {
      await h.send({ endpoint: 'reports' });
      assert.equal(
        server.requests[0]!.body,
        'client_id=clientId1234asdf&client_secret=clientSecret5678ghjk&refresh_token=efgh56789&grant_type=refresh_token',
      );
      assert.equal(line(server.requests[1]!), 'GET /114/reports?access_token=mkoijn098uhbygv');
    } finally {
      h.close();
      await server.close();
    }
  });

  it('apiRequest has no consumer/user contexts', async () => {
    const server = await startServer((r) => (r.target.includes('token') ? { body: '{"a":"b"}' } : {}));
    const h = harness({
      baseUrl: `${server.url}/`,
      oauthCredentials: CREDS,
      authentication: {
        type: 'oauth20.login',
        loginRequest: { endpoint: 'token' },
        apiRequest: { headers: { X: { consumer: 'client_id' } } },
      },
    });
    try {
      await assert.rejects(h.send({ endpoint: 'x' }), ApplicationError, 'the plain object fails as a header');
    } finally {
      h.close();
      await server.close();
    }
  });

  it('validations: login checks first, then the credentials', () => {
    const auth = { type: 'oauth20.login', loginRequest: { endpoint: 'token' } };
    userError(
      setupError({ authentication: { type: 'oauth20.login' }, oauthCredentials: CREDS }),
      "'loginRequest' is not configured for Login authentication",
    );
    userError(setupError({ authentication: auth }), 'OAuth API credentials not supplied in config');
    userError(
      setupError({ authentication: auth, oauthCredentials: { ...CREDS, '#data': '' } }),
      "Missing '#data' for OAuth 2.0 authorization",
    );
    userError(
      setupError({ authentication: auth, oauthCredentials: { ...CREDS, appKey: '0' } }),
      "Missing 'appKey' for OAuth 2.0 authorization",
    );
    userError(
      setupError({ authentication: auth, oauthCredentials: { ...CREDS, '#appSecret': null } }),
      "Missing '#appSecret' for OAuth 2.0 authorization",
    );
    userError(setupError({ authentication: auth, oauthCredentials: { ...CREDS, '#data': '{nope' } }), 'The OAuth data is not a valid JSON');
    assert.ok(setupError({ authentication: auth, oauthCredentials: { ...CREDS, '#data': '"str"' } }) instanceof ApplicationError);
    assert.equal(setupError({ authentication: { ...auth, format: 'text' }, oauthCredentials: CREDS }), undefined);
  });
});

describe('oauth20', () => {
  it('103-oauth2-bearer: text data in a bearer header', async () => {
    const server = await startServer();
    const h = harness({
      baseUrl: `${server.url}/103-oauth2-bearer/`,
      oauthCredentials: { '#data': 'SomeToken1234abcd567ef', appKey: 'clientId', '#appSecret': 'clientSecret' },
      authentication: { type: 'oauth20', headers: { Authorization: { function: 'concat', args: ['Bearer ', { authorization: 'data' }] } } },
    });
    try {
      await h.send({ endpoint: 'users' });
      assert.equal(line(server.requests[0]!), 'GET /103-oauth2-bearer/users');
      assert.equal(header(server.requests[0]!, 'authorization'), 'Bearer SomeToken1234abcd567ef');
    } finally {
      h.close();
      await server.close();
    }
  });

  it('json data, clientId/nonce/timestamp and query/request contexts; query merged with the replace variant', async () => {
    const server = await startServer((_r, i) => (i === 0 ? { status: 500 } : {}));
    const clock = { ms: 1_492_958_193_000 };
    const nonces = ['605cce2a2f687253', 'aaaaaaaaaaaaaaaa'];
    const h = harness({
      baseUrl: `${server.url}/api/`,
      clock,
      nonce: (length) => {
        assert.equal(length, 16);
        return nonces.shift()!;
      },
      oauthCredentials: { '#data': '{"access_token":"tok","nested":{"list":["x","y"]}}', appKey: 77, '#appSecret': 's' },
      authentication: {
        type: 'oauth20',
        format: 'json',
        query: {
          access_token: { authorization: 'data.access_token' },
          page: { function: 'concat', args: [{ query: 'page' }, '-', { authorization: 'data.nested.list.1' }] },
        },
        headers: {
          'X-Sig': {
            function: 'implode',
            args: [
              '|',
              [
                { authorization: 'clientId' },
                { authorization: 'nonce' },
                { authorization: 'timestamp' },
                { request: 'queryString' },
                { request: 'method' },
              ],
            ],
          },
        },
      },
    });
    try {
      await h.send({ endpoint: 'items', params: { page: '2', q: 'a b' } });
      assert.equal(server.requests.length, 2);
      assert.equal(line(server.requests[0]!), 'GET /api/items?page=2-y&q=a%20b&access_token=tok');
      assert.equal(header(server.requests[0]!, 'x-sig'), '77|605cce2a2f687253|1492958193|page=2&q=a+b|GET');
      assert.equal(header(server.requests[1]!, 'x-sig'), '77|aaaaaaaaaaaaaaaa|1492958193|page=2&q=a+b|GET', 'fresh nonce per attempt');
    } finally {
      h.close();
      await server.close();
    }
  });

  it('json scalar data is available as data; no attr context', async () => {
    const server = await startServer();
    const h = harness({
      baseUrl: `${server.url}/`,
      attributes: { a: 'b' },
      oauthCredentials: { '#data': '12345', appKey: 'k', '#appSecret': 's' },
      authentication: { type: 'oauth20', format: 'json', query: { d: { authorization: 'data' } }, headers: { X: { attr: 'a' } } },
    });
    try {
      await assert.rejects(h.send({ endpoint: 'x' }), (e: Error) => {
        userError(e, 'Invalid configuration: invalid type "object" in headers at path: X');
        return true;
      });
    } finally {
      h.close();
      await server.close();
    }
  });

  it('validations', () => {
    const auth = { type: 'oauth20' };
    userError(setupError({ authentication: auth }), 'OAuth API credentials not supplied in configuration.');
    userError(
      setupError({ authentication: auth, oauthCredentials: { ...CREDS, '#data': '' } }),
      "Missing '#data' for OAuth 2.0 authorization.",
    );
    userError(
      setupError({ authentication: auth, oauthCredentials: { ...CREDS, appKey: '' } }),
      "Missing 'appKey' for OAuth 2.0 authorization.",
    );
    userError(
      setupError({ authentication: auth, oauthCredentials: { ...CREDS, '#appSecret': '0' } }),
      "Missing '#appSecret' for OAuth 2.0 authorization.",
    );
    userError(setupError({ authentication: { ...auth, format: 'xml' }, oauthCredentials: CREDS }), "Unknown OAuth data format 'xml'.");
    const e = setupError({ authentication: { ...auth, format: 'json' }, oauthCredentials: { ...CREDS, '#data': 'not json' } });
    assert.ok(e instanceof ApplicationError);
    assert.equal(e.message, 'JSON decode error: Syntax error, malformed JSON');
  });
});

function prepared(
  method: PreparedRequest['method'],
  url: { scheme: 'http' | 'https'; host: string; port?: number; path: string; query?: string },
  headers: [string, string][] = [],
  body?: string,
): PreparedRequest {
  return {
    method,
    url: { scheme: url.scheme, userinfo: undefined, host: url.host, port: url.port, path: url.path, query: url.query },
    headers: HeaderList.from(headers.map(([n, v]) => [n, [v]] as const)),
    body: body === undefined ? undefined : Buffer.from(body),
    authHeaders: new Set(),
  };
}

describe('oauth10', () => {
  it('signs the spec check of 102-oauth1', () => {
    const request = prepared('GET', { scheme: 'http', host: 'mock-server', path: '/102-oauth1/users' });
    const keys = { consumerKey: '1234', consumerSecret: 'TopSecret', token: 'userToken', tokenSecret: 'tokenSecret' };
    assert.equal(
      oauth1Header(request, keys, '72469d96572dabb4d0ea02b057ea4f246d722b72', 1492904452),
      'OAuth oauth_consumer_key="1234", oauth_nonce="72469d96572dabb4d0ea02b057ea4f246d722b72", oauth_signature="zl0y5CyySCPj8IqODV3Egjqgg6Q%3D", oauth_signature_method="HMAC-SHA1", oauth_timestamp="1492904452", oauth_token="userToken", oauth_version="1.0"',
    );
  });

  it('includes form-body and query parameters in the signature (Twitter reference vector)', () => {
    const request = prepared(
      'POST',
      { scheme: 'https', host: 'api.twitter.com', path: '/1.1/statuses/update.json', query: 'include_entities=true' },
      [['Content-Type', 'application/x-www-form-urlencoded']],
      'status=Hello%20Ladies%20%2b%20Gentlemen%2c%20a%20signed%20OAuth%20request%21',
    );
    const keys = {
      consumerKey: 'xvz1evFS4wEEPTGEFPHBog',
      consumerSecret: 'kAcSOqF21Fu85e7zjz7ZN2U4ZRhfV3WpwPAoE3Z7kBw',
      token: '370773112-GmHxMAgYyLbNEtIKZeRNFsMKPR9EyMZeS9weJAEb',
      tokenSecret: 'LswwdoUaIvS8ltyTt5jkRh4J50vUPVVHtR2YPi5kE',
    };
    const value = oauth1Header(request, keys, 'kYjzVBB8Y0ZFabxSWbWovY3uYSQ2pTgmZeNu2VS4cg', 1318622958);
    assert.match(value, / oauth_signature="hCtSmYh%2BiHYCEqBWrE7C7hYmtUk%3D", /);
    // A JSON body is not signed.
    const json = prepared(
      'POST',
      { scheme: 'https', host: 'api.twitter.com', path: '/1.1/statuses/update.json', query: 'include_entities=true' },
      [['Content-Type', 'application/json']],
      'status=x',
    );
    assert.doesNotMatch(oauth1Header(json, keys, 'kYjzVBB8Y0ZFabxSWbWovY3uYSQ2pTgmZeNu2VS4cg', 1318622958), /hCtSmYh/);
  });

  it('signs every attempt with a fresh nonce, leaves the query alone, keeps non-default ports', async () => {
    const server = await startServer((_r, i) => (i === 0 ? { status: 502 } : {}));
    const clock = { ms: 1_492_904_452_999 };
    const nonces = ['a'.repeat(40), 'b'.repeat(40)];
    const h = harness({
      baseUrl: `${server.url}/o1/`,
      clock,
      nonce: (length) => {
        assert.equal(length, 40);
        return nonces.shift()!;
      },
      oauthCredentials: { '#data': '{"oauth_token":1,"oauth_token_secret":"ts"}', appKey: 1234, '#appSecret': 'TopSecret' },
      authentication: { type: 'oauth10', query: { ignored: 'x' } },
    });
    try {
      await h.send({ endpoint: 'users', params: { q: 'a b~', list: ['x', 'y'] } });
      assert.equal(server.requests.length, 2);
      const expected = (nonce: string): string => {
        const params = `list%5B0%5D=x&list%5B1%5D=y&oauth_consumer_key=1234&oauth_nonce=${nonce}&oauth_signature_method=HMAC-SHA1&oauth_timestamp=1492904452&oauth_token=1&oauth_version=1.0&q=a%20b~`;
        const base = `GET&${encodeURIComponent(`http://127.0.0.1:${server.port}/o1/users`)}&${encodeURIComponent(params)}`;
        const sig = createHmac('sha1', 'TopSecret&ts').update(base).digest('base64');
        return `OAuth oauth_consumer_key="1234", oauth_nonce="${nonce}", oauth_signature="${encodeURIComponent(sig)}", oauth_signature_method="HMAC-SHA1", oauth_timestamp="1492904452", oauth_token="1", oauth_version="1.0"`;
      };
      for (const [i, r] of server.requests.entries()) {
        assert.equal(line(r), 'GET /o1/users?q=a+b%7E&list%5B0%5D=x&list%5B1%5D=y');
        assert.equal(header(r, 'authorization'), expected(i === 0 ? 'a'.repeat(40) : 'b'.repeat(40)));
      }
    } finally {
      h.close();
      await server.close();
    }
  });

  it('validations', () => {
    const auth = { type: 'oauth10' };
    const data = (d: string) => ({ '#data': d, appKey: 'k', '#appSecret': 's' });
    userError(setupError({ authentication: auth }), 'OAuth API credentials not supplied in configuration.');
    userError(setupError({ authentication: auth, oauthCredentials: { appKey: 'k' } }), "Missing '#data' for OAuth 1.0 authorization.");
    userError(
      setupError({ authentication: auth, oauthCredentials: { '#data': '{}', '#appSecret': 's' } }),
      "Missing 'appKey' for OAuth 1.0 authorization.",
    );
    userError(
      setupError({ authentication: auth, oauthCredentials: { '#data': '{}', appKey: 'k' } }),
      "Missing '#appSecret' for OAuth 1.0 authorization.",
    );
    userError(setupError({ authentication: auth, oauthCredentials: data('{x') }), 'The OAuth #data is not a valid JSON.');
    for (const [json, type] of [
      ['[]', 'array'],
      ['"s"', 'string'],
      ['1', 'integer'],
      ['1.5', 'double'],
      ['true', 'boolean'],
      ['null', 'NULL'],
    ]) {
      userError(
        setupError({ authentication: auth, oauthCredentials: data(json!) }),
        `Key 'oauth_api.credentials'.#data must be object, given '${type}'.`,
      );
    }
    userError(
      setupError({ authentication: auth, oauthCredentials: data('{"oauth_token":null}') }),
      "Missing 'oauth_api.credentials.#data.oauth_token' for OAuth 1.0 authorization.",
    );
    userError(
      setupError({ authentication: auth, oauthCredentials: data('{"oauth_token":"t"}') }),
      "Missing 'oauth_api.credentials.#data.oauth_token_secret' for OAuth 1.0 authorization.",
    );
    assert.equal(setupError({ authentication: auth, oauthCredentials: data('{"oauth_token":"t","oauth_token_secret":""}') }), undefined);
  });
});

describe('nonce source', () => {
  it('values not in the required hex form are hashed into it (fresh per attempt)', async () => {
    const { nonceOf } = await import('../../src/auth/common.ts');
    let n = 0;
    const source = () => `uid-${++n}`;
    const a = nonceOf(source, 40, 'mock-server/x');
    const b = nonceOf(source, 40, 'mock-server/x');
    assert.match(a, /^[0-9a-f]{40}$/);
    assert.notEqual(a, b);
    assert.match(nonceOf(source, 16), /^[0-9a-f]{16}$/);
    assert.equal(
      nonceOf(() => '605cce2a2f687253', 16),
      '605cce2a2f687253',
    );
    const { randomHexNonce } = await import('../../src/auth/index.ts');
    assert.match(randomHexNonce(40), /^[0-9a-f]{40}$/);
    assert.match(randomHexNonce(16), /^[0-9a-f]{16}$/);
  });
});
