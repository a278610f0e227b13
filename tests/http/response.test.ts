/**
 * src/http/response.ts: the body summary's printable-text check (its ASCII twin), and a page's
 * bytes freed once the page loop gives them up (responses from a real local server).
 */
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { type ClientResponse, HttpClient } from '../../src/http/client.ts';
import { HeaderList } from '../../src/http/headers.ts';
import { interpretResponse, PRINTABLE_ASCII_MEMBERS, PRINTABLE_SOURCE } from '../../src/http/response.ts';
import { DEFAULT_RETRY } from '../../src/http/retry.ts';
import { Transport } from '../../src/http/transport.ts';
import { asciiFirst } from '../../src/http/url.ts';
import { createLogger } from '../../src/logging/logger.ts';
import type { Value } from '../../src/php/value.ts';
import { startServer } from '../helpers/httpServer.ts';

test('the printable-text check agrees with its Unicode pattern on every ASCII character, and uses it beyond ASCII', () => {
  const unicode = new RegExp(PRINTABLE_SOURCE, 'u');
  const printable = asciiFirst(PRINTABLE_SOURCE, PRINTABLE_ASCII_MEMBERS);
  for (let c = 0; c < 128; c++) {
    const ch = String.fromCharCode(c);
    for (const text of [ch, `a${ch}b`]) assert.equal(printable.test(text), unicode.test(text), JSON.stringify(text));
  }
  for (const text of ['žluťoučký kůň', 'a\u0000é', '日本語\n', '\u200b'])
    assert.equal(printable.test(text), unicode.test(text), JSON.stringify(text));
});

const transport = new Transport({ connectTimeoutMs: 5000, requestTimeoutMs: 5000 });
after(() => transport.close());

/** The response to GET /<n> from a server answering n bytes of a JSON array of numbers. */
async function responseOf(bytes: number): Promise<ClientResponse> {
  const server = await startServer((req, res) => {
    const n = Number(req.target.slice(1));
    const body = `[${'1,'.repeat((n - 3) / 2)}1]`;
    res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(body)) });
    res.end(body);
  });
  after(() => server.close());
  const headers = new HeaderList();
  headers.append('Host', [`127.0.0.1:${server.port}`]);
  const client = new HttpClient({ transport, retry: DEFAULT_RETRY, logger: createLogger({ write: () => {} }) });
  return client.send({
    method: 'GET',
    url: { scheme: 'http', userinfo: undefined, host: '127.0.0.1', port: server.port, path: `/${bytes}`, query: undefined },
    headers,
    body: undefined,
    authHeaders: new Set(),
  });
}

test('a page given up is decoded, and its bytes are freed at once when they have their memory to themselves', async () => {
  const response = await responseOf(1_000_001);
  const bytes = response.body;
  assert.equal(bytes.length, 1_000_001);
  const value = interpretResponse(response, [], createLogger({ write: () => {} }), undefined, true);
  assert.equal((value as Value[]).length, 500_000);
  assert.equal(response.body.length, 0);
  assert.equal(bytes.buffer.byteLength, 0, 'the bytes are detached, not left to a later garbage collection');
});

test("a small page's bytes, a slice of Node's shared pool, are only dropped: the pool's other buffers stay intact", async () => {
  const response = await responseOf(101);
  const bytes = response.body;
  const pool = bytes.buffer;
  const poolBytes = pool.byteLength;
  assert.ok(poolBytes > bytes.length, 'the body is a slice of a larger buffer');
  const value = interpretResponse(response, [], createLogger({ write: () => {} }), undefined, true);
  assert.equal((value as Value[]).length, 50);
  assert.equal(response.body.length, 0);
  assert.equal(pool.byteLength, poolBytes, 'the shared buffer is not detached');
  assert.equal(bytes.length, 101);
});

test('a response not given up keeps its bytes (a login, an ignored error status decoded again)', async () => {
  const response = await responseOf(101);
  interpretResponse(response, [], createLogger({ write: () => {} }));
  assert.equal(response.body.length, 101);
});
