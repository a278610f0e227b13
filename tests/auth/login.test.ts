import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import { ApplicationError } from '../../src/errors/ApplicationError.ts';
import { UserError } from '../../src/errors/UserError.ts';
import { harness, header, line, setupError, startServer, type Received, type Reply } from './helpers.ts';

/** Answers `/login`-like paths with `login`, everything else with `[]`. */
function loginServer(
  login: (r: Received, n: number) => Reply,
  isLogin = (r: Received) => r.target.includes('login') || r.target.includes('token'),
) {
  let logins = 0;
  return startServer((r) => (isLogin(r) ? login(r, logins++) : {}));
}

describe('login: wire', () => {
  it('worked example A: POST login, client headers but no defaultOptions, bearer header, Q-rebuild', async () => {
    const server = await loginServer(() => ({ body: '{"data": {"token": "T0K"}}' }));
    const h = harness({
      baseUrl: `${server.url}/v1/`,
      clientHeaders: { Accept: 'application/json' },
      defaultOptions: { headers: { 'X-Env': 'prod' }, params: { limit: 100 } },
      authentication: {
        type: 'login',
        loginRequest: { endpoint: 'auth/token', method: 'POST', params: { user: 'ann', pass: 's3cret' }, headers: { 'X-Client': 'etl' } },
        apiRequest: { headers: { Authorization: { function: 'concat', args: ['Bearer ', { response: 'data.token' }] } } },
      },
    });
    try {
      await h.send({ endpoint: 'users', params: { q: 'a b' } });
      const [login, users] = server.requests;
      assert.equal(line(login!), 'POST /v1/auth/token');
      assert.equal(login!.body, '{"user":"ann","pass":"s3cret"}');
      assert.equal(header(login!, 'x-client'), 'etl');
      assert.equal(header(login!, 'content-type'), 'application/json');
      assert.equal(header(login!, 'accept'), 'application/json');
      assert.equal(header(login!, 'user-agent'), 'GuzzleHttp/7');
      assert.equal(header(login!, 'x-env'), undefined);
      assert.equal(header(login!, 'authorization'), undefined);
      assert.equal(line(users!), 'GET /v1/users?limit=100&q=a%20b');
      assert.equal(header(users!, 'x-env'), 'prod');
      assert.equal(header(users!, 'accept'), 'application/json');
      assert.equal(header(users!, 'authorization'), 'Bearer T0K');
      assert.equal(server.requests.length, 2);
    } finally {
      h.close();
      await server.close();
    }
  });

  it('worked example B: indexed-list merge of colliding names', async () => {
    for (const [uid, expected] of [
      ['42', 'GET /b?a=1&sort=desc&token=XYZ&id%5B0%5D=7&id%5B1%5D=42'],
      ['7', 'GET /b?a=1&sort=desc&token=XYZ&id%5B0%5D=7'],
    ] as const) {
      const server = await loginServer(() => ({ body: JSON.stringify({ t: 'XYZ', uid }) }));
      const h = harness({
        baseUrl: `${server.url}/`,
        defaultOptions: { params: { a: '1', sort: 'asc' } },
        authentication: {
          type: 'login',
          loginRequest: { endpoint: 'login' },
          apiRequest: { query: { token: { response: 't' }, id: { response: 'uid' } } },
        },
      });
      try {
        await h.send({ endpoint: 'b', params: { sort: 'desc', id: '7' } });
        assert.equal(line(server.requests[0]!), 'GET /login');
        assert.equal(line(server.requests[1]!), expected);
      } finally {
        h.close();
        await server.close();
      }
    }
  });

  it('worked example C: text format, body verbatim (trailing newline kept)', async () => {
    const server = await loginServer(() => ({ body: 'a1b2c3d435f6\n', headers: { 'Content-Type': 'text/plain' } }));
    const h = harness({
      baseUrl: `${server.url}/128/`,
      authentication: {
        type: 'login',
        format: 'text',
        loginRequest: { endpoint: 'login' },
        apiRequest: { query: { token: { response: 'data' } } },
      },
    });
    try {
      await h.send({ endpoint: 'users' });
      assert.equal(line(server.requests[1]!), 'GET /128/users?token=a1b2c3d435f6%0A');
    } finally {
      h.close();
      await server.close();
    }
  });

  it('text format header (128-login-auth-text)', async () => {
    const server = await loginServer(() => ({ body: 'a1b2c3d435f6', headers: { 'Content-Type': 'text/plain' } }));
    const h = harness({
      baseUrl: `${server.url}/128/`,
      authentication: {
        type: 'login',
        format: 'text',
        loginRequest: { endpoint: 'login' },
        apiRequest: { headers: { 'X-ApiToken': { response: 'data' } } },
      },
    });
    try {
      await h.send({ endpoint: 'users' });
      assert.equal(header(server.requests[1]!, 'x-apitoken'), 'a1b2c3d435f6');
      assert.ok(h.lines.some((l) => l.includes('GET /128/users HTTP/1.1') && l.includes('X-ApiToken: [hidden]')));
    } finally {
      h.close();
      await server.close();
    }
  });

  it('worked example D and the value forms of 02 §6.6', async () => {
    const body = JSON.stringify({ auth: { token: 'abc', ttl: 60 }, list: [null, 'second'] });
    const server = await loginServer(() => ({ body }));
    const h = harness({
      baseUrl: `${server.url}/`,
      attributes: { '#login': 'auth.ttl', plain: 'JohnDoe' },
      authentication: {
        type: 'login',
        loginRequest: { endpoint: 'login' },
        apiRequest: {
          headers: {
            'X-Token': 'auth.token',
            'X-Static': 'hello',
            'X-Bearer': 'Bearer x',
            'X-Ref': { response: 'auth.token' },
            'X-Concat': { function: 'concat', args: ['Bearer ', { response: 'auth.token' }] },
            'X-Sha': { function: 'sha1', args: [{ response: 'auth.token' }] },
            'X-Attr': { attr: '#login' },
            'X-Plain-Attr': { attr: 'plain' },
            'X-Null-Element': 'list.0',
            'X-Element': 'list.1',
          },
        },
      },
    });
    try {
      await h.send({ endpoint: 'x' });
      const r = server.requests[1]!;
      assert.equal(header(r, 'x-token'), 'abc');
      assert.equal(header(r, 'x-static'), 'hello');
      assert.equal(header(r, 'x-bearer'), 'Bearer x');
      assert.equal(header(r, 'x-ref'), 'abc');
      assert.equal(header(r, 'x-concat'), 'Bearer abc');
      assert.equal(header(r, 'x-sha'), createHash('sha1').update('abc').digest('hex'));
      assert.equal(header(r, 'x-attr'), '60', 'an attribute naming a response path is looked up too');
      assert.equal(header(r, 'x-plain-attr'), 'JohnDoe');
      assert.equal(header(r, 'x-null-element'), 'list.0', 'array step needs a non-null element');
      assert.equal(header(r, 'x-element'), 'second');
    } finally {
      h.close();
      await server.close();
    }
  });

  it('a path to an array gives several header values / a repeated query key; a path to an object is an internal error', async () => {
    const server = await loginServer(() => ({ body: JSON.stringify({ auth: { token: 'auth' }, ids: [1, 2] }) }));
    const h = harness({
      baseUrl: `${server.url}/`,
      authentication: {
        type: 'login',
        loginRequest: { endpoint: 'login' },
        apiRequest: { query: { id: 'ids' }, headers: { 'X-Ids': 'ids' } },
      },
    });
    try {
      await h.send({ endpoint: 'x' });
      assert.equal(line(server.requests[1]!), 'GET /x?id=1&id=2');
      assert.equal(header(server.requests[1]!, 'x-ids'), '1, 2');
    } finally {
      h.close();
      await server.close();
    }
    const server2 = await loginServer(() => ({ body: JSON.stringify({ auth: { token: 'auth' } }) }));
    const h2 = harness({
      baseUrl: `${server2.url}/`,
      authentication: {
        type: 'login',
        loginRequest: { endpoint: 'login' },
        apiRequest: { headers: { 'X-Token': { response: 'auth.token' } } },
      },
    });
    try {
      // The token value "auth" is itself a path to an object (pitfall a).
      await assert.rejects(h2.send({ endpoint: 'x' }), ApplicationError);
      assert.equal(server2.requests.length, 1);
    } finally {
      h2.close();
      await server2.close();
    }
  });

  it('{response} references to objects, missing keys and nulls are "not found"', async () => {
    for (const path of ['auth', 'missing', 'nothing']) {
      const server = await loginServer(() => ({ body: JSON.stringify({ auth: { token: 'abc' }, nothing: null }) }));
      const h = harness({
        baseUrl: `${server.url}/`,
        authentication: { type: 'login', loginRequest: { endpoint: 'login' }, apiRequest: { headers: { X: { response: path } } } },
      });
      try {
        await assert.rejects(h.send({ endpoint: 'x' }), (e: Error) => {
          assert.ok(e instanceof UserError);
          assert.equal(e.message, `User script error: Error evaluating user function - response '${path}' not found!`);
          return true;
        });
      } finally {
        h.close();
        await server.close();
      }
    }
  });

  it('worked example F: FORM login at an absolute endpoint, array indices in paths (080)', async () => {
    const other = await startServer(() => ({
      body: JSON.stringify({ authentication: [{ secret: 'a1b2c3d435f6' }, { token: { id: 123 } }] }),
    }));
    const server = await startServer();
    const h = harness({
      baseUrl: `${server.url}/080-login-auth-query/`,
      attributes: { username: 'JohnDoe', '#password': 'TopSecret' },
      authentication: {
        type: 'login',
        loginRequest: {
          endpoint: `${other.url}/080-login-auth-query/login/form`,
          method: 'form',
          params: { username: { attr: 'username' }, password: { attr: '#password' } },
        },
        apiRequest: { query: { secretKey: 'authentication.0.secret', tokenId: 'authentication.1.token.id' } },
      },
    });
    try {
      await h.send({ endpoint: 'users' });
      const login = other.requests[0]!;
      assert.equal(line(login), 'POST /080-login-auth-query/login/form');
      assert.equal(login.body, 'username=JohnDoe&password=TopSecret');
      assert.equal(header(login, 'content-type'), 'application/x-www-form-urlencoded');
      assert.equal(header(login, 'host'), `127.0.0.1:${other.port}`);
      assert.equal(line(server.requests[0]!), 'GET /080-login-auth-query/users?secretKey=a1b2c3d435f6&tokenId=123');
    } finally {
      h.close();
      await server.close();
      await other.close();
    }
  });

  it('worked example E: function over the login response in apiRequest.query (117)', async () => {
    const server = await loginServer(() => ({ body: JSON.stringify({ authorization: { token: 'a1b2c3d435f6' } }) }));
    const h = harness({
      baseUrl: `${server.url}/117/`,
      attributes: { '#login': 'JohnDoe' },
      authentication: {
        type: 'login',
        loginRequest: { endpoint: 'login' },
        apiRequest: {
          query: {
            auth: {
              function: 'sha1',
              args: [{ function: 'concat', args: [{ attr: '#login' }, ':', { response: 'authorization.token' }] }],
            },
          },
        },
      },
    });
    try {
      await h.send({ endpoint: 'users' });
      assert.equal(line(server.requests[1]!), `GET /117/users?auth=${createHash('sha1').update('JohnDoe:a1b2c3d435f6').digest('hex')}`);
    } finally {
      h.close();
      await server.close();
    }
  });

  it('GET login: params with http_build_query (never rebuilt), endpoint query merged; POST/FORM without params', async () => {
    const server = await loginServer(() => ({ body: '{"t":"x"}' }));
    const h = harness({
      baseUrl: `${server.url}/api/`,
      attributes: { who: 'a b~c' },
      authentication: {
        type: 'login',
        loginRequest: {
          endpoint: 'login?fixed=1',
          method: 'get',
          params: { user: { attr: 'who' }, n: null, t: true, f: false, nested: { a: [1] } },
        },
        apiRequest: { query: { t: { response: 't' } } },
      },
    });
    try {
      await h.send({ endpoint: 'users', params: { x: 'a~b' } });
      assert.equal(line(server.requests[0]!), 'GET /api/login?fixed=1&user=a+b%7Ec&t=1&f=0&nested%5Ba%5D%5B0%5D=1');
      assert.equal(line(server.requests[1]!), 'GET /api/users?x=a~b&t=x');
    } finally {
      h.close();
      await server.close();
    }
    for (const [method, body, type] of [
      ['POST', '[]', 'application/json'],
      ['FORM', '', 'application/x-www-form-urlencoded'],
    ] as const) {
      const s = await loginServer(() => ({ body: '{}' }));
      const hh = harness({
        baseUrl: `${s.url}/`,
        authentication: { type: 'login', loginRequest: { endpoint: 'login', method, headers: { 'Content-Type': 'text/plain' } } },
      });
      try {
        await hh.send({ endpoint: 'x' });
        assert.equal(line(s.requests[0]!), 'POST /login');
        assert.equal(s.requests[0]!.body, body);
        assert.equal(header(s.requests[0]!, 'content-type'), type);
      } finally {
        hh.close();
        await s.close();
      }
    }
  });

  it('POST login body: evaluated params, slashes and unicode escaped, floats with 17 digits', async () => {
    const server = await loginServer(() => ({ body: '{}' }));
    const h = harness({
      baseUrl: `${server.url}/`,
      attributes: { '#pw': 'p/é' },
      authentication: {
        type: 'login',
        loginRequest: {
          endpoint: 'login',
          method: 'POST',
          params: { pw: { attr: '#pw' }, ratio: 0.1, nested: { f: { function: 'concat', args: ['a', 1] }, e: {} } },
        },
      },
    });
    try {
      await h.send({ endpoint: 'x' });
      assert.equal(server.requests[0]!.body, '{"pw":"p\\/\\u00e9","ratio":0.10000000000000001,"nested":{"f":"a1","e":[]}}');
      assert.equal(header(server.requests[0]!, 'content-length'), String(Buffer.byteLength(server.requests[0]!.body)));
    } finally {
      h.close();
      await server.close();
    }
  });

  it('login request headers: functions with attr; auth headers override job headers', async () => {
    const server = await loginServer(() => ({ body: '{"tok":"T"}' }));
    const h = harness({
      baseUrl: `${server.url}/`,
      attributes: { id: 'cid', '#secret': 'sec' },
      clientHeaders: { 'X-Client': 'c', 'x-token': 'client' },
      authentication: {
        type: 'login',
        loginRequest: {
          endpoint: 'token',
          method: 'FORM',
          params: { grant_type: 'client_credentials' },
          headers: {
            Accept: 'application/json',
            Authorization: {
              function: 'concat',
              args: [
                'Basic ',
                { function: 'base64_encode', args: [{ function: 'concat', args: [{ attr: 'id' }, ':', { attr: '#secret' }] }] },
              ],
            },
          },
        },
        apiRequest: { headers: { 'X-Token': { response: 'tok' } } },
      },
    });
    try {
      await h.send({ endpoint: 'x', headers: { 'x-TOKEN': 'job' } });
      const [login, api] = server.requests;
      assert.equal(header(login!, 'authorization'), 'Basic ' + Buffer.from('cid:sec').toString('base64'));
      assert.equal(header(login!, 'x-client'), 'c');
      assert.equal(header(login!, 'x-token'), 'client');
      assert.equal(login!.body, 'grant_type=client_credentials');
      assert.equal(header(api!, 'x-token'), 'T');
      assert.ok(api!.rawHeaders.includes('X-Token'));
      const debug = h.lines.find((l) => l.includes('POST /token HTTP/1.1'))!;
      assert.ok(debug.includes('Accept: application/json') && debug.includes('Authorization: [hidden]'), debug);
    } finally {
      h.close();
      await server.close();
    }
  });
});

describe('login: when it happens (expires, injected clock)', () => {
  const clock = { ms: 0 };
  /** `loginBody`: text with `$N` (login number) and `$T+n` (whole seconds of the clock at login, plus n). */
  async function scenario(expires: unknown, loginBody: string, steps: number[], authExtra: Record<string, unknown> = {}) {
    const server = await loginServer((_r, n) => ({
      body: loginBody.replace('$N', String(n)).replace(/\$T\+(\d+)/g, (_m, d: string) => String(Math.floor(clock.ms / 1000) + Number(d))),
    }));
    const h = harness({
      baseUrl: `${server.url}/`,
      clock,
      authentication: {
        type: 'login',
        loginRequest: { endpoint: 'login' },
        apiRequest: { query: { t: { response: 't' } } },
        ...(expires === undefined ? {} : { expires }),
        ...authExtra,
      },
    });
    clock.ms = 1_600_000_000_000;
    try {
      for (const advance of steps) {
        clock.ms += advance;
        await h.send({ endpoint: 'data' });
      }
      return server.requests.map(line);
    } finally {
      h.close();
      await server.close();
    }
  }

  it('no expires: one login, lazily before the first request', async () => {
    assert.deepEqual(await scenario(undefined, '{"t":"$N"}', [0, 100000000]), ['GET /login', 'GET /data?t=0', 'GET /data?t=0']);
  });

  it('"-1" and 0 log in before every request (082)', async () => {
    const every = ['GET /login', 'GET /data?t=0', 'GET /login', 'GET /data?t=1'];
    for (const expires of ['-1', 0, '0', 0.0, ' 0']) {
      assert.deepEqual(await scenario(expires, '{"t":"$N"}', [0, 0]), every, JSON.stringify(expires));
    }
  });

  it('numeric expires: strictly after now + N whole seconds', async () => {
    assert.deepEqual(await scenario(3600, '{"t":"$N"}', [0, 3600000, 1000]), [
      'GET /login',
      'GET /data?t=0',
      'GET /data?t=0',
      'GET /login',
      'GET /data?t=1',
    ]);
    assert.deepEqual(await scenario('10', '{"t":"$N"}', [0, 10999, 1]), [
      'GET /login',
      'GET /data?t=0',
      'GET /data?t=0',
      'GET /login',
      'GET /data?t=1',
    ]);
  });

  it('non-numeric scalars that passed validation never expire (true, " 5 ")', async () => {
    for (const expires of [true, ' 5 ', false, '']) {
      assert.deepEqual(
        await scenario(expires, '{"t":"$N"}', [0, 100000]),
        ['GET /login', 'GET /data?t=0', 'GET /data?t=0'],
        JSON.stringify(expires),
      );
    }
  });

  it('object form: integer timestamp, relative seconds, date strings, missing path', async () => {
    const t0 = 1_600_000_000;
    // absolute integer timestamp
    assert.deepEqual(await scenario({ response: 'exp' }, '{"t":"$N","exp":$T+5}', [0, 5000, 1000]), [
      'GET /login',
      'GET /data?t=0',
      'GET /data?t=0',
      'GET /login',
      'GET /data?t=1',
    ]);
    // relative
    assert.deepEqual(await scenario({ response: 'auth.ttl', relative: true }, '{"t":"$N","auth":{"ttl":60}}', [0, 60000, 1000]), [
      'GET /login',
      'GET /data?t=0',
      'GET /data?t=0',
      'GET /login',
      'GET /data?t=1',
    ]);
    // "-0 second" (083): expiry = now, re-login once the second changes
    assert.deepEqual(await scenario({ response: 'e' }, '{"t":"$N","e":"-0 second"}', [0, 200, 1000]), [
      'GET /login',
      'GET /data?t=0',
      'GET /data?t=0',
      'GET /login',
      'GET /data?t=1',
    ]);
    // a UTC date string (the second login gets the same date, now in the past)
    const date = new Date((t0 + 30) * 1000).toISOString().replace('T', ' ').slice(0, 19);
    assert.deepEqual(await scenario({ response: 'e' }, `{"t":"$N","e":"${date}"}`, [0, 30000]), [
      'GET /login',
      'GET /data?t=0',
      'GET /data?t=0',
    ]);
    await assert.rejects(
      scenario({ response: 'e' }, `{"t":"$N","e":"${date}"}`, [0, 31000]),
      /expiry time before current time: '2020-09-13 12:27:10'/,
    );
    // missing or null: never expires
    assert.deepEqual(await scenario({ response: 'nope' }, '{"t":"$N","nope":null}', [0, 1e9]), [
      'GET /login',
      'GET /data?t=0',
      'GET /data?t=0',
    ]);
  });

  it('object form: expiry before now is a user error (numeric strings go through strtotime)', async () => {
    for (const [body, shown] of [
      ['{"t":"x","e":1000}', '1000'],
      ['{"t":"x","e":"1700000000"}', '1700000000'],
      ['{"t":"x","e":"garbage"}', 'garbage'],
      ['{"t":"x","e":"-1 day"}', '-1 day'],
    ]) {
      await assert.rejects(scenario({ response: 'e' }, body!, [0]), (e: Error) => {
        assert.ok(e instanceof UserError, String(e));
        // The reference's message, then the fix (the value is not relative here).
        assert.equal(
          e.message,
          `Login authentication returned expiry time before current time: '${shown}' It is read as a Unix timestamp or a date; if it counts seconds from the login, set "relative": true.`,
        );
        return true;
      });
    }
  });

  it('retries of the API request re-run the expiry check; the login itself is never authenticated', async () => {
    let dataCalls = 0;
    const server = await startServer((r) => {
      if (r.target.startsWith('/login')) return { body: '{"t":"tok"}' };
      return dataCalls++ === 0 ? { status: 503 } : {};
    });
    const h = harness({
      baseUrl: `${server.url}/`,
      authentication: {
        type: 'login',
        loginRequest: { endpoint: 'login' },
        apiRequest: { query: { t: { response: 't' } } },
        expires: '-1',
      },
    });
    try {
      await h.send({ endpoint: 'data' });
      assert.deepEqual(server.requests.map(line), ['GET /login', 'GET /data?t=tok', 'GET /login', 'GET /data?t=tok']);
    } finally {
      h.close();
      await server.close();
    }
  });
});

describe('login: responses and errors', () => {
  async function loginWith(reply: Reply, format?: string) {
    const server = await loginServer(() => reply);
    const h = harness({
      baseUrl: `${server.url}/`,
      authentication: {
        type: 'login',
        ...(format ? { format } : {}),
        loginRequest: { endpoint: 'login' },
        apiRequest: { query: { v: { response: 'data' } } },
      },
    });
    try {
      await h.send({ endpoint: 'x' });
      return server.requests.map(line);
    } finally {
      h.close();
      await server.close();
    }
  }

  it('JSON scalars are wrapped as {data}', async () => {
    assert.deepEqual(await loginWith({ body: '"tok"' }), ['GET /login', 'GET /x?v=tok']);
    assert.deepEqual(await loginWith({ body: '12.50' }), ['GET /login', 'GET /x?v=12.5']);
    assert.deepEqual(await loginWith({ body: 'true' }), ['GET /login', 'GET /x?v=1']);
  });

  it('arrays, null, invalid JSON and HTTP errors fail', async () => {
    const cases: [Reply, string][] = [
      [{ body: '[1]' }, 'The response to the login request should be an object or a scalar value, given "array".'],
      [{ body: 'null' }, 'The response to the login request should be an object or a scalar value, given "NULL".'],
      [{ body: '' }, 'Invalid JSON response from API: JSON decode error: Syntax error, malformed JSON'],
      [{ body: '{"a":' }, 'Invalid JSON response from API: JSON decode error: Syntax error, malformed JSON'],
    ];
    for (const [reply, message] of cases) {
      await assert.rejects(loginWith(reply), (e: Error) => {
        assert.ok(e instanceof UserError);
        assert.equal(e.message, message);
        return true;
      });
    }
    await assert.rejects(loginWith({ status: 401, body: '{"error":"denied"}' }, 'text'), (e: Error) => {
      assert.ok(e instanceof UserError);
      assert.match(
        e.message,
        /^The API request failed: \[401\] Client error: `GET http:\/\/127\.0\.0\.1:\d+\/login` resulted in a `401 Unauthorized` response/,
      );
      return true;
    });
  });

  it('constructor validations in order (02 §6.2)', () => {
    const cases: [unknown, string][] = [
      [{ type: 'login', format: 'xml' }, "'format' must be either 'json' or 'text'."],
      [{ type: 'login', format: 'JSON', loginRequest: { endpoint: 'x' } }, "'format' must be either 'json' or 'text'."],
      [{ type: 'login' }, "'loginRequest' is not configured for Login authentication"],
      [{ type: 'login', loginRequest: { endpoint: '0' } }, 'Request endpoint must be set for the Login authentication method.'],
    ];
    const expiresMessage =
      "The 'expires' attribute must be either an integer or an array with 'response' key containing a path in the response";
    for (const bad of ['never', '1e3', '05', 3.5, { relative: true }, { response: '' }, ['a'], '99999999999999999999']) {
      cases.push([{ type: 'login', loginRequest: { endpoint: 'x' }, expires: bad }, expiresMessage]);
    }
    for (const [authentication, message] of cases) {
      const e = setupError({ authentication });
      assert.ok(e instanceof UserError, JSON.stringify(authentication));
      assert.equal(e.message, message, JSON.stringify(authentication));
    }
    for (const good of ['3600', '-1', ' 5 ', '+5', 3.0, true, 0, '0', '', false, { response: 'a.b' }, -7]) {
      assert.equal(
        setupError({ authentication: { type: 'login', loginRequest: { endpoint: 'x' }, expires: good } }),
        undefined,
        JSON.stringify(good),
      );
    }
    for (const format of ['', null, 'json', 'text']) {
      assert.equal(setupError({ authentication: { type: 'login', format, loginRequest: { endpoint: 'x' } } }), undefined);
    }
  });

  it('errors found while making the first request', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ endpoint: 5 }, 'The "endpoint" property must be specified in request as a string.'],
      [{ endpoint: 'login', method: 'PUT' }, 'The "method" property must be on of "GET", "POST", "FORM".'],
      [{ endpoint: 'login', params: 'abc' }, `Expected 'object' type, given 'string' type, value '"abc"'.`],
      [{ endpoint: 'login', headers: 12 }, `Expected 'object' type, given 'integer' type, value '12'.`],
      [{ endpoint: 'login', headers: { X: { not: 'a function' } } }, 'Invalid configuration: invalid type "object" in headers at path: X'],
      [
        { endpoint: 'login', params: { a: { attr: 'nope' } } },
        "User script error: Error evaluating user function - attr 'nope' not found!",
      ],
    ];
    for (const [loginRequest, message] of cases) {
      const server = await startServer();
      const h = harness({ baseUrl: `${server.url}/`, authentication: { type: 'login', loginRequest } });
      try {
        await assert.rejects(h.send({ endpoint: 'x' }), (e: Error) => {
          assert.ok(e instanceof UserError, String(e));
          assert.equal(e.message, message);
          return true;
        });
        assert.equal(server.requests.length, 0);
      } finally {
        h.close();
        await server.close();
      }
    }
  });

  it('a fresh authenticator (new iteration) logs in again', async () => {
    const server = await loginServer(() => ({ body: '{"t":"x"}' }));
    try {
      for (let i = 0; i < 2; i++) {
        const h = harness({ baseUrl: `${server.url}/`, authentication: { type: 'login', loginRequest: { endpoint: 'login' } } });
        await h.send({ endpoint: 'x' });
        h.close();
      }
      assert.deepEqual(server.requests.map(line), ['GET /login', 'GET /x', 'GET /login', 'GET /x']);
    } finally {
      await server.close();
    }
  });
});
