import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { UserError } from '../../src/errors/UserError.ts';
import { ApplicationError } from '../../src/errors/ApplicationError.ts';
import { authMethodTypes } from '../../src/auth/registry.ts';
import { harness, header, line, setupError, startServer } from './helpers.ts';

describe('method selection', () => {
  it('logs no authentication for PHP-empty types and rejects unknown ones', async () => {
    for (const type of [undefined, '', null, 0, '0', false]) {
      const h = harness({ baseUrl: 'http://127.0.0.1:1/', authentication: type === undefined ? {} : { type } });
      assert.ok(
        h.lines.some((l) => l.includes('Using no authentication.')),
        String(type),
      );
      h.close();
    }
    const e = setupError({ authentication: { type: 'Basic' } });
    assert.ok(e instanceof UserError);
    assert.equal(e.message, "Unknown authorization type 'Basic'.");
    // The error lists every registered type (a new type needs no edit here); the spec's seven are among them.
    assert.deepEqual((e as UserError).context['knownTypes'], authMethodTypes());
    for (const type of ['basic', 'query', 'url.query', 'login', 'oauth20.login', 'oauth20', 'oauth10'])
      assert.ok(authMethodTypes().includes(type), type);
  });
});

describe('basic', () => {
  it('sends Authorization: Basic on every request, replacing any other (078-basic-auth)', async () => {
    const server = await startServer((_r, i) => (i === 0 ? { status: 503 } : {}));
    const h = harness({
      baseUrl: `${server.url}/078-basic-auth/`,
      authentication: { type: 'basic' },
      attributes: { '#username': 'JohnDoe', '#password': 'secret' },
      clientHeaders: { authorization: 'Bearer nope', Accept: 'application/json' },
    });
    try {
      const res = await h.send({ endpoint: 'users' });
      assert.equal(res.status, 200);
      assert.equal(server.requests.length, 2, 'one retry');
      for (const r of server.requests) {
        assert.equal(line(r), 'GET /078-basic-auth/users');
        assert.equal(header(r, 'authorization'), 'Basic Sm9obkRvZTpzZWNyZXQ=');
        assert.equal(header(r, 'accept'), 'application/json');
      }
      // The header is spelled by the auth step and moved to the end.
      const names = server.requests[1]!.rawHeaders.filter(
        (_, i) => i % 2 === 0 && !/^connection$/i.test(server.requests[1]!.rawHeaders[i]!),
      );
      assert.equal(names.at(-1), 'Authorization');
      assert.ok(!names.includes('authorization'));
      const debug = h.lines.filter((l) => l.includes('GET /078-basic-auth/users HTTP/1.1'));
      assert.equal(debug.length, 2);
      assert.ok(debug[0]!.includes('Authorization: [hidden]'));
    } finally {
      h.close();
      await server.close();
    }
  });

  it('prefers the plain keys when PHP-non-empty and uses PHP string forms', async () => {
    const server = await startServer();
    const h = harness({
      baseUrl: `${server.url}/`,
      authentication: { type: 'basic' },
      attributes: { username: 'alice', '#username': 'ignored', password: '0', '#password': 1234.5 },
    });
    try {
      await h.send({ endpoint: 'x' });
      assert.equal(header(server.requests[0]!, 'authorization'), 'Basic ' + Buffer.from('alice:1234.5').toString('base64'));
    } finally {
      h.close();
      await server.close();
    }
  });

  it('validates the credentials in order', () => {
    const missingUser = setupError({ authentication: { type: 'basic' }, attributes: { username: '0', '#password': 'x' } });
    assert.ok(missingUser instanceof UserError);
    assert.equal(missingUser.message, "Missing the required '#username' (or 'username') attribute in config.");
    const missingPassword = setupError({ authentication: { type: 'basic' }, attributes: { username: 'a', password: [] } });
    assert.ok(missingPassword instanceof UserError);
    assert.equal(missingPassword.message, "Missing the required '#password' attribute in config.");
  });
});

describe('query', () => {
  it('reproduces the worked example of 02 §4 (attr + request context, md5)', async () => {
    const server = await startServer();
    const h = harness({
      baseUrl: `${server.url}/v2/`,
      authentication: {
        type: 'query',
        query: {
          key: { attr: '#key' },
          sig: { function: 'md5', args: [{ function: 'concat', args: [{ attr: '#key' }, { request: 'path' }] }] },
        },
        apiRequest: { headers: { X: 'ignored' } },
      },
      attributes: { '#key': 'K1' },
    });
    try {
      await h.send({ endpoint: 'items', params: { page: '2' } });
      assert.equal(line(server.requests[0]!), 'GET /v2/items?page=2&key=K1&sig=ab488da0542103db8acdd2450b7ec75d');
      assert.equal(header(server.requests[0]!, 'x'), undefined);
    } finally {
      h.close();
      await server.close();
    }
  });

  it('rebuilds the query with RFC 3986 even when no parameter matches, replaces in place, repeats lists', async () => {
    const server = await startServer();
    const h = harness({
      baseUrl: `${server.url}/`,
      authentication: { type: 'query', query: { token: 'T', ids: [1, 2], flag: true, off: false, q: 'new value' } },
    });
    try {
      await h.send({ endpoint: 'search', params: { q: 'a b', t: 'x~y' } });
      assert.equal(line(server.requests[0]!), 'GET /search?q=new%20value&t=x~y&token=T&ids=1&ids=2&flag=1&off=');
      await h.send({ endpoint: 'search', params: { s: 'a b', t: 'x~y' } });
      assert.equal(line(server.requests[1]!), 'GET /search?s=a%20b&t=x~y&token=T&ids=1&ids=2&flag=1&off=&q=new%20value');
    } finally {
      h.close();
      await server.close();
    }
  });

  it('sees the query and request of each request (101-function-query-auth style)', async () => {
    const server = await startServer();
    const h = harness({
      baseUrl: `${server.url}/101/`,
      authentication: {
        type: 'query',
        query: {
          apiToken: { attr: '#token' },
          signature: {
            function: 'sha1',
            args: [{ function: 'concat', args: [{ query: 'type' }, { request: 'resource' }, { request: 'port' }] }],
          },
        },
      },
      attributes: { '#token': 'tok' },
    });
    try {
      await h.send({ endpoint: 'items', params: { type: 'users' } });
      const { createHash } = await import('node:crypto');
      const sig = createHash('sha1').update(`users/101/items?type=users${server.port}`).digest('hex');
      assert.equal(line(server.requests[0]!), `GET /101/items?type=users&apiToken=tok&signature=${sig}`);
    } finally {
      h.close();
      await server.close();
    }
  });

  it('re-evaluates on every attempt (functions see the clock of each retry)', async () => {
    const server = await startServer((_r, i) => (i === 0 ? { status: 500 } : {}));
    const clock = { ms: 1_500_000_000_000 };
    const h = harness({ baseUrl: `${server.url}/`, authentication: { type: 'query', query: { ts: { function: 'time' } } }, clock });
    const original = h.client.options.transport.send.bind(h.client.options.transport);
    h.client.options.transport.send = (req) => {
      const p = original(req);
      clock.ms += 5000;
      return p;
    };
    try {
      await h.send({ endpoint: 'x' });
      assert.deepEqual(server.requests.map(line), ['GET /x?ts=1500000000', 'GET /x?ts=1500000005']);
    } finally {
      h.close();
      await server.close();
    }
  });

  it('url.query warns; legacy api.query is used only when authentication.query is empty', async () => {
    const server = await startServer();
    const h = harness({ baseUrl: `${server.url}/`, authentication: { type: 'url.query', query: [] }, legacyQuery: { k: 'v' } });
    try {
      await h.send({ endpoint: 'x' });
      assert.equal(line(server.requests[0]!), 'GET /x?k=v');
      assert.ok(h.lines.some((l) => l.includes("WARNING: Method 'url.query' auth is deprecated, use 'query'.")));
      assert.ok(h.lines.some((l) => l.includes("WARNING: Using 'api.query' is deprecated, use 'api.authentication.query ")));
      assert.ok(
        h.lines.findIndex((l) => l.includes("Using 'url.query' authentication.")) < h.lines.findIndex((l) => l.includes('deprecated')),
      );
    } finally {
      h.close();
      await server.close();
    }
  });

  it('rejects a missing query and a non-object query', () => {
    const e = setupError({ authentication: { type: 'query' } });
    assert.ok(e instanceof UserError);
    assert.equal(e.message, "The query authentication method requires 'query' configuration in 'authentication' section.");
    assert.ok(setupError({ authentication: { type: 'query', query: 'abc' } }) instanceof ApplicationError);
  });

  it('prefixes function errors with User script error', async () => {
    const server = await startServer();
    const h = harness({ baseUrl: `${server.url}/`, authentication: { type: 'query', query: { k: { attr: 'missing' } } } });
    try {
      await assert.rejects(h.send({ endpoint: 'x' }), (e: Error) => {
        assert.ok(e instanceof UserError);
        assert.equal(e.message, "User script error: Error evaluating user function - attr 'missing' not found!");
        return true;
      });
      assert.equal(server.requests.length, 0);
    } finally {
      h.close();
      await server.close();
    }
  });
});
