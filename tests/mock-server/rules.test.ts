/** Matching and reply rules of the replay mock server (conformance/README.md, "The mock server"). */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { headerMismatch, phpJsonString, phpLooseEquals, normalizeHeaders, requestText } from '../../src/mock-server/match.ts';
import { requestUri, rewriteMockServerUrls, startMockServer, type MockServerOptions } from '../../src/mock-server/server.ts';
import { loadSimulations } from '../../src/mock-server/simulations.ts';
import { SimulationError } from '../../src/errors/SimulationError.ts';
import { makeSimulations, removeSimulations, send, type ClientRequest, type ClientResponse } from './helpers.ts';

/** Starts a server on the given files, runs the requests, stops it; returns the responses and the server. */
async function withServer(
  files: Record<string, string | Buffer>,
  requests: ClientRequest[],
  options: Partial<MockServerOptions> = {},
): Promise<{ responses: ClientResponse[]; server: Awaited<ReturnType<typeof startMockServer>> }> {
  const dir = makeSimulations(files);
  const server = await startMockServer({ dir, ...options });
  try {
    const responses: ClientResponse[] = [];
    for (const r of requests) responses.push(await send(server.url, r));
    return { responses, server };
  } finally {
    await server.close();
    removeSimulations(dir);
  }
}

const text = (r: ClientResponse): string => r.body.toString('utf8');

describe('matching', () => {
  it('replays the .response bytes of a matching sample with application/json', async () => {
    const body = '[\r\n  {"id": 1}\r\n]  \n';
    const { responses, server } = await withServer({ 'ex/users.request': 'GET /ex/users?a=1', 'ex/users.response': body }, [
      { path: '/ex/users?a=1' },
    ]);
    const [r] = responses;
    assert.equal(r!.status, 200);
    assert.equal(r!.headers['content-type'], 'application/json');
    assert.equal(text(r!), body);
    assert.equal(server.requests.length, 1);
    assert.equal(server.requests[0]!.matched, 'ex/users');
    assert.equal(server.requests[0]!.target, '/ex/users?a=1');
    assert.equal(server.requests[0]!.status, 200);
  });

  it('compares URI and body byte for byte, trimming only the request text', async () => {
    const { responses } = await withServer(
      {
        'ex/post.request': 'POST /ex/post\r\n\r\n{"a":1}',
        'ex/post.response': 'ok',
        'ex/q.request': 'GET /ex/q?f%5B0%5D=1',
        'ex/q.response': 'q',
        'ex/nl.request': 'GET /ex/nl\n', // the file itself is not trimmed
        'ex/nl.response': 'nl',
      },
      [
        { method: 'POST', path: '/ex/post', body: '{"a":1}\r\n \n' },
        { method: 'POST', path: '/ex/post', body: '{"a": 1}' },
        { method: 'PUT', path: '/ex/post', body: '{"a":1}' },
        { path: '/ex/q?f%5B0%5D=1' },
        { path: '/ex/q?f[0]=1' },
        { path: '/ex/nl' },
      ],
    );
    assert.deepEqual(
      responses.map((r) => r.status),
      [200, 404, 404, 200, 404, 404],
    );
  });

  it('answers 404 with the PHP json_encode of the unknown request', async () => {
    const { responses, server } = await withServer({ 'ex/a.request': 'GET /a', 'ex/a.response': 'a' }, [
      { path: '/path/x?query=1&b=/c' },
      { method: 'POST', path: '/p', body: 'caf\u00e9 "x"\n' },
    ]);
    assert.equal(responses[0]!.status, 404);
    assert.equal(responses[0]!.headers['content-type'], 'text/html; charset=UTF-8');
    assert.equal(text(responses[0]!), '{"message":"Unknown request GET \\/path\\/x?query=1&b=\\/c"}');
    assert.equal(text(responses[1]!), '{"message":"Unknown request POST \\/p\\r\\n\\r\\ncaf\\u00e9 \\"x\\""}');
    assert.equal(server.requests[0]!.matched, null);
    assert.equal(server.requests[0]!.status, 404);
  });

  it('tries samples in byte order of their paths, first match wins; skips top-level and dot files', async () => {
    const files = {
      'a/x.request': 'GET /x',
      'a/x.requestHeaders': 'X-Any: *',
      'a/x.response': 'a/x',
      'a-b/x.request': 'GET /x', // '-' sorts before '/': tried first
      'a-b/x.response': 'a-b/x',
      'a/y2.request': 'GET /y',
      'a/y2.response': 'y2',
      'a/y10.request': 'GET /y',
      'a/y10.requestHeaders': 'X-Y: *',
      'a/y10.response': 'y10',
      'top.request': 'GET /top',
      'top.response': 'top',
      '.hidden/h.request': 'GET /hidden',
      '.hidden/h.response': 'hidden',
      'a/.dot.request': 'GET /dot',
      'a/.dot.response': 'dot',
      'deep/er/d.request': 'GET /deep',
      'deep/er/d.response': 'deep',
    };
    const requests: ClientRequest[] = [
      { path: '/x', headers: [['X-Any', '1']] },
      { path: '/y', headers: [['X-Y', '1']] },
      { path: '/top' },
      { path: '/hidden' },
      { path: '/dot' },
      { path: '/deep' },
    ];
    const { responses } = await withServer(files, requests);
    assert.deepEqual(
      responses.map((r) => `${r.status} ${r.status === 200 ? text(r) : ''}`),
      ['200 a-b/x', '200 y10', '404 ', '404 ', '404 ', '200 deep'],
    );
    // flat: a folder that directly contains samples
    const flat = await withServer(files, [{ path: '/top' }, { path: '/deep' }], { flat: true });
    assert.deepEqual(
      flat.responses.map((r) => text(r)),
      ['top', 'deep'],
    );
  });

  it('searches several folders in the order given', async () => {
    const one = makeSimulations({ 'x/a.request': 'GET /a', 'x/a.response': 'one', 'x/a.requestHeaders': 'X-A: *' });
    const two = makeSimulations({ 'x/a.request': 'GET /a', 'x/a.response': 'two', 'x/b.request': 'GET /b', 'x/b.response': 'b' });
    const server = await startMockServer({ dir: [one, two] });
    try {
      assert.equal(text(await send(server.url, { path: '/a', headers: [['X-A', '1']] })), 'one');
      assert.equal(text(await send(server.url, { path: '/a' })), 'two');
      assert.equal(text(await send(server.url, { path: '/b' })), 'b');
    } finally {
      await server.close();
      removeSimulations(one);
      removeSimulations(two);
    }
  });
});

describe('request headers', () => {
  const files = {
    'h/num.request': 'GET /num',
    'h/num.requestHeaders': 'X-Num: 1.0\r\n',
    'h/num.response': 'num',
    'h/star.request': 'GET /star',
    'h/star.requestHeaders': 'authorization: *',
    'h/star.response': 'star',
    'h/two.request': 'GET /two',
    'h/two.requestHeaders': 'X-Login: JohnDoe\r\nX-Password: TopSecret',
    'h/two.response': 'two',
    'h/multi.request': 'GET /multi',
    'h/multi.requestHeaders': 'X-Multi: a, b',
    'h/multi.response': 'multi',
    'h/under.request': 'GET /under',
    'h/under.requestHeaders': 'X_Under: 1',
    'h/under.response': 'under',
    'h/str.request': 'GET /str',
    'h/str.requestHeaders': 'X-Str: abc',
    'h/str.response': 'str',
  };
  const cases: Array<[string, ClientRequest, number]> = [
    ['loose == (1 vs 1.0)', { path: '/num', headers: [['X-Num', '1']] }, 200],
    ['loose == (1e0)', { path: '/num', headers: [['x-num', '1e0']] }, 200],
    ['numeric mismatch', { path: '/num', headers: [['X-Num', '2']] }, 404],
    ['missing header', { path: '/num' }, 404],
    ['* accepts any value', { path: '/star', headers: [['Authorization', 'AWS4-HMAC-SHA256 whatever']] }, 200],
    ['* needs the header', { path: '/star' }, 404],
    [
      'all lines required',
      {
        path: '/two',
        headers: [
          ['X-Login', 'JohnDoe'],
          ['X-PASSWORD', ' TopSecret '],
        ],
      },
      200,
    ],
    ['one line missing', { path: '/two', headers: [['X-Login', 'JohnDoe']] }, 404],
    [
      'repeated headers joined with ", "',
      {
        path: '/multi',
        headers: [
          ['X-Multi', 'a'],
          ['x-multi', 'b'],
        ],
      },
      200,
    ],
    ['names with _ are dropped', { path: '/under', headers: [['X_Under', '1']] }, 404],
    ['strings compare exactly', { path: '/str', headers: [['X-Str', 'ABC']] }, 404],
    ['strings compare exactly (match)', { path: '/str', headers: [['X-Str', 'abc']] }, 200],
  ];
  it('applies the .requestHeaders rules', async () => {
    const { responses } = await withServer(
      files,
      cases.map((c) => c[1]),
    );
    for (const [i, [name, , status]] of cases.entries()) assert.equal(responses[i]!.status, status, name);
  });

  it('normalizes headers like Apache + Symfony', () => {
    const h = normalizeHeaders(['X-A', ' 1 ', 'x-a', '2', 'X_B', '3', 'Proxy', 'p', 'Host', 'h']);
    assert.deepEqual(
      [...h],
      [
        ['x-a', '1, 2'],
        ['host', 'h'],
      ],
    );
  });

  it('PHP 7.4 loose == on strings', () => {
    assert.ok(phpLooseEquals('1.0', '1'));
    assert.ok(phpLooseEquals('1e1', '10'));
    assert.ok(phpLooseEquals('0', '0.0'));
    assert.ok(phpLooseEquals('+1', '1'));
    assert.ok(phpLooseEquals('.5', '0.5'));
    assert.ok(phpLooseEquals('9223372036854775808', '9223372036854775808.0'));
    assert.ok(!phpLooseEquals('9223372036854775808', '9223372036854775809'));
    assert.ok(!phpLooseEquals('abc', 'ABC'));
    assert.ok(!phpLooseEquals('1a', '1'));
    assert.ok(!phpLooseEquals('0x1A', '26'));
    assert.ok(!phpLooseEquals('', '0'));
    assert.ok(phpLooseEquals('abc', 'abc'));
  });

  it('reports the first unsatisfied header', () => {
    const dir = makeSimulations({ 'a/b.request': 'GET /', 'a/b.requestHeaders': 'X-A: 1\nX-B: 2' });
    const [s] = loadSimulations(dir);
    removeSimulations(dir);
    assert.equal(
      headerMismatch(
        s!,
        new Map([
          ['x-a', '1.0'],
          ['x-b', '2'],
        ]),
      ),
      null,
    );
    assert.match(headerMismatch(s!, new Map([['x-a', '1']]))!, /missing header X-B/);
  });
});

describe('method override and bodies', () => {
  it('uses X-HTTP-Method-Override on POST only; reads multipart POST bodies as empty', async () => {
    const { responses, server } = await withServer(
      {
        'm/put.request': 'PUT /m\r\n\r\n{"a":1}',
        'm/put.response': 'put',
        'm/form.request': 'POST /form',
        'm/form.response': 'form',
        'm/urlenc.request': 'POST /urlenc\r\n\r\na=1&b=2',
        'm/urlenc.response': 'urlenc',
      },
      [
        { method: 'POST', path: '/m', headers: [['X-HTTP-Method-Override', 'put']], body: '{"a":1}' },
        { method: 'GET', path: '/m', headers: [['X-HTTP-Method-Override', 'PUT']], body: '{"a":1}' },
        { method: 'POST', path: '/m', headers: [['X-HTTP-Method-Override', '0']], body: '{"a":1}' },
        {
          method: 'POST',
          path: '/form',
          headers: [['Content-Type', 'multipart/form-data; boundary=XX']],
          body: '--XX\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--XX--\r\n',
        },
        { method: 'POST', path: '/urlenc', headers: [['Content-Type', 'application/x-www-form-urlencoded']], body: 'a=1&b=2' },
      ],
    );
    assert.deepEqual(
      responses.map((r) => r.status),
      [200, 404, 404, 200, 200],
    );
    assert.equal(text(responses[0]!), 'put');
    assert.equal(server.requests[0]!.method, 'POST');
    assert.equal(server.requests[0]!.effectiveMethod, 'PUT');
    assert.equal(server.requests[0]!.body.toString(), '{"a":1}');
    assert.equal(text(responses[1]!), '{"message":"Unknown request GET \\/m\\r\\n\\r\\n{\\"a\\":1}"}');
  });

  it('builds the request text with PHP trim', () => {
    assert.equal(requestText('GET', '/a', Buffer.from('')).toString(), 'GET /a');
    assert.equal(requestText('POST', '/a', Buffer.from('x \t\r\n\0\x0B')).toString(), 'POST /a\r\n\r\nx');
    assert.equal(requestUri('http://127.0.0.1:8080/p?q=1'), '/p?q=1');
    assert.equal(requestUri('/p?q=1#frag'), '/p?q=1');
  });
});

describe('replies', () => {
  it('uses .responseCode and .responseHeaders; case-sensitive side-file names', async () => {
    const { responses } = await withServer(
      {
        'r/code.request': 'GET /code',
        'r/code.response': '{"error":1}',
        'r/code.responseCode': '429\n',
        'r/hdr.request': 'GET /hdr',
        'r/hdr.response': 'x',
        'r/hdr.responseHeaders': 'Retry-After: 5\r\nX-Foo: bar',
        'r/ct.request': 'GET /ct',
        'r/ct.response': '<a/>',
        'r/ct.responseHeaders': 'Content-Type: application/xml\nLink: <http://mock-server:80/next>; rel="next"',
        'r/lower.request': 'GET /lower',
        'r/lower.response': 'lower',
        'r/lower.responsecode': '202',
        'r/lower.responseheaders': 'X-Lower: 1',
        'r/lower.requestheaders': 'X-Required: 1',
      },
      [{ path: '/code' }, { path: '/hdr' }, { path: '/ct' }, { path: '/lower' }],
    );
    const [code, hdr, ct, lower] = responses as [ClientResponse, ClientResponse, ClientResponse, ClientResponse];
    assert.equal(code.status, 429);
    assert.equal(text(code), '{"error":1}');
    assert.equal(code.headers['content-type'], 'application/json');
    assert.equal(hdr.status, 200);
    assert.equal(hdr.headers['retry-after'], '5');
    assert.equal(hdr.headers['x-foo'], 'bar');
    assert.equal(hdr.headers['content-type'], 'text/html; charset=UTF-8');
    assert.equal(ct.headers['content-type'], 'application/xml');
    assert.match(String(ct.headers['link']), /^<http:\/\/127\.0\.0\.1:\d+\/next>; rel="next"$/);
    assert.equal(lower.status, 200);
    assert.equal(lower.headers['x-lower'], undefined);
    assert.equal(lower.headers['content-type'], 'application/json');
    assert.equal(text(lower), 'lower');
  });

  it('follows Symfony for odd status codes, text types and empty side files', async () => {
    const { responses } = await withServer(
      {
        'r/bad.request': 'GET /bad',
        'r/bad.response': 'x',
        'r/bad.responseCode': '999',
        'r/zero.request': 'GET /zero',
        'r/zero.response': 'z',
        'r/zero.responseCode': '0',
        'r/zero.responseHeaders': '',
        'r/none.request': 'GET /none',
        'r/none.response': 'gone',
        'r/none.responseCode': '204',
        'r/txt.request': 'GET /txt',
        'r/txt.response': 't',
        'r/txt.responseHeaders': 'Content-Type: text/plain\nX-Twice: 1\nX-Twice: 2\nBad Name: x',
      },
      [{ path: '/bad' }, { path: '/zero' }, { path: '/none' }, { path: '/txt' }],
    );
    const [bad, zero, none, txt] = responses as [ClientResponse, ClientResponse, ClientResponse, ClientResponse];
    assert.equal(bad.status, 500);
    assert.equal(text(bad), '{"message":"Error The HTTP status code \\"999\\" is not valid."}');
    assert.equal(zero.status, 200);
    assert.equal(zero.headers['content-type'], 'application/json');
    assert.equal(none.status, 204);
    assert.equal(none.body.length, 0);
    assert.equal(none.headers['content-type'], undefined);
    assert.equal(txt.headers['content-type'], 'text/plain; charset=UTF-8');
    assert.equal(txt.headers['x-twice'], '2');
  });

  it('keeps upstream\'s sample ids: "a/b-c" (sorted later) replaces "a-b/c" (same id a-b-c)', async () => {
    const { responses } = await withServer(
      {
        'a/b-c.request': 'GET /first',
        'a/b-c.response': 'first',
        'a-b/c.request': 'GET /second',
        'a-b/c.response': 'second',
      },
      [{ path: '/first' }, { path: '/second' }],
    );
    assert.deepEqual(
      responses.map((r) => r.status),
      [200, 404],
    );
  });

  it('rewrites http://mock-server[:80] (also JSON-escaped) to its own address', async () => {
    const body =
      '{"next":"http:\\/\\/mock-server\\/p2","a":"http://mock-server:80/a","b":"http://mock-server/b",' +
      '"keep":["http://mock-server-behind-proxy/x","http://mock-server:8080/y","https://mock-server/z"]}';
    const dir = makeSimulations({
      'w/a.request': 'GET /a',
      'w/a.response': body,
      'w/a.responseHeaders': 'Location: http://mock-server/loc\nContent-Type: application/json',
    });
    const server = await startMockServer({ dir });
    try {
      const r = await send(server.url, { path: '/a' });
      const own = server.url;
      assert.equal(
        text(r),
        `{"next":"${own.replaceAll('/', '\\/')}\\/p2","a":"${own}/a","b":"${own}/b",` +
          '"keep":["http://mock-server-behind-proxy/x","http://mock-server:8080/y","https://mock-server/z"]}',
      );
      assert.equal(r.headers['location'], `${own}/loc`);
    } finally {
      await server.close();
      removeSimulations(dir);
    }
    assert.equal(rewriteMockServerUrls('http://mock-server.example/x', 'http://h:1'), 'http://mock-server.example/x');
  });

  it('JSON-encodes like PHP', () => {
    assert.equal(phpJsonString(Buffer.from('a/b "c" \\ é 😀 \t\x01\x7f')), '"a\\/b \\"c\\" \\\\ \\u00e9 \\ud83d\\ude00 \\t\\u0001\x7f"');
    assert.equal(phpJsonString(Buffer.from([0xff])), null);
  });
});

describe('loading', () => {
  it('refuses duplicate samples (same request and same request headers)', async () => {
    const dup = makeSimulations({
      'a/x.request': 'GET /x',
      'a/x.response': '1',
      'b/x.request': 'GET /x',
      'b/x.response': '2',
      'b/x.responseCode': '500',
    });
    await assert.rejects(startMockServer({ dir: dup }), (err: Error) => {
      assert.ok(err instanceof SimulationError);
      assert.match(err.message, /duplicate samples/);
      assert.match(err.message, /a\/x\.request and .*b\/x\.request/);
      return true;
    });
    removeSimulations(dup);
    const dupHeaders = makeSimulations({
      'a/x.request': 'GET /x',
      'a/x.requestHeaders': 'X-A: 1',
      'b/x.request': 'GET /x',
      'b/x.requestHeaders': 'X-A: 1',
    });
    assert.throws(() => loadSimulations(dupHeaders), SimulationError);
    removeSimulations(dupHeaders);
    // same request, different headers: allowed
    const ok = makeSimulations({
      'a/x.request': 'GET /x',
      'a/x.requestHeaders': 'X-A: 1',
      'b/x.request': 'GET /x',
      'b/x.requestHeaders': 'X-A: 2',
    });
    assert.equal(loadSimulations(ok).length, 2);
    removeSimulations(ok);
  });

  it('reads files once at start-up', async () => {
    const dir = makeSimulations({ 'a/x.request': 'GET /x', 'a/x.response': 'before' });
    const server = await startMockServer({ dir });
    try {
      removeSimulations(dir);
      assert.equal(text(await send(server.url, { path: '/x' })), 'before');
    } finally {
      await server.close();
    }
  });

  it('fails clearly on a missing folder', async () => {
    await assert.rejects(startMockServer({ dir: '/nonexistent/simulations' }), /does not exist/);
  });
});
