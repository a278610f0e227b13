/** A programmable HTTP server on 127.0.0.1:0 for tests; records every request it receives. */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after } from 'node:test';

export interface Received {
  method: string;
  target: string;
  headers: http.IncomingHttpHeaders;
  rawHeaders: string[];
  body: string;
}

export type Handler = (req: Received, res: http.ServerResponse, index: number) => void;

export interface TestServer {
  url: string;
  port: number;
  requests: Received[];
  close(): Promise<void>;
}

export async function startServer(handler: Handler): Promise<TestServer> {
  const requests: Received[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const received: Received = {
        method: req.method ?? '',
        target: req.url ?? '',
        headers: req.headers,
        rawHeaders: req.rawHeaders,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      requests.push(received);
      handler(received, res, requests.length - 1);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export function json(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'Content-Type': 'application/json', ...headers });
  res.end(typeof body === 'string' ? body : JSON.stringify(body));
}

/**
 * A starter of test servers for one test file: each server it starts is closed after the file's
 * tests (node:test `after`).
 */
export function serversClosedAfterTests(): (handler: Handler) => Promise<TestServer> {
  const servers: TestServer[] = [];
  after(async () => {
    for (const s of servers) await s.close();
  });
  return async (handler) => {
    const s = await startServer(handler);
    servers.push(s);
    return s;
  };
}
