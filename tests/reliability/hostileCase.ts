/**
 * One hostile response against a fresh local server and a fresh run (hostile-responses.test.ts,
 * huge-responses.test.ts): the case's shape, the run and the checks both files share.
 */
import assert from 'node:assert/strict';
import type http from 'node:http';
import zlib from 'node:zlib';
import { readTables, runWith, startFaultServer, type FaultServer, type Run } from './helpers.ts';

export const MB = 1024 * 1024;
const servers: FaultServer[] = [];

/** Closes the servers of every case run so far (a file's `after` hook). */
export async function closeServers(): Promise<void> {
  for (const s of servers.splice(0)) await s.close();
}

export type Handler = (res: http.ServerResponse, s: FaultServer, target: string) => void;

export function raw(
  body: string | Buffer,
  status = 200,
  headers: Record<string, string> = { 'Content-Type': 'application/json' },
): Handler {
  return (res) => {
    res.writeHead(status, { 'Content-Length': String(Buffer.byteLength(body)), ...headers });
    res.end(body);
  };
}

export interface Case {
  name: string;
  handler: Handler;
  /** Extra `api` keys (pagination, …). */
  api?: Record<string, unknown>;
  dataField?: string;
  /** Expected exit code and, for failures, the start of the ERROR message. */
  code: 0 | 1 | 2;
  message?: string | RegExp;
  /** Further checks on the run (tables of a success, request counts, line length…). */
  check?: (r: Run, s: FaultServer) => void;
}

export const deep = (n: number): string => '['.repeat(n) + ']'.repeat(n);
export const table = (r: Run, name = 'b.users'): string => readTables(r.dir)[name] ?? '';
export const SYNTAX = 'Invalid JSON response from API: JSON decode error: Syntax error, malformed JSON';

export async function gzipBomb(bytes: number): Promise<Buffer> {
  const gz = zlib.createGzip({ level: 1 });
  const out: Buffer[] = [];
  gz.on('data', (c: Buffer) => out.push(c));
  const chunk = Buffer.alloc(MB, ' ');
  for (let i = 0; i < bytes / MB; i++) if (!gz.write(chunk)) await new Promise((r) => gz.once('drain', r));
  gz.end();
  await new Promise((r) => gz.on('end', r));
  return Buffer.concat(out);
}

/** Longest log line any failure may print: the 16 KiB body excerpt plus the message. */
const MAX_LINE = 20_000;

export function bounded(r: Run): void {
  for (const l of r.lines) assert.ok(l.length < MAX_LINE, `log line of ${l.length} characters: ${l.slice(0, 200)}`);
}

export async function runCase(c: Case): Promise<{ r: Run; s: FaultServer }> {
  let s: FaultServer;
  s = await startFaultServer((q, res) => c.handler(res, s, q.target));
  servers.push(s);
  const job: Record<string, unknown> = { endpoint: 'users' };
  if (c.dataField) job['dataField'] = c.dataField;
  const r = await runWith({
    parameters: {
      api: { baseUrl: `${s.url}/api/`, retryConfig: { maxRetries: 1 }, http: { requestTimeout: 1 }, ...c.api },
      config: { outputBucket: 'b', jobs: [job] },
    },
  });
  return { r, s };
}
