import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createLogger } from '../../src/logging/logger.ts';
import { createProgressLog } from '../../src/jobs/progress.ts';
import { extract, items, logged, RawJson } from './helpers.ts';

const GUARD = /next page request would be identical/;

test('never-ending API: a next link to the same request is sent once more (as the reference), a third time not', async () => {
  let n = 0;
  const o = await extract({
    pagination: { method: 'response.url', urlKey: 'next' },
    jobs: [{ endpoint: 'feed', dataField: 'items' }],
    // Every answer differs (so the same-response stop never fires), the link never changes.
    fallback: () => ({ items: [{ id: ++n }], next: 'feed' }),
  });
  assert.equal(o.code, 0, o.lines.join('\n'));
  assert.deepEqual(o.requests, ['GET /api/feed', 'GET /api/feed']);
  const warnings = logged(o, GUARD);
  assert.equal(warnings.length, 1);
  assert.match(warnings[0]!, /^WARNING: Pagination of job 'feed' stopped: .*\(feed\)/);
  assert.equal(o.table('feed'), '"id"\n"1"\n"2"\n');
});

test('a page size of 0 repeats the offset: the repeated request gets the same page and the same-response stop ends it', async () => {
  const o = await extract({
    pagination: { method: 'offset', limit: 2 },
    jobs: [{ endpoint: 'u', params: { limit: 'all' } }],
    fallback: () => items(2),
  });
  assert.equal(o.code, 0, o.lines.join('\n'));
  assert.deepEqual(o.requests, ['GET /api/u?limit=0&offset=0', 'GET /api/u?limit=0&offset=0']);
  assert.equal(logged(o, GUARD).length, 0);
  assert.equal(logged(o, /finished when last response matched the previous/).length, 1);
});

test('never-ending API: an ever-changing next link is bounded by forceStop', async () => {
  const o = await extract({
    pagination: { method: 'response.url', urlKey: 'next', forceStop: { pages: 5 } },
    jobs: [{ endpoint: 'feed', dataField: 'items' }],
    fallback: (req) => {
      const page = Number(/page=(\d+)/.exec(req.target)?.[1] ?? '1');
      return { items: [{ id: page }], next: `feed?page=${page + 1}` };
    },
  });
  assert.equal(o.code, 0, o.lines.join('\n'));
  assert.equal(o.requests.length, 5);
  assert.equal(o.requests.at(-1), 'GET /api/feed?page=5');
});

test('cursor: a page of only older ids repeats the cursor; the repeated request is sent and its same page stops the job', async () => {
  const o = await extract({
    pagination: { method: 'cursor', idKey: 'id', param: 'since' },
    jobs: [{ endpoint: 'ev' }],
    routes: {
      'GET /api/ev': [{ id: 5 }],
      'GET /api/ev?since=5': [{ id: 3 }],
    },
  });
  assert.equal(o.code, 0, o.lines.join('\n'));
  assert.deepEqual(o.requests, ['GET /api/ev', 'GET /api/ev?since=5', 'GET /api/ev?since=5']);
  assert.equal(o.table('ev'), '"id"\n"5"\n"3"\n');
  assert.equal(logged(o, GUARD).length, 0);
});

test('same-response stop (041): A, B, B stops at the second B without outputting it', async () => {
  const o = await extract({
    pagination: { method: 'pagenum' },
    jobs: [{ endpoint: 'u' }],
    routes: {
      'GET /api/u?page=1': [{ id: 1 }],
      'GET /api/u?page=2': [{ id: 2 }],
      'GET /api/u?page=3': new RawJson('[ {"id": 2} ]'),
    },
  });
  assert.equal(o.code, 0, o.lines.join('\n'));
  assert.equal(o.requests.length, 3);
  assert.equal(o.table('u'), '"id"\n"1"\n"2"\n');
  assert.equal(logged(o, /finished when last response matched the previous/).length, 1);
});

test('progress is logged at INFO at most every 5 seconds', () => {
  const lines: string[] = [];
  const logger = createLogger({ write: (l) => lines.push(l) });
  let now = 0;
  const progress = createProgressLog(logger, () => now);
  for (let i = 0; i < 12; i++) {
    now += 1000;
    progress({ pages: 1, records: 10, job: 'users' });
  }
  const info = lines.filter((l) => l.includes('logger.INFO: Progress:'));
  assert.equal(info.length, 2);
  assert.match(info[0]!, /Progress: 5 pages, 50 records, 5 seconds elapsed \(job 'users'\)\./);
  assert.match(info[1]!, /Progress: 10 pages, 100 records, 10 seconds elapsed/);
});

test('progress lines appear on a long job (clock advanced by the server)', async () => {
  let clock = 1_700_000_000_000;
  const o = await extract({
    pagination: { method: 'pagenum' },
    jobs: [{ endpoint: 'u' }],
    nowMs: () => clock,
    onRequest: () => {
      clock += 2000;
    },
    fallback: (req) => (req.target.endsWith('page=7') ? [] : items(3, Number(req.target.slice(-1)) * 3)),
  });
  assert.equal(o.code, 0, o.lines.join('\n'));
  assert.equal(o.requests.length, 7);
  assert.ok(logged(o, /^INFO: Progress: \d+ pages, \d+ records, \d+ seconds elapsed/).length >= 2, o.messages.join('\n'));
});
