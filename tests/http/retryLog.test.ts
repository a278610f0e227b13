/**
 * Retries are visible at the default level (issue 18): one WARNING per retry with the request,
 * the reason, attempt n of max and the wait; with debug, one line per response with its status,
 * size and time. Real servers on 127.0.0.1.
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { json, startServer, type TestServer } from '../helpers/httpServer.ts';
import { run } from '../helpers/dataDir.ts';

const servers: TestServer[] = [];
after(async () => {
  for (const s of servers) await s.close();
});

function config(baseUrl: string, extra: Record<string, unknown> = {}, apiExtra: Record<string, unknown> = {}) {
  return { parameters: { api: { baseUrl, ...apiExtra }, config: { outputBucket: 'b', jobs: [{ endpoint: 'users' }], ...extra } } };
}

const strip = (l: string): string => l.replace(/^\[[^\]]*\] /, '');

test('each retry of an HTTP error is one WARNING: method, URL, reason, attempt n of max, wait', async () => {
  const s = await startServer((_req, res, i) => (i < 2 ? json(res, 503, { error: 'busy' }) : json(res, 200, [{ id: 1 }])));
  servers.push(s);
  const r = await run(config(`${s.url}/v1/`, {}, { retryConfig: { maxRetries: 4 } }));
  assert.equal(r.code, 0, r.lines.join('\n'));
  const retries = r.lines.filter((l) => l.includes('logger.WARNING: Http request failed'));
  assert.deepEqual(
    retries.map((l) => strip(l).replace(/ \{.*$/, '')),
    [
      `logger.WARNING: Http request failed, retrying in 1.0 seconds [1x]. GET ${s.url}/v1/users: HTTP 503 Service Unavailable (attempt 1 of 5).`,
      `logger.WARNING: Http request failed, retrying in 2.0 seconds [2x]. GET ${s.url}/v1/users: HTTP 503 Service Unavailable (attempt 2 of 5).`,
    ],
  );
  // The reference's context is kept: status, body and URL.
  assert.ok(retries[0]!.includes(`{"http_code":503,"body":"{\\"error\\":\\"busy\\"}","url":"${s.url}/v1/users"}`), retries[0]);
});

test('a refused connection: a WARNING before every wait, naming the curl error', async () => {
  // A port that was free a moment ago: nothing listens there.
  const port = await new Promise<number>((resolve) => {
    const probe = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
  const r = await run(config(`http://127.0.0.1:${port}/`, {}, { retryConfig: { maxRetries: 3 } }));
  assert.equal(r.code, 1);
  const retries = r.lines.filter((l) => l.includes('logger.WARNING: Http request failed')).map(strip);
  assert.equal(retries.length, 3);
  retries.forEach((line, i) => {
    assert.ok(
      line.startsWith(
        `logger.WARNING: Http request failed, retrying in ${2 ** i}.0 seconds [${i + 1}x]. GET http://127.0.0.1:${port}/users: ` +
          `CURL error 7: Failed to connect to 127.0.0.1 port ${port}: Connection refused (attempt ${i + 1} of 4).`,
      ),
      line,
    );
  });
  assert.match(r.lines.at(-1)!, /logger\.ERROR: CURL error 7: .*after 4 attempts/);
});

test('secrets in the URL of a retried request are hidden in the WARNING', async () => {
  const s = await startServer((_req, res, i) => (i < 1 ? json(res, 500, {}) : json(res, 200, [{ id: 1 }])));
  servers.push(s);
  const r = await run({
    parameters: {
      api: { baseUrl: `${s.url}/`, authentication: { type: 'query', query: { apikey: { attr: '#key' } } } },
      config: { outputBucket: 'b', '#key': 'sup3r-s3cret-key', jobs: [{ endpoint: 'users' }] },
    },
  });
  assert.equal(r.code, 0, r.lines.join('\n'));
  assert.equal(s.requests[0]!.target, '/users?apikey=sup3r-s3cret-key');
  const retry = r.lines.find((l) => l.includes('Http request failed'))!;
  assert.ok(retry.includes('/users?apikey=[hidden]: HTTP 500 Internal Server Error (attempt 1 of 11)'), retry);
  assert.ok(!r.lines.some((l) => l.includes('sup3r-s3cret-key')));
});

test('debug: after each request line, the response status, size and time', async () => {
  const s = await startServer((_req, res) => json(res, 200, [{ id: 1 }, { id: 2 }]));
  servers.push(s);
  const r = await run(config(`${s.url}/`, { debug: true }));
  assert.equal(r.code, 0, r.lines.join('\n'));
  const i = r.lines.findIndex((l) => l.includes('logger.DEBUG: GET /users HTTP/1.1'));
  assert.ok(i >= 0);
  assert.match(
    strip(r.lines[i + 1]!),
    new RegExp(`^logger\\.DEBUG: Response 200 OK, 19 bytes in \\d+ ms \\(GET ${s.url}/users\\) \\[\\] \\[\\]$`),
  );
});

test('without debug, the body in a retry line is cut at 1 KiB; with debug it is kept', async () => {
  const page = `<html>${'maintenance '.repeat(500)}</html>`;
  for (const debug of [false, true]) {
    const s = await startServer((_req, res, i) => {
      if (i > 0) return json(res, 200, [{ id: 1 }]);
      res.writeHead(503, { 'Content-Type': 'text/html' });
      res.end(page);
    });
    servers.push(s);
    const r = await run(config(`${s.url}/`, { debug }));
    assert.equal(r.code, 0, r.lines.join('\n'));
    const retry = r.lines.find((l) => l.includes('Http request failed'))!;
    const body = JSON.parse(retry.slice(retry.indexOf(' {"http_code"') + 1, retry.lastIndexOf(' []'))).body as string;
    if (debug) assert.equal(body, page);
    else assert.equal(body, `${page.slice(0, 1024)} (truncated, ${page.length} bytes in total)`);
  }
});
