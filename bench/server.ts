/**
 * The benchmark's API (a process of its own, so it does not share the extractor's or the floor's
 * event loop). Listens on 127.0.0.1 (free port), prints `port=<n>` on stdout, stops on SIGTERM,
 * on stdin end (with `--stdin`), or by itself after `--max-seconds` (default 600).
 *
 *   GET /items?limit=L&offset=O&total=T[&delay=MS]  → {"items": [...L nested records from O...], "total": T}
 *   GET /ids?n=N                         → [{"id": 1}, … {"id": N}]
 *   GET /item/<id>?delay=MS               → one record, answered after MS milliseconds
 *   GET /limited/<key>/ids, /limited/<key>/item/<id>  → the same, under a budget of 100 requests/s
 *                                          per key (a token bucket of 100): RateLimit-Limit,
 *                                          -Remaining, -Reset and -Policy on every answer; beyond
 *                                          the budget 429 with Retry-After
 *   GET /stats/<key>                      → {"requests": n, "tooMany": n} of /limited/<key>/
 *
 * Records are a deterministic function of their index. Pages of `/items` are rendered once and
 * kept (up to 64 MiB) so that serving costs the same for the floor and the extractor.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

const maxSeconds = Number(process.argv[process.argv.indexOf('--max-seconds') + 1] ?? 600) || 600;

function record(i: number): string {
  const tags = i % 3 === 0 ? '["red","green","blue"]' : i % 3 === 1 ? '["red"]' : '[]';
  const orders = [];
  for (let k = 0; k < 1 + (i % 3); k++)
    orders.push(`{"oid":${i * 10 + k},"amount":${((i * 7 + k * 13) % 10000) / 100 + 0.25},"paid":${k % 2 === 0}}`);
  return (
    `{"id":${i},"name":"user ${i}","email":"user${i}@example.com","active":${i % 2 === 0},"score":${(i % 1000) / 8 + 0.5},` +
    `"address":{"street":"${i} Main Street","city":"City ${i % 97}","geo":{"lat":${(i % 180) - 89.5},"lng":${(i % 360) - 179.25}}},` +
    `"tags":${tags},"orders":[${orders.join(',')}]}`
  );
}

const cache = new Map<string, Buffer>();
let cached = 0;

function itemsPage(limit: number, offset: number, total: number): Buffer {
  const key = `${limit}/${offset}/${total}`;
  const hit = cache.get(key);
  if (hit) return hit;
  const parts: string[] = [];
  for (let i = offset; i < Math.min(offset + limit, total); i++) parts.push(record(i + 1));
  const body = Buffer.from(`{"items":[${parts.join(',')}],"total":${total}}`);
  if (cached + body.length <= 64 * 1024 * 1024) {
    cache.set(key, body);
    cached += body.length;
  }
  return body;
}

function send(res: http.ServerResponse, body: Buffer | string, headers: Record<string, string> = {}, status = 200): void {
  res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body), ...headers });
  res.end(body);
}

const RATE = 100;

/** A token bucket per key: RATE tokens per second, at most RATE kept. */
class Budget {
  tokens = RATE;
  last = performance.now();
  requests = 0;
  tooMany = 0;

  /** Takes a token if there is one; the RateLimit headers of the answer, and whether it was allowed. */
  take(): { allowed: boolean; headers: Record<string, string> } {
    const now = performance.now();
    this.tokens = Math.min(RATE, this.tokens + ((now - this.last) * RATE) / 1000);
    this.last = now;
    this.requests++;
    const allowed = this.tokens >= 1;
    if (allowed) this.tokens -= 1;
    else this.tooMany++;
    const headers: Record<string, string> = {
      'RateLimit-Limit': String(RATE),
      'RateLimit-Remaining': String(Math.floor(this.tokens)),
      'RateLimit-Reset': String(Math.ceil((RATE - this.tokens) / RATE)),
      'RateLimit-Policy': `${RATE};w=1`,
    };
    if (!allowed) headers['Retry-After'] = String(Math.max(1, Math.ceil((1 - this.tokens) / RATE)));
    return { allowed, headers };
  }
}

const budgets = new Map<string, Budget>();

const server = http.createServer((req, res) => {
  let url = new URL(req.url ?? '/', 'http://x');
  let limitHeaders: Record<string, string> = {};
  const limited = /^\/limited\/([^/]+)(\/.*)$/.exec(url.pathname);
  if (limited) {
    let budget = budgets.get(limited[1]!);
    if (budget === undefined) {
      budget = new Budget();
      budgets.set(limited[1]!, budget);
    }
    const { allowed, headers } = budget.take();
    if (!allowed) {
      send(res, '{"error":"too many requests"}', headers, 429);
      return;
    }
    limitHeaders = headers;
    url = new URL(limited[2]! + url.search, 'http://x');
  }
  const stats = /^\/stats\/([^/]+)$/.exec(url.pathname);
  const q = (name: string, fallback: number): number => {
    const v = url.searchParams.get(name);
    return v === null ? fallback : Number(v);
  };
  if (stats) {
    const b = budgets.get(stats[1]!);
    send(res, JSON.stringify({ requests: b?.requests ?? 0, tooMany: b?.tooMany ?? 0 }));
  } else if (url.pathname === '/items') {
    const page = itemsPage(q('limit', 500), q('offset', 0), q('total', 100_000));
    const delay = q('delay', 0);
    if (delay > 0) setTimeout(() => send(res, page), delay);
    else send(res, page);
  } else if (url.pathname === '/ids') {
    const n = q('n', 1000);
    send(res, JSON.stringify(Array.from({ length: n }, (_, i) => ({ id: i + 1 }))), limitHeaders);
  } else if (url.pathname.startsWith('/item/')) {
    const id = Number(url.pathname.slice('/item/'.length));
    setTimeout(() => send(res, `{"item":${record(id)}}`, limitHeaders), q('delay', 20));
  } else {
    res.writeHead(404, { 'Content-Type': 'application/json' });
    res.end('{"error":"not found"}');
  }
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`port=${(server.address() as AddressInfo).port}\n`);
});
const stop = (): void => {
  server.closeAllConnections();
  server.close();
  process.exit(0);
};
process.on('SIGTERM', stop);
if (process.argv.includes('--stdin')) {
  // Started by bench/run.ts: stop when the parent goes away.
  process.stdin.on('end', stop);
  process.stdin.resume();
}
setTimeout(stop, maxSeconds * 1000).unref();
