/**
 * Pages fetched ahead (jobs/pagePrefetch.ts) against a real local server: for every stop
 * condition, a run with `prefetch` must stop exactly where the sequential run stops — same
 * tables, state and log lines (debug request lines included) — and its only extra requests are
 * pages past the last one, at most `prefetch` of them per job instance.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type http from 'node:http';
import { makeDataDir, runIn, type RunResult } from '../helpers/dataDir.ts';
import { startServer, type Received } from '../helpers/httpServer.ts';

const PREFETCH = 4;

interface Api {
  total: number;
  /** Offsets from which every page repeats the previous one (same-response stop). */
  repeatFrom?: number;
  /** Targets whose first request is answered 429. */
  tooManyOnce?: string[];
}

/** `/api/items`: offset/limit or page/limit over `total` records; 404 for a page starting past the end. */
function answer(api: Api, req: Received, seen: Map<string, number>): { status: number; body: unknown; headers?: Record<string, string> } {
  const url = new URL(req.target, 'http://x');
  const n = seen.get(req.target) ?? 0;
  seen.set(req.target, n + 1);
  if (n === 0 && api.tooManyOnce?.includes(req.target))
    return { status: 429, body: { error: 'slow down' }, headers: { 'Retry-After': '0' } };
  const limit = Number(url.searchParams.get('limit') ?? 5);
  const page = url.searchParams.get('page');
  let offset = page === null ? Number(url.searchParams.get('offset') ?? 0) : (Number(page) - 1) * limit;
  if (offset > api.total) return { status: 404, body: { error: 'past the end' } };
  if (api.repeatFrom !== undefined && offset > api.repeatFrom) offset = api.repeatFrom;
  const parent = /^\/api\/items\/(\d+)\/parts/.exec(url.pathname)?.[1];
  const items = [];
  for (let i = offset; i < Math.min(offset + limit, api.total); i++)
    items.push(parent ? { part: i, of: Number(parent) } : { id: i + 1, name: `item ${i + 1}` });
  return { status: 200, body: { items, more: offset + limit < api.total, total: api.total } };
}

interface Outcome extends RunResult {
  requests: string[];
}

async function runWith(
  prefetch: number,
  api: Api,
  pagination: Record<string, unknown>,
  job: Record<string, unknown> = {},
): Promise<Outcome> {
  const seen = new Map<string, number>();
  const server = await startServer((req, res: http.ServerResponse) => {
    const reply = answer(api, req, seen);
    // Varying delays, so that pages fetched ahead arrive out of order.
    setTimeout(
      () => {
        res.writeHead(reply.status, { 'Content-Type': 'application/json', ...(reply.headers ?? {}) });
        res.end(JSON.stringify(reply.body));
      },
      (req.target.length * 7) % 5,
    );
  });
  try {
    const config = {
      parameters: {
        api: { baseUrl: `${server.url}/api/`, pagination: { ...pagination, ...(prefetch > 0 ? { prefetch } : {}) } },
        config: { outputBucket: 'b', debug: true, jobs: [{ endpoint: 'items', dataField: 'items', ...job }] },
      },
    };
    const result = await runIn(makeDataDir(config));
    return { ...result, requests: server.requests.map((r) => `${r.method} ${r.target}`) };
  } finally {
    await server.close();
  }
}

const normalise = (lines: string[]): string[] =>
  lines
    .filter((l) => !l.includes('sent ahead were not used') && !l.includes('logger.INFO: Rate limit: '))
    .map((l) =>
      l
        .replace(/^\[[^\]]*\] /, '')
        .replace(/127\.0\.0\.1:\d+/g, 'HOST')
        .replace(/ge-test-\w+/g, 'DIR')
        // Response times and the run's duration differ from run to run.
        .replace(/ in [\d,]+ ms\b/g, ' in N ms')
        .replace(/, [\d.]+ s\. \{(.*)"durationMs":\d+\}/, ', N s. {$1"durationMs":N}')
        // The summary counts every request sent and byte received, the pages past the end included.
        .replace(/Summary: \d+ requests/, 'Summary: N requests')
        .replace(/"requests":\d+/, '"requests":N')
        .replace(/, [\d.]+ \w*B received/, ', N received')
        .replace(/"bytes":\d+/, '"bytes":N'),
    );

/** Same effects; the prefetching run's extra requests are pages past the last one, at most `perInstance` × instances. */
function assertStopsLikeSequential(ahead: Outcome, seq: Outcome, instances = 1): string[] {
  assert.equal(ahead.code, 0, ahead.lines.join('\n'));
  assert.equal(seq.code, 0, seq.lines.join('\n'));
  assert.deepEqual(ahead.tables(), seq.tables());
  assert.equal(ahead.state()?.replace(/"previousStart":\d+/, ''), seq.state()?.replace(/"previousStart":\d+/, ''));
  assert.deepEqual(normalise(ahead.lines), normalise(seq.lines));
  assert.deepEqual(
    [...seq.requests].sort(),
    ahead.requests.filter((r) => seq.requests.includes(r)).sort(),
    'every request of the sequential run, once',
  );
  const extra = ahead.requests.filter((r) => !seq.requests.includes(r));
  assert.ok(extra.length <= PREFETCH * instances, `at most ${PREFETCH} extra pages per instance: ${extra.join(', ')}`);
  return extra;
}

async function compare(api: Api, pagination: Record<string, unknown>, job: Record<string, unknown> = {}, instances = 1): Promise<string[]> {
  const seq = await runWith(0, api, pagination, job);
  const ahead = await runWith(PREFETCH, api, pagination, job);
  return assertStopsLikeSequential(ahead, seq, instances);
}

const offset = { method: 'offset', limit: 5 };

test('offset: a short last page stops; the pages asked past it (404 here) are dropped unparsed', async () => {
  const seq = await runWith(0, { total: 23 }, offset);
  const ahead = await runWith(PREFETCH, { total: 23 }, offset);
  const extra = assertStopsLikeSequential(ahead, seq);
  // Requests past the end still queued when the run ends are never sent; those sent are past the end.
  assert.ok(
    extra.every((r) => Number(/offset=(\d+)/.exec(r)![1]) > 20),
    extra.join(', '),
  );
  assert.ok(
    ahead.lines.some((l) => l.includes(`DEBUG: Job 'items': ${PREFETCH} page request(s) sent ahead were not used (past the last page)`)),
  );
});

test('offset: an empty last page stops', async () => {
  await compare({ total: 25 }, offset);
});

test('offset with firstPageParams false and offsetFromJob', async () => {
  await compare({ total: 23 }, { ...offset, firstPageParams: false, offsetFromJob: true }, { params: { offset: 5 } });
});

test('pagenum without a limit stops on the empty page; with a limit on the short page', async () => {
  await compare({ total: 25 }, { method: 'pagenum' });
  await compare({ total: 23 }, { method: 'pagenum', limit: 5 });
  await compare({ total: 23 }, { method: 'pagenum', limit: 5, firstPageParams: false });
});

test('nextPageFlag stops before the empty page', async () => {
  await compare({ total: 25 }, { ...offset, nextPageFlag: { field: 'more', stopOn: false } });
});

test('forceStop pages: nothing is requested past the page limit', async () => {
  const extra = await compare({ total: 50 }, { ...offset, forceStop: { pages: 3 } });
  assert.deepEqual(extra, []);
});

test('forceStop volume and limitStop (count, field) stop where the sequential run stops', async () => {
  await compare({ total: 50 }, { ...offset, forceStop: { volume: 400 } });
  await compare({ total: 50 }, { ...offset, limitStop: { count: 12 } });
  await compare({ total: 18 }, { ...offset, limitStop: { field: 'total' } }, {});
});

test('the same-response stop: a repeated page ends the job, as in the sequential run', async () => {
  await compare({ total: 50, repeatFrom: 10 }, offset);
});

test('child jobs page ahead too, each instance stopping on its own', async () => {
  const children = {
    children: [{ endpoint: 'items/{id}/parts', dataType: 'parts', dataField: 'items', placeholders: { id: 'id' } }],
  };
  await compare({ total: 12 }, offset, children, 1 + 12);
});

test('a page fetched ahead that is answered 429 is sent again at its turn, with the usual retries', async () => {
  const api = { total: 23, tooManyOnce: ['/api/items?limit=5&offset=10'] };
  const seq = await runWith(0, api, offset);
  const ahead = await runWith(PREFETCH, api, offset);
  assert.equal(ahead.code, 0, ahead.lines.join('\n'));
  assert.deepEqual(ahead.tables(), seq.tables());
  assert.equal(ahead.requests.filter((r) => r === 'GET /api/items?limit=5&offset=10').length, 2);
});

test('prefetch of the wrong type is a user error naming its path', async () => {
  const result = await runWith(0, { total: 5 }, { ...offset, prefetch: 'many' });
  assert.equal(result.code, 1);
  assert.match(
    result.lines.at(-1)!,
    /The 'prefetch' option must be a whole number of pages, 0 or more\..*parameters\.api\.pagination\.prefetch/,
  );
});
