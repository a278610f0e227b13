/**
 * First-page pagination in test_request comes from src/pagination (issue 26 #1, spec 05 §4.2
 * step 5): every registered method, enumerated from the registry, answers with its first page;
 * a method registered here, unknown to src/actions, works too; a job without `scroller` under
 * named scrollers takes the run's choice instead of failing (issue 26 #4).
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createLogger } from '../../src/logging/logger.ts';
import { createScroller, paginationMethodSpecs } from '../../src/pagination/index.ts';
import { registerPaginationMethod } from '../../src/pagination/registry.ts';
import { replaceParams, requestWithParams } from '../../src/pagination/scroller.ts';
import { decodeJson } from '../../src/php/jsonDecode.ts';
import { PhpArray } from '../../src/php/value.ts';
import { json, startServer, type TestServer } from '../helpers/httpServer.ts';
import { runAction, runActionInProcess } from './run.ts';

let api: TestServer;
before(async () => {
  api = await startServer((_req, res) => json(res, 200, { items: [{ id: 1 }], next: null }));
});
after(() => api.close());

function config(pagination: unknown, job: Record<string, unknown> = {}) {
  return {
    action: 'test_request',
    parameters: {
      __SELECTED_JOB: '0',
      api: { baseUrl: `${api.url}/`, pagination },
      config: { jobs: [{ endpoint: 'items', dataField: 'items', params: { q: 'x' }, ...job }] },
    },
  };
}

/** The parameters the run's first request of a job with `params: {q: 'x'}` adds. */
function runsFirstPage(pagination: Record<string, unknown>): [string, unknown][] {
  // `multiple` hands a job without `scroller` to its `default` entry, whose own rule applies.
  if (pagination['method'] === 'multiple') {
    const entry = (pagination['scrollers'] as Record<string, Record<string, unknown>>)[pagination['default'] as string];
    return entry === undefined ? [] : runsFirstPage(entry);
  }
  const spec = paginationMethodSpecs().find((s) => s.method === pagination['method'])!;
  if (spec.helperFirstPage) return [];
  const scroller = createScroller(decodeJson(JSON.stringify(pagination), 'config'), createLogger({ write: () => {} }));
  const request = scroller.firstRequest({ config: new PhpArray(), endpoint: 'items', params: new PhpArray([['q', 'x']]) });
  return [...(request!.get('params') as PhpArray)].filter(([k]) => k !== 'q');
}

for (const spec of paginationMethodSpecs()) {
  test(`pagination '${spec.method}' (its documented example): test_request answers with the first page`, async () => {
    const before = api.requests.length;
    const r = await runAction(config(spec.example.pagination));
    assert.equal(r.code, 0, r.stderr);
    const answer = r.answer();
    assert.equal(answer.status, undefined, r.stdout);
    assert.deepEqual(answer.records, [{ id: 1 }]);
    const sent = api.requests.slice(before);
    assert.equal(sent.length, 1, 'one request: the first page only');
    const query = new URLSearchParams(sent[0]!.target.split('?')[1] ?? '');
    assert.equal(query.get('q'), 'x');
    for (const [k, v] of runsFirstPage(spec.example.pagination)) assert.equal(query.get(k), String(v), `${k} of the run's first page`);
  });
}

test('a pagination method unknown to src/actions works in test_request (registered here, in this process)', async () => {
  registerPaginationMethod({
    method: 'test-only-start-token',
    description: 'Test method: the first page carries start=first.',
    options: {},
    example: { pagination: { method: 'test-only-start-token' }, sends: '' },
    create: () => ({
      firstRequest: (job) => requestWithParams(job, replaceParams(job.params, [['start', 'first']])),
      nextRequest: () => null,
      reset: () => {},
      forChild() {
        return this;
      },
    }),
  });
  const { code, stdout } = await runActionInProcess(config({ method: 'test-only-start-token' }));
  assert.equal(code, 0);
  assert.equal(JSON.parse(stdout).request.url, `${api.url}/items?q=x&start=first`);
});

test('named scrollers and a job without `scroller`: the run takes none (or `default`); no "Paginator \'common\' not found"', async () => {
  const scrollers = { pages: { method: 'pagenum', firstPageParams: true } };
  const none = await runAction(config({ method: 'multiple', scrollers }));
  assert.equal(none.answer().request.url, `${api.url}/items?q=x`, none.stdout);
  const byDefault = await runAction(config({ method: 'multiple', scrollers, default: 'pages' }));
  assert.equal(byDefault.answer().request.url, `${api.url}/items?q=x&page=1`, byDefault.stdout);
  const childConfig = config(
    { method: 'multiple', scrollers },
    { children: [{ endpoint: 'items/{id}', dataField: 'items', placeholders: { id: 'id' } }] },
  );
  childConfig.parameters.__SELECTED_JOB = '0_0';
  const child = await runAction(childConfig);
  assert.equal(child.answer().request.url, `${api.url}/items/1`, child.stdout);
});
