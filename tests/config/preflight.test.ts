/**
 * The mistakes of issue 18 against a real local API and real data folders: each ends in a
 * WARNING or ERROR naming the key (before the first request), or works. The reference runs
 * such configurations, so a warning never stops the run unless strict mode is on.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { validate } from '../../src/component/dryRun.ts';
import * as extractor from '../../src/extractor.ts';
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

  it('a key with a space or a dot is written ["key"] in every path; values are shown as plain JSON', async () => {
    const r = await run(
      config(
        { pagination: { method: 'pagenum', pageParam: ['page/no'] } },
        {
          jobs: [{ endpoint: 'customers', dataField: 'data.customers', params: { 'page size': '{limit}' } }],
          mappings: { 'my table': { id: 'id' } },
        },
      ),
    );
    const w = warnings(r.lines).join('\n');
    assert.match(w, /WARNING: parameters\.config\.jobs\[0\]\.params\["page size"\]: "\{limit\}" is sent as it is/);
    assert.match(w, /WARNING: parameters\.config\.mappings\["my table"\]: no job has the dataType "my table"/);
    assert.match(w, /WARNING: parameters\.api\.pagination\.pageParam: should be a string, not a list \(\["page\/no"\]\)/);
    assert.ok(!w.includes('\\/'), w);
    assert.equal(r.code, 0, r.lines.join('\n'));
    assert.match(api.requests.at(-1)!.target, /^\/customers\?page\+size=%7Blimit%7D/);
  });

  it('a value of the wrong type the reference stops on: the warning says the run stops, not that it is tolerated', async () => {
    const dir = makeDataDir(
      config(
        {},
        {
          jobs: [
            { endpoint: 'customers', dataField: 'data.customers', id: 42 },
            { endpoint: 'orders', id: [] },
          ],
        },
      ),
    );
    const lines: string[] = [];
    await validate({ env: { KBC_DATADIR: dir }, write: (l) => lines.push(l) });
    const w = warnings(lines).join('\n');
    assert.match(
      w,
      /parameters\.config\.jobs\[0\]\.id: should be a string, not an integer \(42\); the run fails on it, as the reference does\./,
    );
    assert.match(w, /parameters\.config\.jobs\[1\]\.id: should be a string, not a list \(\[\]\); the value is tolerated/);
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

  it('a job key in the wrong case (Params, Children): one "unknown key" WARNING each, not an attribute', async () => {
    const r = await run(config({}, { jobs: [{ endpoint: 'customers', dataField: 'data.customers', Params: { a: 1 }, Children: [] }] }));
    const w = warnings(r.lines);
    assert.deepEqual(
      w.map((l) => /WARNING: (\S+): (.*?) \{/.exec(l)?.slice(1, 3).join(': ')),
      [
        'parameters.config.jobs[0].Params: unknown key, ignored (did you mean "params"?)',
        'parameters.config.jobs[0].Children: unknown key, ignored (did you mean "children"?)',
      ],
    );
    assert.equal(r.code, 0);
  });

  it('timeouts the reference replaces by its default (text that is not a number, a negative number): a WARNING each', async () => {
    const r = await run(
      config({ http: { requestTimeout: 'abc', connectTimeout: -5 } }, { jobs: [{ endpoint: 'customers', dataField: 'data.customers' }] }),
    );
    const w = warnings(r.lines).join('\n');
    assert.match(
      w,
      /parameters\.api\.http\.requestTimeout: "abc" is not a value the extractor accepts here .*"abc" is not a number: it counts as the default of 300 seconds/,
    );
    assert.match(
      w,
      /parameters\.api\.http\.connectTimeout: -5 is below the minimum 0; .*-5 is not a positive number: it counts as the default of 30 seconds/,
    );
    assert.equal(r.code, 0);
    // Issue 33: the warning comes from the reader the run uses, so it is there exactly when the
    // value is not used as written: 0 and "45 " (not numeric to PHP 7.4) are the default too.
    const defaults = await run(
      config({ http: { requestTimeout: '45 ', connectTimeout: 0 } }, { jobs: [{ endpoint: 'customers', dataField: 'data.customers' }] }),
    );
    const d = warnings(defaults.lines).join('\n');
    assert.match(
      d,
      /requestTimeout: "45 " is not a value the extractor accepts here .*"45 " is not a number: it counts as the default of 300 seconds/,
    );
    assert.match(d, /connectTimeout: 0 does not turn the timeout off: it counts as the default of 30 seconds/);
    const clean = await run(
      config({ http: { requestTimeout: ' 45', connectTimeout: 2.5 } }, { jobs: [{ endpoint: 'customers', dataField: 'data.customers' }] }),
    );
    assert.deepEqual(warnings(clean.lines), []);
  });

  it('jobs given by an iteration are checked as jobs; a one-letter attribute is no typo of "id"', async () => {
    const cfg = config({}, { jobs: [{ endpoint: 'customers', dataField: 'data.customers' }] });
    (cfg['parameters'] as Record<string, unknown>)['iterations'] = [
      { x: 1 },
      { jobs: [{ endpoint: 'customers', dataFeild: 'data.customers' }] },
    ];
    const w = warnings((await run(cfg)).lines).filter((l) => l.includes('WARNING: parameters.'));
    assert.equal(w.length, 1, w.join('\n'));
    assert.match(w[0]!, /parameters\.iterations\[1\]\.jobs\[0\]\.dataFeild: unknown key, ignored \(did you mean "dataField"\?\)/);
  });

  it('keys of the UI builder under parameters (__SELECTED_JOB, __CURL_COMMAND) are no typos', async () => {
    const cfg = config({}, { jobs: [{ endpoint: 'customers', dataField: 'data.customers' }] });
    Object.assign(cfg['parameters'] as Record<string, unknown>, { __SELECTED_JOB: '0', __NESTING_LEVEL: 2, __CURL_COMMAND: 'curl x' });
    assert.deepEqual(
      warnings((await run(cfg)).lines).filter((l) => l.includes('WARNING: parameters.')),
      [],
    );
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

  it('placeholders written as a list: the child runs (names 0, 1, …), so no "never runs" warning', async () => {
    const before = api.requests.length;
    const r = await run(
      config(
        {},
        {
          jobs: [{ endpoint: 'customers', dataField: 'data.customers', children: [{ endpoint: 'customers/{id}', placeholders: ['id'] }] }],
        },
      ),
    );
    const w = warnings(r.lines).join('\n');
    assert.doesNotMatch(w, /never runs/);
    // As the loop names them: the list's only placeholder is "0", so {id} is never filled.
    assert.match(w, /jobs\[0\]\.children\[0\]\.endpoint: \{id\} is never filled: no placeholder is named "id" \(known: 0\)/);
    // The child runs: its first request goes out (literally; this API answers 404 to it).
    const sent = api.requests.slice(before).map((q) => q.target);
    assert.ok(sent.includes('/customers/%7Bid%7D'), `${sent.join(' ')}\n${r.lines.join('\n')}`);
  });

  it('incremental output without a primary key is not a pre-flight finding (advice per table at the end: tests/component/bucketOutputs.test.ts)', async () => {
    const r = await run(config({}, { incrementalOutput: true, jobs: [{ endpoint: 'customers', dataField: 'data.customers' }] }));
    assert.deepEqual(warnings(r.lines), []);
    assert.equal(r.code, 0);
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

  it('keys in the wrong place: api keys under config, pagination in a job, sshProxy at the root', async () => {
    const r = await run({
      ...config({}, { pagination: { method: 'pagenum' }, jobs: [{ endpoint: 'customers', dataField: 'data.customers', pagination: {} }] }),
      sshProxy: {},
    });
    const w = warnings(r.lines).join('\n');
    assert.match(w, /parameters\.config\.pagination: not read here, so it is ignored; it belongs in parameters\.api\.pagination\./);
    assert.match(
      w,
      /parameters\.config\.jobs\[0\]\.pagination: not read here, so it is ignored; it belongs in parameters\.api\.pagination/,
    );
    assert.match(w, /sshProxy: not read here, so it is ignored; it belongs in parameters\.sshProxy\./);
    assert.equal(r.code, 0);
  });

  it('a baseUrl without a trailing "/" that a relative endpoint cuts short', async () => {
    const r = await run(config({ baseUrl: `${api.url}/v1` }, { jobs: [{ endpoint: 'customers', dataField: 'data.customers' }] }));
    assert.match(
      warnings(r.lines).join('\n'),
      /parameters\.api\.baseUrl: "http:\/\/127\.0\.0\.1:\d+\/v1" does not end with "\/", so a relative endpoint replaces its last segment "v1": "customers" is requested as http:\/\/127\.0\.0\.1:\d+\/customers\. End baseUrl with "\/" to keep "v1"\./,
    );
    assert.equal(r.code, 0);
    assert.equal(readTables(r.dir)['b.customers'], '"id"\n"1"\n"2"\n');
  });

  it('an endpoint with a leading "/" drops the base path; the query of baseUrl is never sent', async () => {
    const r = await run(config({ baseUrl: `${api.url}/v1/?key=abc` }, { jobs: [{ endpoint: '/customers', dataField: 'data.customers' }] }));
    const w = warnings(r.lines).join('\n');
    assert.match(
      w,
      /parameters\.config\.jobs\[0\]\.endpoint: "\/customers" starts with "\/", so it replaces the path "\/v1\/" of baseUrl \(requested as http:\/\/127\.0\.0\.1:\d+\/customers\)/,
    );
    assert.match(w, /parameters\.api\.baseUrl: its query \("\?key=abc"\) is never sent/);
    assert.equal(r.code, 0);
    assert.equal(api.requests.at(-1)!.target, '/customers');
  });

  it('{templates} in header and parameter values, a bucket with its stage prefix', async () => {
    const r = await run(
      config(
        { http: { headers: { Authorization: 'Bearer {{#token}}' } } },
        {
          outputBucket: 'in.c-crm',
          '#token': 'secret-token-1',
          jobs: [
            {
              endpoint: 'customers',
              dataField: 'data.customers',
              children: [{ endpoint: 'customers/{id}', placeholders: { id: 'id' }, params: { customer: '{id}' } }],
            },
          ],
        },
      ),
    );
    const w = warnings(r.lines).join('\n');
    assert.match(
      w,
      /parameters\.api\.http\.headers\.Authorization: "\{\{#token\}\}" is sent as it is: only job endpoints fill \{placeholders\}/,
    );
    assert.match(w, /parameters\.config\.jobs\[0\]\.children\[0\]\.params\.customer: "\{id\}" is sent as it is/);
    assert.match(
      w,
      /parameters\.config\.outputBucket: "in\.c-crm" already has the stage prefix; tables go to in\.c-in\.c-crm\.<table>\. Write the bucket name without it: "crm"\./,
    );
  });

  it('keys one level off: jobs under parameters, basic credentials under authentication, maxRetries under retryConfig.http', async () => {
    const doc = config(
      { authentication: { type: 'basic', username: 'u' }, retryConfig: { http: { maxRetries: 2, codes: ['503'] }, codes: [502] } },
      { jobs: [{ endpoint: 'customers', dataField: 'data.customers' }] },
    );
    (doc['parameters'] as Record<string, unknown>)['jobs'] = [];
    const r = await run(doc);
    const w = warnings(r.lines).join('\n');
    assert.match(w, /parameters\.jobs: not read here, so it is ignored; it belongs in parameters\.config\.jobs\./);
    assert.match(
      w,
      /parameters\.api\.authentication\.username: not read here, so it is ignored; it belongs in parameters\.config\.username\./,
    );
    assert.match(
      w,
      /parameters\.api\.retryConfig\.http\.maxRetries: not read here, so it is ignored; it belongs in parameters\.api\.retryConfig\.maxRetries/,
    );
    assert.match(
      w,
      /parameters\.api\.retryConfig\.codes: not read here, so it is ignored; it belongs in parameters\.api\.retryConfig\.http\.codes/,
    );
    assert.match(w, /parameters\.api\.retryConfig\.http\.codes\[0\]: should be an integer, not a string \("503"\).*never matches/);
  });

  it('an attribute name written as text ("#token") and a mapping whose key matches no dataType', async () => {
    const r = await run(
      config(
        { authentication: { type: 'query', query: { api_key: '#apiKey' } }, http: { headers: { Authorization: 'Bearer #apiKey' } } },
        {
          '#apiKey': 'k-123456',
          endpoint: 'customers',
          jobs: [{ endpoint: 'customers', dataField: 'data.customers' }],
          mappings: { customer: { id: 'id' } },
        },
      ),
    );
    const w = warnings(r.lines).join('\n');
    assert.match(
      w,
      /parameters\.api\.authentication\.query\.api_key: sends the text "#apiKey", not the value of the attribute #apiKey\. Write \{"attr": "#apiKey"\}\./,
    );
    assert.match(
      w,
      /parameters\.api\.http\.headers\.Authorization: sends the text "#apiKey".*Write \{"function": "concat", "args": \["Bearer ", \{"attr": "#apiKey"\}\]\}\./,
    );
    assert.match(
      w,
      /parameters\.config\.mappings\.customer: no job has the dataType "customer", so this mapping is never used .*\(did you mean "customers"\?\)/,
    );
    assert.match(
      w,
      /parameters\.config\.endpoint: not read here, so it is ignored; it belongs in a job: parameters\.config\.jobs\[\]\.endpoint\./,
    );
    assert.doesNotMatch(w, /k-123456/);
  });

  it('a recursionFilter the reference rejects only when the child first runs', async () => {
    const r = await run(
      config(
        {},
        {
          jobs: [
            {
              endpoint: 'customers',
              dataField: 'data.customers',
              children: [{ endpoint: 'customers/{id}', placeholders: { id: 'id' }, recursionFilter: 'id' }],
            },
          ],
        },
      ),
    );
    assert.match(
      warnings(r.lines).join('\n'),
      /jobs\[0\]\.children\[0\]\.recursionFilter: Error creating a filter from id: Operator couldn't be determined.* The run fails when this child job first runs\./,
    );
    assert.equal(r.code, 1);
  });

  it('a run shows at most 25 findings and says how many more there are', async () => {
    const jobs = Array.from({ length: 30 }, (_, i) => ({ endpoint: `customers?i=${i}`, dataField: 'data.customers', dataFeild: 'x' }));
    const r = await run(config({}, { jobs }));
    const w = warnings(r.lines);
    assert.equal(w.length, 26);
    assert.match(w[25]!, /… and 5 more configuration warning\(s\); `ex-generic validate` lists them all\./);
    assert.equal(r.code, 0);
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
  it('incrementalOutput "true": a WARNING before the first request, exit 2 after the extraction as in the reference', async () => {
    const before = api.requests.length;
    const r = await run(config({}, { incrementalOutput: 'true', jobs: [{ endpoint: 'customers', dataField: 'data.customers' }] }));
    assert.equal(r.code, 2);
    assert.ok(
      r.lines.some((l) => l.includes('WARNING: parameters.config.incrementalOutput is not a boolean: this run will fail with')),
      r.lines.join('\n'),
    );
    assert.match(
      r.lines.at(-2)!,
      /logger\.ERROR: incrementalOutput must be a boolean\. \{"configPath":"parameters.config.incrementalOutput"\}/,
    );
    assert.match(r.lines.at(-1)!, /logger\.INFO: Set incrementalOutput to true or false\./);
    assert.equal(api.requests.length, before + 1);
    assert.ok(outIsEmpty(r.dir));
  });

  it('incrementalOutput "true" and an HTTP error during the extraction: the user error wins (exit 1), as in the reference (issue 22)', async () => {
    const r = await run(config({}, { incrementalOutput: 'true', jobs: [{ endpoint: 'missing' }] }));
    assert.equal(r.code, 1);
    assert.match(r.lines.at(-1)!, /logger\.ERROR: The API request failed: \[404\]/);
    assert.ok(outIsEmpty(r.dir));
  });

  it("a later iteration's or job's start-up error (auth, pagination, request) comes before the first request, with the reference's message", async () => {
    const before = api.requests.length;
    const iterations = await run({
      parameters: {
        api: { baseUrl: `${api.url}/`, authentication: { type: 'basic' } },
        config: { outputBucket: 'b', username: 'u', password: 'p', jobs: [{ endpoint: 'customers', dataField: 'data.customers' }] },
        iterations: [{}, { password: '' }],
      },
    });
    assert.equal(iterations.code, 1);
    assert.match(iterations.lines.at(-1)!, /ERROR: Missing the required '#password' attribute in config\./);
    const jobs = await run(
      config(
        {},
        {
          jobs: [
            { endpoint: 'customers', dataField: 'data.customers' },
            { endpoint: 'customers', method: 'PUT' },
          ],
        },
      ),
    );
    assert.equal(jobs.code, 1);
    assert.match(
      jobs.lines.at(-1)!,
      /ERROR: The "method" property must be on of "GET", "POST", "FORM"\. \{"configPath":"parameters\.config\.jobs\[1\]\.method"\}/,
    );
    assert.equal(api.requests.length, before);
  });

  it('a configuration the reference rejects: the schema findings that explain it come first (run and validate)', async () => {
    const doc = config({}, { jobs: [{ Endpoint: 'customers', dataField: 'data.customers' }] });
    const validateLines: string[] = [];
    const validateCode = await validate({ env: { KBC_DATADIR: makeDataDir(doc) }, write: (l) => validateLines.push(l) });
    for (const r of [await run(doc), { code: validateCode, lines: validateLines }]) {
      assert.equal(r.code, 1);
      const w = warnings(r.lines);
      assert.equal(w.length, 1, r.lines.join('\n'));
      assert.match(w[0]!, /parameters\.config\.jobs\[0\]\.Endpoint: unknown key, ignored \(did you mean "endpoint"\?\)/);
      assert.match(r.lines.at(-1)!, /ERROR: The 'endpoint' property must be set in job\./);
    }
  });

  it('a configuration the reference rejects: findings that need the parsed configurations come first too (run and validate)', async () => {
    const cases = [
      // The reference's check of the config section fails (a job without endpoint).
      {
        doc: config({}, { outputBucket: 'in.c-crm', jobs: [{ Endpoint: 'customers', dataField: 'data.customers' }] }),
        error: /ERROR: The 'endpoint' property must be set in job\./,
        warnings: [
          /parameters\.config\.jobs\[0\]\.Endpoint: unknown key/,
          /parameters\.config\.outputBucket: "in\.c-crm" already has the stage prefix/,
        ],
      },
      // … in an iteration's jobs: the iteration's path.
      {
        doc: {
          parameters: {
            api: { baseUrl: `${api.url}/` },
            config: { outputBucket: 'b', jobs: [{ endpoint: 'customers' }] },
            iterations: [{ outputBucket: 'out.c-crm', jobs: [{ dataField: 'x' }] }],
          },
        },
        error: /ERROR: The 'endpoint' property must be set in job\./,
        warnings: [/parameters\.iterations\[0\]\.outputBucket: "out\.c-crm" already has the stage prefix/],
      },
      // A platform section fails its check after the configurations passed theirs.
      {
        doc: { ...config({}, { outputBucket: 'in.c-crm', jobs: [{ endpoint: 'customers', dataField: 'data.customers' }] }) },
        ssh: true,
        error: /ERROR: Missing parameters 'user,host,port,#privateKey' in SSH config\./,
        warnings: [/parameters\.config\.outputBucket: "in\.c-crm" already has the stage prefix/],
      },
    ];
    for (const c of cases) {
      const doc = c.ssh ? { ...c.doc, parameters: { ...(c.doc['parameters'] as object), sshProxy: {} } } : c.doc;
      const before = api.requests.length;
      const validateLines: string[] = [];
      const validateCode = await validate({ env: { KBC_DATADIR: makeDataDir(doc) }, write: (l) => validateLines.push(l) });
      for (const r of [await run(doc), { code: validateCode, lines: validateLines }]) {
        assert.equal(r.code, 1, r.lines.join('\n'));
        const w = warnings(r.lines);
        assert.equal(w.length, c.warnings.length, r.lines.join('\n'));
        for (const [i, pattern] of c.warnings.entries()) assert.match(w[i]!, pattern);
        assert.match(r.lines.at(-1)!, c.error);
      }
      assert.equal(api.requests.length, before);
    }
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

  it('a byte order mark before the JSON: named (PHP refuses it with "Syntax error" alone)', async () => {
    const r = await runIn(makeDataDir('\uFEFF{"parameters": {"config": {"jobs": [{"endpoint": "a"}]}}}'));
    assert.equal(r.code, 2);
    assert.match(
      r.lines.at(-1)!,
      /ERROR: Configuration file is not a valid JSON: Syntax error at line 1, column 1: the file starts with a byte order mark \(BOM\)/,
    );
  });

  it('strict mode: a warning stops the run before any request, exit 1, nothing written', async () => {
    const before = api.requests.length;
    const dir = makeDataDir(config({}, { jobs: [{ endpoint: 'customers', dataFeild: 'data.customers' }] }));
    const lines: string[] = [];
    const code = await extractor.run({ env: { KBC_DATADIR: dir }, write: (l) => lines.push(l), strict: true });
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
