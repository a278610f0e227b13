/** The plumbing of the fake platform's servers: listen on 127.0.0.1 port 0, read bodies, answer JSON, record. */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export type ServerName = 'storage' | 'queue' | 'encryption';

/** One request as a server received it (tests check where the token went). */
export interface SeenRequest {
  server: ServerName;
  method: string;
  path: string;
  token: string | undefined;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export interface FakeRequest {
  method: string;
  /** Path without the query. */
  path: string;
  query: URLSearchParams;
  token: string | undefined;
  contentType: string;
  body: string;
}

export interface FakeResponse {
  status: number;
  body?: unknown;
  contentType?: string;
}

export type Handler = (req: FakeRequest) => FakeResponse;

export function json(status: number, body: unknown): FakeResponse {
  return { status, body };
}

/** Error bodies in the shape of each service (06 §1.2). */
export function storageError(status: number, error: string, code: string): FakeResponse {
  return json(status, { error, code, exceptionId: `exception-${status}` });
}

export function queueError(status: number, error: string): FakeResponse {
  return json(status, { error, code: status, status: 'error', exceptionId: `job-runner-${status}` });
}

export function parseJsonBody(req: FakeRequest): Record<string, unknown> | undefined {
  try {
    const data: unknown = JSON.parse(req.body);
    return typeof data === 'object' && data !== null && !Array.isArray(data) ? (data as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

function toFakeRequest(req: http.IncomingMessage, body: string): FakeRequest {
  const url = new URL(req.url ?? '/', 'http://fake');
  const raw = req.headers['x-storageapi-token'];
  return {
    method: req.method ?? 'GET',
    path: url.pathname,
    query: url.searchParams,
    token: Array.isArray(raw) ? raw[0] : raw,
    contentType: String(req.headers['content-type'] ?? '')
      .split(';')[0]!
      .trim(),
    body,
  };
}

function answer(res: http.ServerResponse, response: FakeResponse): void {
  if (response.status === 204 || response.body === undefined) {
    res.writeHead(response.status).end();
    return;
  }
  const text = typeof response.body === 'string' ? response.body : JSON.stringify(response.body);
  res.writeHead(response.status, { 'Content-Type': response.contentType ?? 'application/json' }).end(text);
}

/** A server on 127.0.0.1 (port 0) that records every request in `seen` and answers with `handler`. */
export function listen(name: ServerName, seen: SeenRequest[], handler: Handler): Promise<{ server: http.Server; url: string }> {
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const request = toFakeRequest(req, body);
      seen.push({ server: name, method: request.method, path: req.url ?? '', token: request.token, headers: req.headers, body });
      try {
        answer(res, handler(request));
      } catch (e) {
        answer(res, json(500, { error: `fake platform: ${(e as Error).message}`, code: 500, status: 'error' }));
      }
    });
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => resolve({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }));
  });
}

export function close(server: http.Server): Promise<void> {
  return new Promise((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });
}
