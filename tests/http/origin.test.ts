/**
 * Credentials on redirects by origin (issue 32 #1): a redirect that changes only the port is
 * another origin, so the client drops `Authorization` (requests 2.32, curl ≥ 7.83 and Guzzle ≥
 * 7.4.5 do the same); a redirect within the origin keeps it. Two real servers on 127.0.0.1.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { HttpClient } from '../../src/http/client.ts';
import { HeaderList } from '../../src/http/headers.ts';
import { originOf, sameOrigin } from '../../src/http/origin.ts';
import type { PreparedRequest } from '../../src/http/prepared.ts';
import { DEFAULT_RETRY } from '../../src/http/retry.ts';
import { Transport } from '../../src/http/transport.ts';
import { createLogger } from '../../src/logging/logger.ts';
import { json, startServer, type TestServer } from '../helpers/httpServer.ts';

let home: TestServer;
let other: TestServer;
before(async () => {
  other = await startServer((_req, res) => json(res, 200, { at: 'other' }));
  home = await startServer((req, res) => {
    if (req.target === '/to-other-port') {
      res.writeHead(302, { Location: `http://127.0.0.1:${other.port}/landed` });
      return res.end();
    }
    if (req.target === '/same-origin') {
      res.writeHead(302, { Location: '/landed' });
      return res.end();
    }
    json(res, 200, { at: 'home' });
  });
});
after(async () => {
  await home.close();
  await other.close();
});

function get(path: string): PreparedRequest {
  const headers = new HeaderList();
  headers.append('Host', [`127.0.0.1:${home.port}`]);
  headers.append('Authorization', ['Basic dXNlcjpwYXNz']);
  return {
    method: 'GET',
    url: { scheme: 'http', userinfo: undefined, host: '127.0.0.1', port: home.port, path, query: undefined },
    headers,
    body: undefined,
    authHeaders: new Set(),
  };
}

async function send(path: string) {
  const transport = new Transport({ connectTimeoutMs: 5000, requestTimeoutMs: 5000 });
  const client = new HttpClient({ transport, retry: { ...DEFAULT_RETRY, maxRetries: 0 }, logger: createLogger({ write: () => {} }) });
  try {
    return await client.send(get(path));
  } finally {
    transport.close();
  }
}

test('origins: scheme, host and port compared; the default port is the same origin as none', () => {
  const url = (scheme: string, host: string, port: number | undefined) => ({ scheme, host, port });
  assert.equal(originOf(url('HTTP', 'Example.COM', undefined)), 'http://example.com:80');
  assert.ok(sameOrigin(url('https', 'a.example', undefined), url('https', 'A.example', 443)));
  assert.ok(!sameOrigin(url('http', 'a.example', 8080), url('http', 'a.example', 8081)));
  assert.ok(!sameOrigin(url('http', 'a.example', undefined), url('https', 'a.example', undefined)));
});

test('a redirect to the same host on another port drops Authorization', async () => {
  const response = await send('/to-other-port');
  assert.equal(response.status, 200);
  const landed = other.requests.at(-1)!;
  assert.equal(landed.target, '/landed');
  assert.equal(landed.headers.authorization, undefined);
});

test('a redirect within the origin keeps Authorization', async () => {
  await send('/same-origin');
  const landed = home.requests.at(-1)!;
  assert.equal(landed.target, '/landed');
  assert.equal(landed.headers.authorization, 'Basic dXNlcjpwYXNz');
});
