/**
 * The client's retry deadline and attempt bound (src/http/client.ts, retry.ts): a retry whose
 * wait would end after the policy's deadline is not made, and the last response or failure is
 * final, as when the retries run out; without a deadline (an extraction) nothing changes. The
 * waits run on a virtual clock (the client's `sleep` and `nowMs`), the requests on real sockets.
 */
import assert from 'node:assert/strict';
import net from 'node:net';
import { after, test } from 'node:test';
import { CurlError } from '../../src/errors/CurlError.ts';
import { HttpClient } from '../../src/http/client.ts';
import { HeaderList } from '../../src/http/headers.ts';
import type { PreparedRequest } from '../../src/http/prepared.ts';
import { DEFAULT_RETRY, type RetryPolicy } from '../../src/http/retry.ts';
import { Transport } from '../../src/http/transport.ts';
import { createLogger } from '../../src/logging/logger.ts';
import { startServer } from '../helpers/httpServer.ts';

const transport = new Transport({ connectTimeoutMs: 5000, requestTimeoutMs: 5000 });
after(() => transport.close());

function get(port: number): PreparedRequest {
  const headers = new HeaderList();
  headers.append('Host', [`127.0.0.1:${port}`]);
  return {
    method: 'GET',
    url: { scheme: 'http', userinfo: undefined, host: '127.0.0.1', port, path: '/busy', query: undefined },
    headers,
    body: undefined,
    authHeaders: new Set(),
  };
}

/** A client whose waits move a virtual clock instead of sleeping; `lines` collects its log. */
function virtualClient(retry: RetryPolicy, start: number) {
  let now = start;
  const lines: string[] = [];
  const waits: number[] = [];
  const client = new HttpClient({
    transport,
    retry,
    logger: createLogger({ write: (line) => lines.push(line) }),
    nowMs: () => now,
    sleep: async (ms) => {
      waits.push(ms);
      now += ms;
    },
  });
  return { client, lines, waits };
}

async function alwaysBusy() {
  const server = await startServer((_req, res) => {
    res.writeHead(503, { 'Retry-After': '1', 'Content-Type': 'text/plain' });
    res.end('busy');
  });
  after(() => server.close());
  return server;
}

/** A port nothing listens on. */
async function refusedPort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as net.AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

test('a retry whose wait would end after the deadline is not made: the last response is returned', async () => {
  const server = await alwaysBusy();
  const start = Date.now();
  const deadline = { atMs: start + 2500, reason: 'the test budget' };
  const { client, lines, waits } = virtualClient({ ...DEFAULT_RETRY, deadline }, start);
  const response = await client.send(get(server.port));
  assert.equal(response.status, 503);
  assert.equal(response.body.toString(), 'busy');
  // Retry-After: 1 → attempts at 0, 1 and 2 s; a third wait would end at 3 s, after 2.5 s.
  assert.equal(server.requests.length, 3);
  assert.equal(response.attempts, 3);
  assert.deepEqual(waits, [1000, 1000]);
  assert.match(
    lines.at(-1)!,
    /Retries stopped after 3 attempts of GET http:\/\/127\.0\.0\.1:\d+\/busy: the next wait \(1\.0 s\) would end after the test budget; the last response stands\./,
  );
});

test('a wait longer than the whole budget stops at once, before the six-hour check', async () => {
  const server = await startServer((_req, res) => {
    res.writeHead(503, { 'Retry-After': String(7 * 86400) });
    res.end();
  });
  after(() => server.close());
  const start = Date.now();
  const { client } = virtualClient({ ...DEFAULT_RETRY, deadline: { atMs: start + 25_000, reason: 'the budget' } }, start);
  const response = await client.send(get(server.port));
  assert.equal(response.status, 503);
  assert.equal(server.requests.length, 1);
});

test('a refused connection within a deadline: the curl error after the attempts that fit', async () => {
  const port = await refusedPort();
  const start = Date.now();
  const { client, lines } = virtualClient({ ...DEFAULT_RETRY, deadline: { atMs: start + 2500, reason: 'the budget' } }, start);
  const failure = await client.send(get(port)).then(
    () => assert.fail('a refused connection cannot answer'),
    (error: unknown) => error,
  );
  assert.ok(failure instanceof CurlError);
  assert.equal(failure.curlCode, 7);
  // Back-off 1 s, then 2 s: the second wait would end at 3 s.
  assert.match(failure.message, /Connection refused \(GET http:\/\/127\.0\.0\.1:\d+\/busy, after 2 attempts\)/);
  assert.equal(lines.filter((l) => l.includes('Http request failed, retrying')).length, 1);
  assert.match(lines.at(-1)!, /Retries stopped after 2 attempts .* the last failure stands\./);
});

test('without a deadline (an extraction) every retry is made', async () => {
  const server = await alwaysBusy();
  const { client, lines } = virtualClient(DEFAULT_RETRY, Date.now());
  const response = await client.send(get(server.port));
  assert.equal(response.status, 503);
  assert.equal(server.requests.length, DEFAULT_RETRY.maxRetries + 1);
  assert.ok(!lines.some((l) => l.includes('Retries stopped')));
});

test('attemptsEndBy bounds an attempt to a server that never answers: curl error 28', async () => {
  const server = await startServer(() => {});
  after(() => server.close());
  // The transport alone would wait a minute: the attempt's own bound is what ends it.
  const patient = new Transport({ connectTimeoutMs: 60_000, requestTimeoutMs: 60_000 });
  after(() => patient.close());
  const client = new HttpClient({
    transport: patient,
    retry: { ...DEFAULT_RETRY, maxRetries: 0 },
    logger: createLogger({ write: () => {} }),
    attemptsEndBy: Date.now() + 300,
  });
  const failure = await client.send(get(server.port)).then(
    () => assert.fail('a stalled server cannot answer'),
    (error: unknown) => error,
  );
  assert.ok(failure instanceof CurlError);
  assert.equal(failure.curlCode, 28);
  const timedOut = /CURL error 28: Operation timed out after (\d+) milliseconds with 0 bytes received/.exec(failure.message);
  assert.ok(timedOut, failure.message);
  assert.ok(Number(timedOut[1]) < 60_000, 'ended by the attempt bound, not the transport timeout');
});
