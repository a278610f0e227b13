/**
 * Hostile API responses (spec 01 §1.2, §3.10, §3.12, §3.13; 03 §3; 04): each has its defined
 * outcome — data as specified, or exit 1 with the specified message — and never a stack trace,
 * an exit 2 that is not an application error, a hang, a file outside out/tables or an
 * unbounded log line. Responses of 100 MB and more: huge-responses.test.ts (a file of their own,
 * so that the runner runs them beside these).
 */
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { assertFailed, cleanup, readTables, sendJson, strip } from './helpers.ts';
import { bounded, type Case, closeServers, deep, MB, raw, runCase, SYNTAX, table } from './hostileCase.ts';

after(closeServers);

const CASES: Case[] = [
  // Not JSON (01 §3.13).
  {
    name: 'invalid JSON',
    handler: raw('{"data": [1, 2'),
    code: 1,
    message: SYNTAX,
    check: (r) => assert.match(strip(r.lines.at(-1)), /\{"json":"\{\\"data\\": \[1, 2","errDetail":"Syntax error"\} \[\]$/),
  },
  {
    name: 'HTML error page with status 200',
    handler: raw('<!DOCTYPE html><html><body><h1>Oops</h1></body></html>', 200, { 'Content-Type': 'text/html' }),
    code: 1,
    message: SYNTAX,
  },
  {
    name: 'empty body with status 200',
    handler: raw(''),
    code: 1,
    message: SYNTAX,
    check: (r) => assert.ok(r.lines.at(-1)!.includes('{"json":"","errDetail":"Syntax error"}')),
  },
  { name: '204 No Content', handler: (res) => res.writeHead(204).end(), code: 1, message: SYNTAX },
  { name: 'UTF-8 BOM before the JSON', handler: raw('\uFEFF[{"id":1}]'), code: 1, message: SYNTAX },
  { name: 'NaN and Infinity', handler: raw('[{"id":NaN,"x":Infinity}]'), code: 1, message: SYNTAX },
  { name: 'two documents', handler: raw('[{"id":1}] [{"id":2}]'), code: 1, message: SYNTAX },
  {
    name: 'raw NUL byte inside a string',
    handler: raw('[{"id":"a\u0000b"}]'),
    code: 1,
    message: 'Invalid JSON response from API: JSON decode error: Unexpected control character found',
  },
  {
    name: 'NUL byte after the document',
    handler: raw('[{"id":1}]\u0000'),
    code: 1,
    message: 'Invalid JSON response from API: JSON decode error: Unexpected control character found',
  },
  {
    name: 'lone UTF-16 surrogate escape',
    handler: raw('[{"id":"\\ud800"}]'),
    code: 1,
    message: 'Invalid JSON response from API: JSON decode error: Malformed UTF-16 characters, possibly incorrectly encoded',
  },
  {
    name: 'nesting 10,000 levels deep',
    handler: raw(deep(10_000)),
    code: 1,
    message: 'Invalid JSON response from API: JSON decode error: Maximum stack depth exceeded',
    check: bounded,
  },
  {
    name: 'arrays nested past 512 levels inside a record',
    handler: raw(`[{"id":1,"a":${deep(511)}}]`),
    code: 1,
    message: 'Invalid JSON response from API: JSON decode error: Maximum stack depth exceeded',
  },
  { name: 'top-level string', handler: raw('"hello"'), code: 1, message: 'Unknown response from API.' },
  { name: 'top-level number', handler: raw('42'), code: 1, message: 'Unknown response from API.' },
  // Valid but nasty JSON: defined data.
  {
    name: 'invalid UTF-8 bytes are dropped',
    handler: raw(Buffer.concat([Buffer.from('[{"id":1,"n":"a'), Buffer.from([0xff, 0xfe, 0xc3]), Buffer.from('b"}]')])),
    code: 0,
    check: (r) => assert.equal(table(r), '"id","n"\n"1","ab"\n'),
  },
  {
    name: 'escaped NUL inside a string',
    handler: raw('[{"id":"a\\u0000b"}]'),
    code: 0,
    check: (r) => assert.equal(table(r), '"id"\n"a\u0000b"\n'),
  },
  {
    name: 'integers beyond 64 bits',
    handler: raw('[{"big":123456789012345678901234567890,"max":9223372036854775807,"under":-9223372036854775809,"inf":1e400}]'),
    code: 0,
    check: (r) =>
      assert.equal(table(r), '"big","max","under","inf"\n"1.2345678901235E+29","9223372036854775807","-9.2233720368548E+18","INF"\n'),
  },
  {
    name: 'duplicate keys: the last one wins',
    handler: raw('[{"id":1,"id":2,"a":"x","a":"y"}]'),
    code: 0,
    check: (r) => assert.equal(table(r), '"id","a"\n"2","y"\n'),
  },
  {
    name: 'arrays nested 300 levels deep in a record',
    handler: raw(`[{"id":1,"a":${deep(300)}}]`),
    code: 0,
    check: (r) => assert.ok(table(r).startsWith('"id","a"\n"1",')),
  },
  {
    name: 'objects nested 200 levels deep in a record',
    handler: raw(`[{"id":1,"a":${'{"x":'.repeat(200)}1${'}'.repeat(200)}}]`),
    code: 0,
    check: (r) => assert.match(table(r), /^"id","x_x_x[^\n]*"\n"1","1"\n$/),
  },
  {
    name: 'a 20 MB string',
    handler: raw(`[{"id":1,"s":"${'x'.repeat(20 * MB)}"}]`),
    code: 0,
    check: (r) => assert.equal(table(r).length, '"id","s"\n"1",""\n'.length + 20 * MB),
  },
  {
    name: '5,000 keys in one record',
    handler: raw(JSON.stringify([Object.fromEntries(Array.from({ length: 5000 }, (_, i) => [`k${i}`, i]))])),
    code: 0,
    check: (r) => assert.equal(table(r).split('\n')[0]!.split(',').length, 5000),
  },
  {
    name: '__proto__ and constructor keys do not pollute prototypes',
    handler: raw('[{"__proto__":{"polluted":"yes"},"constructor":{"prototype":{"polluted":"yes"}},"id":1}]'),
    code: 0,
    check: (r) => {
      assert.equal(({} as Record<string, unknown>)['polluted'], undefined);
      assert.equal(table(r), '"proto_polluted","constructor_prototype_polluted","id"\n"yes","yes","1"\n');
    },
  },
  {
    name: 'keys that look like paths stay inside out/tables',
    handler: raw('[{"id":1,"../../../evil":[{"a":1}],"a/b\\\\c":[{"a":2}]}]'),
    code: 0,
    check: (r) =>
      assert.deepEqual(Object.keys(readTables(r.dir)), [
        'b.users',
        'b.users.manifest',
        'b.users_a_b_c',
        'b.users_a_b_c.manifest',
        'b.users_evil',
        'b.users_evil.manifest',
      ]),
  },
  // Transport-level hostility.
  {
    name: 'Content-Encoding gzip over a body that is not gzip',
    handler: raw('definitely not gzip', 200, { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' }),
    code: 1,
    message: 'CURL error 61: Error while processing content unencoding: incorrect header check',
  },
  {
    name: 'a 200 KB response header',
    handler: (res) => {
      res.writeHead(200, { 'Content-Type': 'application/json', 'X-Huge': 'h'.repeat(200_000) });
      res.end('[]');
    },
    code: 1,
    message: /^CURL error \d+: /,
  },
  {
    name: 'a status line that is not HTTP',
    handler: (res) => res.socket!.end('SSH-2.0-OpenSSH_9.6\r\n\r\n'),
    code: 1,
    message: /^CURL error \d+: /,
  },
  {
    name: 'a body dripping slower than requestTimeout',
    // The request is meant to time out: a short timeout only shortens the wait.
    api: { http: { requestTimeout: 0.3 } },
    handler: (res, s) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.write('[{"id":1');
      const drip = (): void =>
        s.later(100, () => {
          if (!res.destroyed) {
            res.write(' ');
            drip();
          }
        });
      drip();
    },
    code: 1,
    message: /^CURL error 28: Operation timed out after \d+ milliseconds with \d+ bytes received/,
    check: (r) => assert.ok(r.ms < 5_000, `${r.ms} ms`),
  },
  // Redirects and next-page links (01 §3.10, 03 §5.3.4).
  {
    name: 'a redirect loop',
    handler: (res) => res.writeHead(302, { Location: '/api/users' }).end(),
    code: 1,
    message: 'Will not follow more than 5 redirects',
    check: (_r, s) => assert.equal(s.requests.length, 6),
  },
  {
    name: 'a redirect to file://',
    handler: (res) => res.writeHead(301, { Location: 'file:///etc/passwd' }).end(),
    code: 1,
    message:
      'The API request failed: [301] Redirect URI, file:///etc/passwd, does not use one of the allowed redirect protocols: http, https',
  },
  {
    name: 'a next-page link to file:// (not sent, not retried)',
    api: { pagination: { method: 'response.url', urlKey: 'next' } },
    dataField: 'data',
    handler: (res) => sendJson(res, 200, { data: [{ id: 1 }], next: 'file:///etc/passwd' }),
    code: 1,
    message: 'CURL error 1: Protocol "file" not supported or disabled in libcurl',
    check: (_r, s) => assert.equal(s.requests.length, 1),
  },
  {
    name: 'a next-page link to gopher:// is not sent as http',
    api: { pagination: { method: 'response.url', urlKey: 'next' } },
    dataField: 'data',
    handler: (res, s) => sendJson(res, 200, { data: [{ id: 1 }], next: `gopher://127.0.0.1:${s.port}/x` }),
    code: 1,
    message: 'CURL error 1: Protocol "gopher" not supported or disabled in libcurl',
    check: (_r, s) => assert.equal(s.requests.length, 1),
  },
  {
    name: 'a next-page link that is an object',
    api: { pagination: { method: 'response.url', urlKey: 'next' } },
    dataField: 'data',
    handler: (res) => sendJson(res, 200, { data: [{ id: 1 }], next: { href: '/x' } }),
    code: 1,
    message: 'The "endpoint" property must be specified in request as a string.',
  },
  {
    name: 'a next-page link with port 99999: application error, as the reference',
    api: { pagination: { method: 'response.url', urlKey: 'next' } },
    dataField: 'data',
    handler: (res) => sendJson(res, 200, { data: [{ id: 1 }], next: 'http://127.0.0.1:99999/x' }),
    code: 2,
    message: 'Unable to parse URI: http://127.0.0.1:99999/x',
  },
  // Error bodies.
  {
    name: 'a 5 MB text error body: 120-byte summary',
    handler: raw('E'.repeat(5 * MB), 400, { 'Content-Type': 'text/plain' }),
    code: 1,
    message:
      /^The API request failed: \[400\] Client error: `GET \S+` resulted in a `400 Bad Request` response: E{120} \(truncated\.\.\.\) {2}\{"body":"","attempts":1\} \[\]$/,
    check: bounded,
  },
  {
    name: 'a 2 MB JSON error body: bounded context',
    handler: raw(JSON.stringify({ error: 'x'.repeat(2 * MB) }), 500),
    code: 1,
    message:
      /^The API request failed: \[500\] Server error: .* \(truncated\.\.\.\) {2}\{"body":"\{\\"error\\":\\"x+ \(truncated, 2097164 bytes in total\)","attempts":2\} \[\]$/,
    check: bounded,
  },
];

test(`${CASES.length} hostile responses get their defined outcome`, async () => {
  assert.ok(CASES.length >= 20);
  for (const c of CASES) {
    const { r, s } = await runCase(c);
    if (c.code === 0) {
      assert.equal(r.code, 0, `${c.name}: ${r.lines.slice(-2).map(strip).join('\n')}`);
      assert.ok(strip(r.lines.at(-1)).startsWith('logger.INFO: Extractor finished successfully.'), c.name);
    } else {
      const line = assertFailed(r, c.code, c.name).replace(/^logger\.ERROR: /, '');
      if (typeof c.message === 'string')
        assert.ok(line.startsWith(c.message), `${c.name}:\n  got      ${line.slice(0, 300)}\n  expected ${c.message}`);
      else if (c.message) assert.match(line.slice(0, 100_000), c.message, c.name);
    }
    c.check?.(r, s);
    await s.close();
    cleanup(r);
  }
});
