/**
 * Shared pieces of the reliability suite: a fault-injecting HTTP server on 127.0.0.1:0, an
 * in-process run with a fixed clock and recorded (instant) sleeps, and the assertions every
 * failure must satisfy (exit code, one ERROR line, no stack trace, nothing in out/).
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import path from 'node:path';
import * as extractor from '../../src/extractor.ts';
import { makeDataDir, outIsEmpty, readTables } from '../helpers/dataDir.ts';

/** 2023-11-14T22:13:20Z: every run of the suite sees the same clock (state and retry delays). */
export const NOW_MS = 1_700_000_000_000;
export const NOW_S = NOW_MS / 1000;

export interface Received {
  method: string;
  target: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/**
 * Handles one request. `attempt` counts the requests with the same method and target so far
 * (0 = first), so faults can be scripted per request and stay deterministic whatever the order.
 */
export type FaultHandler = (req: Received, res: http.ServerResponse, attempt: number) => void;

export interface FaultServer {
  url: string;
  port: number;
  requests: Received[];
  /** Requests seen for one target (any method). */
  count(target: string): number;
  /** Resolves when the n-th request (1-based) has arrived. */
  arrived(n: number): Promise<void>;
  /** setTimeout that is cleared when the server closes (no stray timers keep the test alive). */
  later(ms: number, fn: () => void): void;
  close(): Promise<void>;
}

export async function startFaultServer(handler: FaultHandler): Promise<FaultServer> {
  const requests: Received[] = [];
  const attempts = new Map<string, number>();
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  const waiters: { n: number; resolve: () => void }[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const received: Received = {
        method: req.method ?? '',
        target: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      requests.push(received);
      const key = `${received.method} ${received.target}`;
      const attempt = attempts.get(key) ?? 0;
      attempts.set(key, attempt + 1);
      for (const w of waiters.filter((x) => requests.length >= x.n)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve();
      }
      try {
        handler(received, res, attempt);
      } catch (e) {
        res.destroy(e as Error);
      }
    });
  });
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    count: (target) => requests.filter((r) => r.target === target).length,
    arrived: (n) => (requests.length >= n ? Promise.resolve() : new Promise<void>((resolve) => waiters.push({ n, resolve }))),
    later(ms, fn) {
      const t = setTimeout(() => {
        timers.delete(t);
        fn();
      }, ms);
      timers.add(t);
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const t of timers) clearTimeout(t);
        timers.clear();
        for (const s of sockets) s.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export function sendJson(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(text)), ...headers });
  res.end(text);
}

/**
 * Streams `total` bytes made of `chunk` repeated, between `head` and `tail`, honouring
 * back-pressure (the body is never held in memory whole) and stopping if the client goes away.
 */
export function streamBody(res: http.ServerResponse, status: number, total: number, chunk: Buffer, head = '', tail = ''): void {
  res.writeHead(status, {
    'Content-Type': 'application/json',
    'Content-Length': String(Buffer.byteLength(head) + total + Buffer.byteLength(tail)),
  });
  res.write(head);
  let sent = 0;
  const pump = (): void => {
    while (sent < total) {
      if (res.destroyed) return;
      const n = Math.min(chunk.length, total - sent);
      sent += n;
      if (!res.write(n === chunk.length ? chunk : chunk.subarray(0, n))) {
        res.once('drain', pump);
        return;
      }
    }
    res.end(tail);
  };
  pump();
}

export interface Run {
  code: number;
  lines: string[];
  dir: string;
  /** Requested sleeps in ms (retry back-off); the sleeps themselves are instant. */
  sleeps: number[];
  ms: number;
}

/** One in-process run with the fixed clock; `sleep` records and returns at once. */
export async function runWith(config: unknown, options: { state?: unknown; nowMs?: number } = {}): Promise<Run> {
  const dir = makeDataDir(config, options.state);
  const lines: string[] = [];
  const sleeps: number[] = [];
  const started = Date.now();
  const code = await extractor.run({
    env: { KBC_DATADIR: dir },
    write: (line) => lines.push(line),
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    nowMs: () => options.nowMs ?? NOW_MS,
  });
  return { code, lines, dir, sleeps, ms: Date.now() - started };
}

/** Every file under out/ (tables, manifests, state), by relative path: the whole output of a run. */
export function outSnapshot(dir: string): Record<string, string> {
  const out = path.join(dir, 'out');
  if (!fs.existsSync(out)) return {};
  const files = (fs.readdirSync(out, { recursive: true }) as string[]).filter((f) => fs.statSync(path.join(out, f)).isFile()).sort();
  return Object.fromEntries(files.map((f) => [f, fs.readFileSync(path.join(out, f), 'utf8')]));
}

export { outIsEmpty, readTables };

/** The message part of a log line: `logger.LEVEL: message context extra` without the timestamp. */
export function strip(line: string | undefined): string {
  return (line ?? '').replace(/^\[[^\]]+\] /, '');
}

const FRAME = /\bat (?:async )?\S*\s*\(?(?:file:|node:|\/)[^\s)]*:\d+:\d+\)?/;

/**
 * A failed run: the given exit code, the last line is the only ERROR line, it carries no stack
 * trace (no `at file:line:col` frames, no `trace` key), and nothing reached out/.
 */
export function assertFailed(r: Run, code: 1 | 2, what: string): string {
  assert.equal(r.code, code, `${what}: exit ${r.code}\n${r.lines.slice(-3).map(strip).join('\n')}`);
  const errors = r.lines.filter((l) => l.includes('] logger.ERROR: '));
  assert.equal(errors.length, 1, `${what}: exactly one ERROR line`);
  // An application error (exit 2) may be followed by its hint, one INFO line saying what to write.
  const after = r.lines.slice(r.lines.indexOf(errors[0]!) + 1);
  const hinted = code === 2 && after.length === 1 && after[0]!.includes('] logger.INFO: ');
  assert.ok(after.length === 0 || hinted, `${what}: the ERROR line is the last line (or an application error's hint follows)`);
  const last = errors[0]!;
  assert.ok(!last.includes('\n'), `${what}: one line`);
  for (const line of r.lines) {
    assert.ok(!FRAME.test(line), `${what}: stack frame in ${strip(line).slice(0, 300)}`);
    assert.ok(!line.includes('"trace":'), `${what}: trace in ${strip(line).slice(0, 300)}`);
  }
  if (!outIsEmpty(r.dir))
    assert.fail(`${what}: out/ must stay empty, found ${JSON.stringify(fs.readdirSync(path.join(r.dir, 'out'), { recursive: true }))}`);
  return strip(last);
}

/** Removes the run's data folder (tests create many). */
export function cleanup(r: { dir: string }): void {
  fs.rmSync(r.dir, { recursive: true, force: true });
}
