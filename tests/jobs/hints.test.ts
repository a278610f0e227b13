/**
 * Warnings during the run that point at the config key to fix (issue 18): a job that wrote no
 * rows although the response holds records elsewhere, and a second page identical to the first.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { json, serversClosedAfterTests } from '../helpers/httpServer.ts';
import { run } from '../helpers/dataDir.ts';

const api = serversClosedAfterTests();

const strip = (l: string): string => l.replace(/^\[[^\]]*\] /, '');
const warnings = (lines: string[]): string[] =>
  lines.map(strip).filter((l) => l.startsWith('logger.WARNING: ') && !l.includes('State file'));

const customers = Array.from({ length: 23 }, (_, i) => ({ id: i + 1 }));
const nested = { meta: { total: 23, tags: ['a', 'b', 'c'] }, data: { customers } };

function config(baseUrl: string, job: Record<string, unknown>, apiExtra: Record<string, unknown> = {}) {
  return { parameters: { api: { baseUrl, ...apiExtra }, config: { outputBucket: 'b', jobs: [{ endpoint: 'customers', ...job }] } } };
}

test('no dataField, records nested: the hint names where they are and the key to set', async () => {
  const s = await api((_req, res) => json(res, 200, nested));
  const r = await run(config(`${s.url}/`, {}));
  assert.equal(r.code, 0, r.lines.join('\n'));
  const w = warnings(r.lines);
  assert.equal(w.length, 2, w.join('\n'));
  assert.ok(w[0]!.startsWith('logger.WARNING: No data array found in response! (endpoint: customers)'));
  assert.equal(
    w[1],
    "logger.WARNING: Job 'customers' (parameters.config.jobs[0]) wrote 0 rows, but its response holds records at `data.customers` (23 items): " +
      'set "dataField": "data.customers" in parameters.config.jobs[0] (no dataField is set). {"configPath":"parameters.config.jobs[0].dataField"} []',
  );
});

test('a dataField that does not exist: the hint shows the current value too', async () => {
  const s = await api((_req, res) => json(res, 200, nested));
  const r = await run(config(`${s.url}/`, { dataField: 'data.customer' }));
  assert.equal(r.code, 0, r.lines.join('\n'));
  const w = warnings(r.lines);
  assert.equal(w[0], "logger.WARNING: dataField 'data.customer' contains no data! [] []");
  assert.ok(w[1]!.includes('holds records at `data.customers` (23 items)') && w[1]!.includes('(dataField is "data.customer")'), w[1]);
});

test('a child job: one hint for all its instances, naming the child config path', async () => {
  const s = await api((req, res) =>
    req.target === '/customers' ? json(res, 200, [{ id: 1 }, { id: 2 }, { id: 3 }]) : json(res, 200, { result: { orders: [{ n: 1 }] } }),
  );
  const r = await run(
    config(`${s.url}/`, { children: [{ endpoint: 'customers/{id}/orders', dataField: 'orders', placeholders: { id: 'id' } }] }),
  );
  assert.equal(r.code, 0, r.lines.join('\n'));
  const hints = warnings(r.lines).filter((l) => l.includes('wrote 0 rows'));
  assert.equal(hints.length, 1, hints.join('\n'));
  assert.ok(hints[0]!.includes("Job 'customers/{id}/orders' (parameters.config.jobs[0].children[0])"), hints[0]);
  assert.ok(hints[0]!.includes('records at `result.orders` (1 items)'), hints[0]);
});

test('no hint when the records place exists and is empty, or when some page had rows', async () => {
  const s = await api((req, res) =>
    req.target.includes('empty') ? json(res, 200, { items: [], other: { list: [{ a: 1 }] } }) : json(res, 200, { items: [{ id: 1 }] }),
  );
  const r = await run(config(`${s.url}/`, { endpoint: 'empty', dataField: 'items' }));
  assert.equal(r.code, 0, r.lines.join('\n'));
  assert.ok(!warnings(r.lines).some((l) => l.includes('wrote 0 rows')), warnings(r.lines).join('\n'));
});

test('page 2 identical to page 1: a WARNING naming the parameter the API ignores', async () => {
  const page = Array.from({ length: 100 }, (_, i) => ({ id: i }));
  const s = await api((_req, res) => json(res, 200, page));
  const r = await run(config(`${s.url}/`, {}, { pagination: { method: 'pagenum', pageParam: 'p' } }));
  assert.equal(r.code, 0, r.lines.join('\n'));
  assert.deepEqual(
    s.requests.map((q) => q.target),
    ['/customers?p=1', '/customers?p=2'],
  );
  assert.deepEqual(warnings(r.lines), [
    "logger.WARNING: Job 'customers' (parameters.config.jobs[0]): page 2 is identical to page 1, so pagination stopped after page 1. " +
      "The API likely ignores the paging parameter 'p': check the name and placement the API expects in parameters.api.pagination.pageParam. " +
      '{"configPath":"parameters.api.pagination.pageParam"} []',
  ]);
  assert.equal(r.tables()['b.customers']!.split('\n').length, 102);
});

test('offset paging ignored: both changed parameters are not named, only the one that moved', async () => {
  const page = Array.from({ length: 10 }, (_, i) => ({ id: i }));
  const s = await api((_req, res) => json(res, 200, page));
  const r = await run(config(`${s.url}/`, {}, { pagination: { method: 'offset', limit: 10 } }));
  assert.equal(r.code, 0, r.lines.join('\n'));
  const w = warnings(r.lines);
  assert.equal(w.length, 1, w.join('\n'));
  assert.ok(
    w[0]!.includes("ignores the paging parameter 'offset': check the name and placement the API expects in parameters.api.pagination."),
    w[0],
  );
});

test('a single page repeated later (page 3 = page 2) is the reference stop: no warning', async () => {
  const s = await api((req, res) => {
    const p = Number(/p=(\d+)/.exec(req.target)?.[1]);
    json(res, 200, [{ id: Math.min(p, 2) }]);
  });
  const r = await run(config(`${s.url}/`, {}, { pagination: { method: 'pagenum', pageParam: 'p' } }));
  assert.equal(r.code, 0, r.lines.join('\n'));
  assert.equal(s.requests.length, 3);
  assert.deepEqual(warnings(r.lines), []);
});

test('identical pages: nothing when the request itself did not change; the link when only its path moved', async () => {
  const { identicalPageWarning } = await import('../../src/jobs/hints.ts');
  const { createLogger } = await import('../../src/logging/logger.ts');
  const { PhpArray } = await import('../../src/php/value.ts');
  const lines: string[] = [];
  const logger = createLogger({ write: (l) => lines.push(strip(l)) });
  const request = (endpoint: string, params: [string, number][] = []) =>
    new PhpArray([
      ['endpoint', endpoint],
      ['params', new PhpArray(params)],
    ]);
  const job = { endpoint: 'users', path: 'parameters.config.jobs[0]' };
  identicalPageWarning(logger, job, request('users', [['since', 5]]), request('users', [['since', 5]]), undefined, true);
  assert.equal(lines.length, 0);
  identicalPageWarning(logger, job, request('users'), request('https://api.example.com/users/page/2'), undefined, true);
  assert.equal(lines.length, 1);
  assert.ok(lines[0]!.includes('The API likely ignores the next-page link (https://api.example.com/users/page/2)'), lines[0]);
});

test('page 2 with the same records but a different response: a WARNING, and paging goes on as in the reference', async () => {
  const page = Array.from({ length: 5 }, (_, i) => ({ id: i }));
  let n = 0;
  const s = await api((_req, res) => {
    n++;
    // The API ignores `page`; its answers differ by a request id; the third is empty.
    json(res, 200, { requestId: n, items: n < 3 ? page : [] });
  });
  const r = await run(config(`${s.url}/`, { dataField: 'items' }, { pagination: { method: 'pagenum' } }));
  assert.equal(r.code, 0, r.lines.join('\n'));
  assert.equal(s.requests.length, 3);
  const w = warnings(r.lines).filter((l) => l.includes('page 2'));
  assert.equal(w.length, 1, w.join('\n'));
  assert.ok(
    w[0]!.includes(
      "page 2 holds the same records as page 1; paging goes on as the reference does. The API likely ignores the paging parameter 'page'",
    ),
    w[0],
  );
  assert.equal(r.tables()['b.customers']!.split('\n').length, 12);
});

test('jobs an iteration supplies: the hint names parameters.iterations[i].jobs, not parameters.config.jobs', async () => {
  const s = await api((_req, res) => json(res, 200, nested));
  const r = await run({
    parameters: {
      api: { baseUrl: `${s.url}/` },
      config: { outputBucket: 'b', jobs: [{ endpoint: 'customers', dataField: 'data.customers' }] },
      iterations: [{}, { jobs: [{ endpoint: 'clients' }] }],
    },
  });
  assert.equal(r.code, 0, r.lines.join('\n'));
  const hints = warnings(r.lines).filter((l) => l.includes('wrote 0 rows'));
  assert.equal(hints.length, 1, hints.join('\n'));
  assert.ok(
    hints[0]!.startsWith("logger.WARNING: Job 'clients' (parameters.iterations[1].jobs[0]) wrote 0 rows") &&
      hints[0]!.includes(
        'set "dataField": "data.customers" in parameters.iterations[1].jobs[0] (no dataField is set). {"configPath":"parameters.iterations[1].jobs[0].dataField"}',
      ),
    hints[0],
  );
});

test('userData an iteration supplies: an error in it names parameters.iterations[i].userData', async () => {
  const s = await api((_req, res) => json(res, 200, []));
  const r = await run({
    parameters: {
      api: { baseUrl: `${s.url}/` },
      config: { outputBucket: 'b', jobs: [{ endpoint: 'customers' }] },
      iterations: [{ userData: { day: { function: 'nosuch', args: [] } } }],
    },
  });
  assert.equal(r.code, 1, r.lines.join('\n'));
  const error = r.lines.map(strip).find((l) => l.startsWith('logger.ERROR: '));
  assert.ok(error?.includes('"configPath":"parameters.iterations[0].userData'), r.lines.join('\n'));
});
