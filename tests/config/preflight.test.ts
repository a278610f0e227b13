/**
 * The mistakes of issue 18 against a real local API and real data folders: each ends in a
 * WARNING or ERROR naming the key (before the first request), or works. The reference runs
 * such configurations, so a warning never stops the run unless strict mode is on.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runComponent } from '../../src/component/run.ts';
import { editDistance, nearest } from '../../src/config/suggest.ts';
import { makeDataDir, outIsEmpty, readTables, run, runIn } from '../helpers/dataDir.ts';
import { json, startServer, type TestServer } from '../helpers/httpServer.ts';

let api: TestServer;
before(async () => {
  api = await startServer((req, res) => {
    const url = new URL(req.target, 'http://x');
    if (url.pathname === '/customers') return json(res, 200, { data: { customers: [{ id: 1 }, { id: 2 }] } });
    if (/^\/customers\/\d+$/.test(url.pathname)) return json(res, 200, { id: Number(url.pathname.split('/')[2]), detail: 'x' });
    json(res, 404, { error: 'unknown' });
  });
});
after(() => api.close());

function config(api_: Record<string, unknown>, cfg: Record<string, unknown>, root: Record<string, unknown> = {}): Record<string, unknown> {
  return { ...root, parameters: { api: { baseUrl: `${api.url}/`, ...api_ }, config: { outputBucket: 'b', ...cfg } } };
}

const warnings = (lines: string[]): string[] => lines.filter((l) => l.includes('logger.WARNING:') && !l.includes('State file not found'));

describe('pre-flight warnings name the key and the fix; the run goes on', () => {
  it('a typo in a job key (dataFeild): WARNING with "did you mean", before the first request', async () => {
    const r = await run(config({}, { jobs: [{ endpoint: 'customers', dataFeild: 'data.customers' }] }));
    const w = warnings(r.lines);
    assert.match(
      w[0]!,
      /parameters\.config\.jobs\[0\]\.dataFeild: unknown key, ignored \(did you mean "dataField"\?\) \{"configPath":"parameters.config.jobs\[0\].dataFeild"\}/,
    );
    const firstRequest = r.lines.findIndex((l) => l.includes('Table ') || l.includes('GET '));
    assert.ok(r.lines.indexOf(w[0]!) < firstRequest || firstRequest === -1);
    assert.equal(r.code, 0);
  });

  it('a typo of a section (paginaton) and of the file root (paramters)', async () => {
    const r = await run({
      ...config({ paginaton: { method: 'pagenum' } }, { jobs: [{ endpoint: 'customers', dataField: 'data.customers' }] }),
      paramters: {},
    });
    const w = warnings(r.lines).join('\n');
    assert.match(w, /parameters\.api\.paginaton: unknown key, ignored \(did you mean "pagination"\?\)/);
    assert.match(w, /paramters: not a key the extractor reads \(did you mean "parameters"\?\); it is ignored\./);
    assert.equal(r.code, 0);
  });

  it('values of the wrong type the reference tolerates: params as a list, retryConfig.maxRetries "three"', async () => {
    const r = await run(
      config(
        { retryConfig: { maxRetries: 'three' } },
        { jobs: [{ endpoint: 'customers', dataField: 'data.customers', params: ['a', 'b'] }] },
      ),
    );
    const w = warnings(r.lines).join('\n');
    assert.match(w, /parameters\.config\.jobs\[0\]\.params: should be an object, not a list \(\["a","b"\]\).*Write an object/);
    assert.match(
      w,
      /parameters\.api\.retryConfig\.maxRetries: should be an integer, not a string \("three"\).*counts as 0, so no request is retried/,
    );
    assert.equal(r.code, 0);
  });

  it('unknown pagination method and auth type: the known ones and the nearest', async () => {
    const r = await run(config({ pagination: { method: 'pagenm' } }, { jobs: [{ endpoint: 'customers' }] }));
    assert.match(
      warnings(r.lines).join('\n'),
      /parameters\.api\.pagination\.method: unknown method "pagenm"; known: offset, pagenum,.* \(did you mean "pagenum"\?\)/,
    );
    assert.equal(r.code, 1); // the reference's own error follows at the job's start
    assert.match(r.lines.at(-1)!, /ERROR: Unknown pagination method 'pagenm'/);
  });

  it('a pagination option misspelled inside its method (limt) is named', async () => {
    const r = await run(
      config({ pagination: { method: 'pagenum', limt: 2 } }, { jobs: [{ endpoint: 'customers', dataField: 'data.customers' }] }),
    );
    assert.match(warnings(r.lines).join('\n'), /parameters\.api\.pagination\.limt: unknown key, ignored \(did you mean "limit"\?\)/);
  });

  it('placeholders nothing fills, a child that never runs, a level deeper than the tree', async () => {
    const r = await run(
      config(
        {},
        {
          jobs: [
            {
              endpoint: 'customers',
              dataField: 'data.customers',
              children: [
                { endpoint: 'customers/{customer_id}', placeholders: { id: 'id' } },
                { endpoint: 'customers/{id}' },
                { endpoint: 'customers/{2:id}', placeholders: { '2:id': 'id' } },
              ],
            },
          ],
        },
      ),
    );
    const w = warnings(r.lines).join('\n');
    assert.match(
      w,
      /jobs\[0\]\.children\[0\]\.endpoint: \{customer_id\} is never filled: no placeholder is named "customer_id" \(known: id\)/,
    );
    assert.match(w, /jobs\[0\]\.children\[1\]: this child job never runs/);
    assert.match(w, /jobs\[0\]\.children\[2\]\.placeholders: "2:id" asks for level 2, but this job has only 1 parent level/);
  });

  it('incremental output without a primary key', async () => {
    const r = await run(config({}, { incrementalOutput: true, jobs: [{ endpoint: 'customers', dataField: 'data.customers' }] }));
    assert.match(warnings(r.lines).join('\n'), /parameters\.config\.incrementalOutput: incremental output without a primary key/);
    const withKey = await run(
      config(
        {},
        {
          incrementalOutput: true,
          jobs: [{ endpoint: 'customers', dataField: 'data.customers' }],
          mappings: { customers: { id: { type: 'column', mapping: { destination: 'id', primaryKey: true } } } },
        },
      ),
    );
    assert.deepEqual(warnings(withKey.lines), []);
  });

  it('a near miss of a config attribute warns unless some {"attr"} reads it', async () => {
    const job = { endpoint: 'customers', dataField: 'data.customers' };
    const r = await run(config({}, { outputBuckett: 'x', jobs: [job] }));
    assert.match(
      warnings(r.lines).join('\n'),
      /parameters\.config\.outputBuckett: not a key the extractor reads \(did you mean "outputBucket"\?\); it is only an attribute/,
    );
    const read = await run(config({ http: { headers: { 'X-B': { attr: 'outputBuckett' } } } }, { outputBuckett: 'x', jobs: [job] }));
    assert.deepEqual(warnings(read.lines), []);
  });

  it('a configuration without mistakes gets no warning', async () => {
    const r = await run(
      config(
        { pagination: { method: 'offset', limit: 10 } },
        { debug: false, jobs: [{ endpoint: 'customers', dataField: 'data.customers', __NAME: 'Customers' }] },
      ),
    );
    assert.deepEqual(warnings(r.lines), []);
    assert.equal(r.code, 0);
  });
});

describe('errors made early', () => {
  it('incrementalOutput "true": the reference crashes after the extraction (exit 2); here before the first request, same message', async () => {
    const before = api.requests.length;
    const r = await run(config({}, { incrementalOutput: 'true', jobs: [{ endpoint: 'customers', dataField: 'data.customers' }] }));
    assert.equal(r.code, 2);
    assert.match(r.lines.at(-1)!, /logger\.ERROR: incrementalOutput must be a boolean\. \{"path":"parameters.config.incrementalOutput"\}/);
    assert.equal(api.requests.length, before);
    assert.ok(outIsEmpty(r.dir));
  });

  it('a trailing comma in config.json: line and column', async () => {
    const dir = makeDataDir('{"parameters": {\n  "config": {"jobs": [{"endpoint": "a"},]}\n}}');
    const r = await runIn(dir);
    assert.equal(r.code, 2);
    assert.match(
      r.lines.at(-1)!,
      /ERROR: Configuration file is not a valid JSON: Syntax error at line 2, column 41: expected another value after the comma \(remove the trailing comma\), found "\]"\./,
    );
  });

  it('strict mode: a warning stops the run before any request, exit 1, nothing written', async () => {
    const before = api.requests.length;
    const dir = makeDataDir(config({}, { jobs: [{ endpoint: 'customers', dataFeild: 'data.customers' }] }));
    const lines: string[] = [];
    const code = await runComponent({ env: { KBC_DATADIR: dir }, write: (l) => lines.push(l), strict: true });
    assert.equal(code, 1);
    assert.match(
      lines.at(-1)!,
      /ERROR: The configuration has 1 problem\(s\), listed above; strict mode .* \{"configPath":"parameters.config.jobs\[0\].dataFeild"\}/,
    );
    assert.equal(api.requests.length, before);
    assert.deepEqual(readTables(dir), {});
    assert.equal(fs.existsSync(path.join(dir, 'out', 'state.json')), false);
  });
});

describe('did you mean', () => {
  it('edit distance counts a swap of neighbours as one edit, case-insensitively', () => {
    assert.equal(editDistance('dataFeild', 'dataField'), 1);
    assert.equal(editDistance('paginaton', 'pagination'), 1);
    assert.equal(editDistance('Jobs', 'jobs'), 0);
    assert.equal(nearest('limt', ['limit', 'limitParam']), 'limit');
    assert.equal(nearest('xyz', ['limit', 'offset']), undefined);
  });
});
