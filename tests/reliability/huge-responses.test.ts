/**
 * Hostile responses of 100 MB and more (hostile-responses.test.ts has the small ones): streamed,
 * never held whole; a syntax error keeps its ERROR line small; a gzip bomb is refused, not a crash.
 */
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { assertFailed, cleanup, streamBody, strip } from './helpers.ts';
import { bounded, closeServers, gzipBomb, MB, raw, runCase, SYNTAX, table } from './hostileCase.ts';

after(closeServers);

/** 100 MB over loopback can take seconds on a loaded machine: the 1 s timeout of the small cases is not what these test. */
const SLOW_BODY_API = { retryConfig: { maxRetries: 1 }, http: { requestTimeout: 120 } };

test('a 100 MB body of junk, streamed: exit 1, Syntax error, the ERROR line stays small', async () => {
  const { r } = await runCase({
    name: '100 MB junk',
    code: 1,
    api: SLOW_BODY_API,
    handler: (res) => streamBody(res, 200, 100 * MB, Buffer.alloc(MB, 'x')),
  });
  const line = assertFailed(r, 1, '100 MB junk');
  assert.ok(line.startsWith(`logger.ERROR: ${SYNTAX} {"json":"xxxx`), line.slice(0, 200));
  assert.ok(line.includes(` (truncated, ${100 * MB} bytes in total)","errDetail":"Syntax error"}`));
  bounded(r);
  cleanup(r);
});

test('a valid 100 MB body (whitespace-padded), streamed: the same rows as the small body', async () => {
  const { r } = await runCase({
    name: '100 MB valid',
    code: 0,
    api: SLOW_BODY_API,
    handler: (res) => streamBody(res, 200, 100 * MB, Buffer.alloc(MB, ' '), '[{"id":1,"name":"A"},', '{"id":2,"name":"B"}]'),
  });
  assert.equal(r.code, 0, r.lines.map(strip).join('\n'));
  assert.equal(table(r), '"id","name"\n"1","A"\n"2","B"\n');
  cleanup(r);
});

test('a gzip bomb (2 MB inflating to 520 MiB, past the longest string Node can hold): exit 1, not a crash', async () => {
  const bomb = await gzipBomb(520 * MB);
  const { r } = await runCase({
    name: 'gzip bomb',
    code: 1,
    handler: raw(bomb, 200, { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' }),
  });
  const line = assertFailed(r, 1, 'gzip bomb');
  assert.match(
    line,
    /^logger\.ERROR: CURL error 63: Maximum file size exceeded: the response is larger than \d+ bytes \(GET http:\/\/127\.0\.0\.1:\d+\/api\/users, after 1 attempt\) \[\] \[\]$/,
  );
  cleanup(r);
});
