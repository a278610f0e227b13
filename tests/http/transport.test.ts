/** One HTTP attempt (http/transport.ts) against real local servers: failures named as curl names them. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CurlError } from '../../src/errors/CurlError.ts';
import { HeaderList } from '../../src/http/headers.ts';
import { Transport, type WireRequest } from '../../src/http/transport.ts';
import { run } from '../helpers/dataDir.ts';
import { serversClosedAfterTests } from '../helpers/httpServer.ts';

const api = serversClosedAfterTests();

function bigHeaderServer() {
  return api((_req, res) => {
    res.setHeader('Content-Type', 'application/json');
    res.setHeader('X-Huge', 'h'.repeat(200 * 1024));
    res.end('[]');
  });
}

/** `GET /` of the server at `url`, as the client hands it to the transport. */
function getRoot(url: URL): WireRequest {
  return {
    method: 'GET',
    scheme: 'http',
    host: url.hostname,
    port: Number(url.port),
    target: '/',
    headers: HeaderList.from([['Host', [url.host]]]),
    body: undefined,
  };
}

test('a 200 KB response header is "too large" (curl error 27), not an empty reply', async () => {
  const s = await bigHeaderServer();
  const transport = new Transport({ connectTimeoutMs: 5000, requestTimeoutMs: 5000 });
  const url = new URL(s.url);
  try {
    await assert.rejects(transport.send(getRoot(url)), (error: unknown) => {
      assert.ok(error instanceof CurlError);
      assert.equal(error.curlCode, 27);
      assert.equal(error.message, 'CURL error 27: Rejected the response headers: larger than 102400 bytes (max is 102400)');
      return true;
    });
  } finally {
    transport.close();
  }
});

test('a response whose headers are too large is not retried: one request, exit 1, the reason in the ERROR line', async () => {
  const s = await bigHeaderServer();
  const r = await run({ parameters: { api: { baseUrl: `${s.url}/` }, config: { outputBucket: 'b', jobs: [{ endpoint: 'users' }] } } });
  assert.equal(r.code, 1, r.lines.join('\n'));
  assert.equal(s.requests.length, 1);
  assert.match(r.lines.at(-1)!, /logger\.ERROR: .*Rejected the response headers: larger than 102400 bytes/);
});

test("close(false), a command's end: a request still in flight is ended, so the process is not held open", async () => {
  let serverSide: Promise<void> | undefined;
  let arrived!: () => void;
  const requestArrived = new Promise<void>((resolve) => {
    arrived = resolve;
  });
  // The server never answers: only the client's close can end the connection.
  const s = await api((_req, res) => {
    serverSide = new Promise((resolve) => res.socket?.on('close', () => resolve()));
    arrived();
  });
  const transport = new Transport({ connectTimeoutMs: 5000, requestTimeoutMs: 60_000 });
  const url = new URL(s.url);
  const sent = transport.send(getRoot(url));
  await requestArrived;
  transport.close(false);
  await assert.rejects(sent);
  await serverSide;
});
