/**
 * Issue 33: the same-response stop (03 §3.1.1) against an API that ignores its paging parameter —
 * every request gets the same answer. For every registered pagination method, on every path a page
 * can take (responseFilter, user mappings, child jobs, pages fetched ahead, the output worker, a
 * scroller of `multiple`), the job stops at the second, identical page: its records are written
 * once and the run ends. Before issue 33, a responseFilter changed the previous response in place,
 * so the identical page never matched it and these runs paged for ever.
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer } from '../helpers/httpServer.ts';
import { makeDataDir, readTables } from '../helpers/dataDir.ts';
import * as extractor from '../../src/extractor.ts';
import { paginationMethods } from '../../src/pagination/registry.ts';
import '../../src/pagination/index.ts';

const servers: TestServer[] = [];
after(async () => {
  for (const s of servers) await s.close();
});

/** A pagination that asks for a second page after the page below, per registered method. */
const PAGINATIONS: Record<string, Record<string, unknown>> = {
  offset: { method: 'offset', limit: 2 },
  pagenum: { method: 'pagenum' },
  'response.url': { method: 'response.url', urlKey: 'next' },
  'response.param': { method: 'response.param', responseParam: 'token', queryParam: 'token' },
  cursor: { method: 'cursor', idKey: 'id', param: 'since' },
  multiple: { method: 'multiple', scrollers: { pages: { method: 'pagenum' } }, default: 'pages' },
  'zendesk.response.url': { method: 'zendesk.response.url', urlKey: 'next_page' },
};

/** The one answer to every request: two records, and whatever each method reads for its next page. */
function page(base: string): unknown {
  return {
    items: [
      { id: 1, tags: ['a', 'b'] },
      { id: 2, tags: ['c'] },
    ],
    next: 'ep?page=2',
    token: 'abc',
    next_page: `${base}/api/ep?start_time=1000`,
  };
}

interface Path {
  /** Job members added to the top-level job. */
  job?: Record<string, unknown>;
  config?: Record<string, unknown>;
  /** Replaces `api.pagination` (given the method's). */
  pagination?: (p: Record<string, unknown>) => Record<string, unknown>;
  env?: Record<string, string>;
  /** Requests of a run that stops as it should. */
  requests: number;
  /** For pages fetched ahead: up to so many more requests past the last page (the option's promise). */
  ahead?: number;
}

/** Far above what any case here needs (at most 6 requests, plus the pages fetched ahead). */
const REQUEST_BOUND = 30;

const FILTERED = { dataField: 'items', responseFilter: 'tags' };
const CHILD = { endpoint: 'ep/{id}', ...FILTERED, placeholders: { id: 'id' } };

const PATHS: Record<string, Path> = {
  responseFilter: { job: FILTERED, requests: 2 },
  'user mappings': {
    job: FILTERED,
    config: { mappings: { ep: { id: { mapping: { destination: 'id' } }, tags: { mapping: { destination: 'tags' } } } } },
    requests: 2,
  },
  // Each child instance pages on its own (03 §4.8) and stops at its own identical page.
  children: { job: { ...FILTERED, children: [CHILD] }, requests: 2 + 2 * 2 },
  'pages fetched ahead': { job: FILTERED, pagination: (p) => ({ ...p, prefetch: 3 }), requests: 2, ahead: 3 },
  'output worker': { job: FILTERED, env: { EX_GENERIC_OUTPUT_WORKER: 'always' }, requests: 2 },
  'a scroller of multiple': {
    job: { ...FILTERED, scroller: 'inner' },
    pagination: (p) => ({ method: 'multiple', scrollers: { inner: p } }),
    requests: 2,
  },
};

async function runAgainstStubbornApi(
  method: string,
  path: Path,
): Promise<{ code: number; requests: number; tables: Record<string, string>; log: string }> {
  let base = '';
  let answered = 0;
  const server = await startServer((_req, res) => {
    // A run that pages on past any bound here fails fast (a 404 ends it) instead of for ever.
    if (++answered > REQUEST_BOUND) {
      res.writeHead(404, { 'Content-Type': 'application/json' });
      res.end('{"error":"the extractor paged on past the identical page"}');
      return;
    }
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify(page(base)));
  });
  servers.push(server);
  base = server.url;
  const pagination = path.pagination ? path.pagination(PAGINATIONS[method]!) : PAGINATIONS[method]!;
  const config = {
    parameters: {
      api: { baseUrl: `${server.url}/api/`, pagination },
      config: { outputBucket: 'b', jobs: [{ endpoint: 'ep', ...path.job }], ...path.config },
    },
  };
  const dir = makeDataDir(config);
  const lines: string[] = [];
  const code = await extractor.run({
    env: { KBC_DATADIR: dir, ...path.env },
    write: (line) => lines.push(line),
    sleep: async () => {},
    outputWorker: { script: new URL('../../src/cli.ts', import.meta.url) },
  });
  await server.close();
  return { code, requests: server.requests.length, tables: readTables(dir), log: lines.join('\n') };
}

test('every registered pagination method has an API-ignores-the-page case', () => {
  assert.deepEqual(Object.keys(PAGINATIONS).sort(), paginationMethods().sort());
});

for (const method of paginationMethods()) {
  for (const [name, path] of Object.entries(PATHS)) {
    // `multiple` is the subject of that path already (its entries select by the job's `scroller`).
    if (method === 'multiple' && name === 'a scroller of multiple') continue;
    test(`${method}, ${name}: an API that ignores the paging parameter stops at the identical second page`, async () => {
      const run = await runAgainstStubbornApi(method, path);
      assert.equal(run.code, 0, run.log);
      const extra = run.requests - path.requests;
      assert.ok(extra >= 0 && extra <= (path.ahead ?? 0), `${run.requests} requests, expected ${path.requests}\n${run.log}`);
      // The first page once; the identical page is not output.
      assert.equal(run.tables['b.ep'], '"id","tags"\n"1","[""a"",""b""]"\n"2","[""c""]"\n');
      if (name === 'children') {
        const child = run.tables['b.ep_id'];
        assert.equal(child?.split('\n').filter((l) => l !== '').length, 1 + 2 * 2, child);
      }
    });
  }
}
