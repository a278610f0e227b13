/**
 * The end of a run (issue 18): one INFO summary line (requests, retries, pages, rows per table,
 * bytes, duration), and identical warnings printed once with a count of their repeats.
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { json, startServer, type TestServer } from '../helpers/httpServer.ts';
import { run } from '../helpers/dataDir.ts';
import { createLogger } from '../../src/logging/logger.ts';
import { count } from '../../src/logging/runStats.ts';

const servers: TestServer[] = [];
after(async () => {
  for (const s of servers) await s.close();
});

const strip = (l: string): string => l.replace(/^\[[^\]]*\] /, '');

test('summary line: requests, retries, pages, rows per table, bytes, duration', async () => {
  let failedOnce = false;
  const s = await startServer((req, res) => {
    const page = Number(/[?&]page=(\d+)/.exec(req.target)?.[1] ?? 0);
    if (req.target.startsWith('/users?') && page === 2 && !failedOnce) {
      failedOnce = true;
      return json(res, 503, {});
    }
    if (req.target.startsWith('/users?')) return json(res, 200, page <= 2 ? [{ id: page * 10 + 1 }, { id: page * 10 + 2 }] : []);
    return json(res, 200, page === 1 ? [{ sku: 'a' }] : []);
  });
  servers.push(s);
  const r = await run({
    parameters: {
      api: { baseUrl: `${s.url}/`, pagination: { method: 'pagenum' } },
      config: {
        outputBucket: 'b',
        jobs: [{ endpoint: 'users', children: [{ endpoint: 'users/{id}/orders', dataType: 'orders', placeholders: { id: 'id' } }] }],
      },
    },
  });
  assert.equal(r.code, 0, r.lines.join('\n'));
  // users: pages 1, 2 (one retry), 3 (empty); orders of 4 users: pages 1 and 2 (empty) each.
  assert.equal(s.requests.length, 12);
  const summary = r.lines.map(strip).filter((l) => l.startsWith('logger.INFO: Summary: '));
  assert.equal(summary.length, 1);
  assert.match(
    summary[0]!,
    /^logger\.INFO: Summary: 12 requests \(1 retry\), 11 pages, 8 rows in 2 tables \(b\.users 4, b\.orders 4\), \d+ B received, \d+\.\d s\. \{"requests":12,"retries":1,"pages":11,"rows":\{"b\.users":4,"b\.orders":4\},"bytes":\d+,"durationMs":\d+\} \[\]$/,
  );
  // The summary comes right before the final line.
  assert.equal(strip(r.lines.at(-2)!), summary[0]);
  assert.match(r.lines.at(-1)!, /Extractor finished successfully\./);
});

test('a warning repeated 2,000 times is printed once, then "… repeated 1,999 times"', () => {
  const lines: string[] = [];
  const logger = createLogger({ write: (l) => lines.push(l) });
  for (let i = 0; i < 2000; i++) {
    logger.warning("dataField 'items' contains no data!");
    if (i % 2 === 0) logger.warning('Another warning.', { i });
  }
  logger.warning('Once only.');
  logger.flushRepeats();
  assert.deepEqual(lines.map(strip), [
    "logger.WARNING: dataField 'items' contains no data! [] []",
    'logger.WARNING: Another warning. {"i":0} []',
    'logger.WARNING: Once only. [] []',
    "logger.WARNING: dataField 'items' contains no data! … repeated 1,999 times [] []",
    'logger.WARNING: Another warning. … repeated 999 times [] []',
  ]);
});

test('in a run: a child job without placeholders (never run) warns once, and the count comes before the summary', async () => {
  const s = await startServer((req, res) =>
    req.target === '/users'
      ? json(
          res,
          200,
          Array.from({ length: 150 }, (_, i) => ({ id: i })),
        )
      : json(res, 200, [{ x: 1 }]),
  );
  servers.push(s);
  const r = await run({
    parameters: {
      api: { baseUrl: `${s.url}/` },
      config: { outputBucket: 'b', jobs: [{ endpoint: 'users', children: [{ endpoint: 'detail', dataType: 'detail' }] }] },
    },
  });
  assert.equal(r.code, 0, r.lines.join('\n'));
  const lines = r.lines.map(strip);
  assert.equal(lines.filter((l) => l.startsWith("logger.WARNING: No 'placeholders' set for 'detail' [] []")).length, 1);
  const repeat = lines.indexOf("logger.WARNING: No 'placeholders' set for 'detail' … repeated 149 times [] []");
  assert.ok(repeat > 0, lines.slice(-6).join('\n'));
  assert.ok(
    lines[repeat + 1]!.startsWith('logger.INFO: Summary: 1 request (0 retries), 1 page, 150 rows in 1 table (b.users 150), '),
    lines[repeat + 1],
  );
});

test('a failed run flushes the repeat counts before its ERROR line', async () => {
  const s = await startServer((req, res) => {
    if (req.target === '/users') return json(res, 200, [{ id: 1 }, { id: 2 }, { id: 3 }, { id: 4 }]);
    return req.target === '/users/4' ? json(res, 404, { error: 'gone' }) : json(res, 200, {});
  });
  servers.push(s);
  const r = await run({
    parameters: {
      api: { baseUrl: `${s.url}/` },
      config: {
        outputBucket: 'b',
        jobs: [{ endpoint: 'users', children: [{ endpoint: 'users/{id}', dataField: 'items', placeholders: { id: 'id' } }] }],
      },
    },
  });
  assert.equal(r.code, 1);
  const lines = r.lines.map(strip);
  assert.equal(lines.at(-2), "logger.WARNING: dataField 'items' contains no data! … repeated 2 times [] []", lines.join('\n'));
  assert.match(lines.at(-1)!, /^logger\.ERROR: The API request failed: \[404\]/);
});

test('count() prints what toLocaleString("en-US") prints, without ICU: separators, three decimals half up, signs', () => {
  const fixed = [0, -0, 1, 999, 1000, 1999, 1_000_000, -1234.5, 12.3456, 1.0005, 2.0015, 999.9996, -0.0004, 0.1 + 0.2, 2 ** 53, 1e20 + 1];
  // A fixed pseudo-random walk over magnitudes and fractions: the same values in every run.
  let seed = 28;
  const next = (): number => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed / 2 ** 31;
  };
  const walked = Array.from({ length: 5000 }, (_, i) => {
    const magnitude = 10 ** Math.floor(next() * 16);
    const value = i % 2 === 0 ? Math.floor(next() * magnitude) : next() * magnitude;
    return i % 3 === 0 ? -value : value;
  });
  for (const n of [...fixed, ...walked]) assert.equal(count(n), n.toLocaleString('en-US'), `count(${n})`);
});
