/** Shared helpers for the mock-server tests: temporary simulation folders and a raw HTTP client. */
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';

/** Creates a temporary folder with the given files (relative path -> content); returns its path. */
export function makeSimulations(files: Record<string, string | Buffer>): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'mock-sim-'));
  for (const [rel, content] of Object.entries(files)) {
    const file = path.join(root, rel);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, content);
  }
  return root;
}

export function removeSimulations(root: string): void {
  fs.rmSync(root, { recursive: true, force: true });
}

export interface ClientResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

export interface ClientRequest {
  method?: string;
  path: string;
  /** Header pairs, sent in order (repeats allowed). */
  headers?: Array<[string, string]>;
  body?: string | Buffer;
  /** Extra options for https requests. */
  tls?: https.RequestOptions;
}

/** Sends one request to `baseUrl` (no keep-alive, so the server can close at once). */
export function send(baseUrl: string, req: ClientRequest): Promise<ClientResponse> {
  const url = new URL(baseUrl);
  // With an array of headers Node adds no Host header itself.
  const raw: string[] = ['Host', url.host];
  for (const [n, v] of req.headers ?? []) raw.push(n, v);
  const body = req.body === undefined ? undefined : Buffer.from(req.body);
  if (body !== undefined) raw.push('Content-Length', String(body.length));
  const options: http.RequestOptions = {
    host: url.hostname,
    port: url.port,
    method: req.method ?? 'GET',
    path: req.path,
    headers: raw as unknown as http.OutgoingHttpHeaders,
    agent: false,
    ...(req.tls ?? {}),
  };
  const lib = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const r = lib.request(options, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    r.on('error', reject);
    r.end(body);
  });
}
