/**
 * The examples each pagination method registers (rendered in docs/pagination.md) send the
 * requests their text describes, against a real local API.
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { json, startServer, type Received, type TestServer } from '../helpers/httpServer.ts';
import { run } from '../helpers/dataDir.ts';
import { getPaginationMethod, paginationMethods } from '../../src/pagination/registry.ts';
import '../../src/pagination/index.ts';

const servers: TestServer[] = [];
after(async () => {
  for (const s of servers) await s.close();
});

const records = (n: number, from = 1): { id: number }[] => Array.from({ length: n }, (_, i) => ({ id: from + i }));
const query = (q: Received): URLSearchParams => new URLSearchParams(q.target.split('?')[1] ?? '');

/** Per method: the API's answers, the job's endpoint, and the request targets the text promises. */
const CASES: Record<string, { endpoint?: string; answer: (q: Received, base: string) => unknown; targets: string[] }> = {
  offset: {
    answer: (q) => (query(q).get('offset') === '0' ? records(100) : records(20, 101)),
    targets: ['/v1/users?limit=100&offset=0', '/v1/users?limit=100&offset=100'],
  },
  pagenum: {
    answer: (q) => (query(q).get('page') === '1' ? records(50) : records(3, 51)),
    targets: ['/v1/users?page=1&per_page=50', '/v1/users?page=2&per_page=50'],
  },
  'response.url': {
    answer: (q) =>
      q.target === '/v1/users' ? { items: records(2), links: { next: 'users?after=2' } } : { items: records(1, 3), links: {} },
    targets: ['/v1/users', '/v1/users?after=2'],
  },
  'response.param': {
    answer: (q) => (q.target === '/v1/users' ? { items: records(2), meta: { next_token: 'abc' } } : { items: records(1, 3), meta: {} }),
    targets: ['/v1/users', '/v1/users?token=abc'],
  },
  cursor: {
    answer: (q) => (q.target === '/v1/users' ? records(2) : query(q).get('since_id') === '2' ? records(1, 3) : []),
    targets: ['/v1/users', '/v1/users?since_id=2', '/v1/users?since_id=3'],
  },
  multiple: {
    answer: (q) => (query(q).get('page') === '1' ? records(2) : []),
    targets: ['/v1/users?page=1', '/v1/users?page=2'],
  },
  'zendesk.response.url': {
    endpoint: 'incremental/tickets.json?start_time=0',
    answer: (q, base) =>
      q.target.includes('start_time=0')
        ? { tickets: records(2), next_page: `${base}/v1/incremental/tickets.json?start_time=1000` }
        : { tickets: records(1, 3), next_page: null },
    targets: ['/v1/incremental/tickets.json?start_time=0', '/v1/incremental/tickets.json?start_time=1000'],
  },
};

for (const method of paginationMethods()) {
  test(`the '${method}' example sends what docs/pagination.md says`, async () => {
    const c = CASES[method];
    assert.ok(c, `no case for the '${method}' example: add one`);
    const { example } = getPaginationMethod(method, method, 'parameters.api.pagination');
    let base = '';
    const s = await startServer((q, res) => json(res, 200, c.answer(q, base)));
    base = s.url;
    servers.push(s);
    const r = await run({
      parameters: {
        api: { baseUrl: `${s.url}/v1/`, pagination: example.pagination },
        config: { outputBucket: 'b', jobs: [{ endpoint: c.endpoint ?? 'users', dataType: 'users' }] },
      },
    });
    assert.equal(r.code, 0, r.lines.join('\n'));
    assert.deepEqual(
      s.requests.map((q) => q.target),
      c.targets,
    );
  });
}
