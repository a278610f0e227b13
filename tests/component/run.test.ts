import { test } from 'node:test';
import assert from 'node:assert/strict';
import zlib from 'node:zlib';
import { json, serversClosedAfterTests } from '../helpers/httpServer.ts';
import { makeDataDir, outIsEmpty, run, runIn } from '../helpers/dataDir.ts';

const api = serversClosedAfterTests();

function config(baseUrl: string, jobs: unknown[], extra: Record<string, unknown> = {}, apiExtra: Record<string, unknown> = {}) {
  return { parameters: { api: { baseUrl, ...apiExtra }, config: { outputBucket: 'b', jobs, ...extra } } };
}

test('a simple job writes the table, its manifest and the state', async () => {
  const s = await api((_req, res) =>
    json(res, 200, [
      { id: 1, name: 'A', married: true },
      { id: 2, name: 'B "q"', married: false },
    ]),
  );
  const r = await run(config(`${s.url}/v1/`, [{ endpoint: 'users' }]), undefined);
  assert.equal(r.code, 0, r.lines.join('\n'));
  assert.deepEqual(r.tables(), {
    'b.users': '"id","name","married"\n"1","A","1"\n"2","B ""q""",""\n',
    'b.users.manifest': '{"destination":"in.c-b.users","incremental":false}',
  });
  assert.equal(s.requests[0]!.target, '/v1/users');
  assert.match(r.state()!, /^\{"time":\{"previousStart":\d+\},"json_parser.struct":\{"data":\{"_users":/);
  assert.ok(r.lines.at(-1)!.includes('logger.INFO: Extractor finished successfully.'));
});

test('malformed config.json is an application error (exit 2) and writes nothing', async () => {
  const dir = makeDataDir('{"parameters": ');
  const r = await runIn(dir);
  assert.equal(r.code, 2);
  assert.match(r.lines.at(-1)!, /logger\.ERROR: Configuration file is not a valid JSON: Syntax error/);
  assert.ok(outIsEmpty(dir));
});

test('wrong types in the configuration: exit 1, one line naming the config path', async () => {
  const cases: [unknown, RegExp, string][] = [
    [
      { parameters: { api: { baseUrl: 'http://x/' }, config: { jobs: 'abc' } } },
      /The 'jobs' section is required in the configuration\./,
      'parameters.config.jobs',
    ],
    [
      { parameters: { api: { baseUrl: 'http://x/' }, config: { jobs: [123] } } },
      /Job configuration must be an array: 123/,
      'parameters.config.jobs[0]',
    ],
    [
      { parameters: { api: { baseUrl: 'http://x/' }, config: { jobs: [{ params: {} }] } } },
      /The 'endpoint' property must be set in job\./,
      'parameters.config.jobs[0].endpoint',
    ],
    [
      { parameters: { api: { baseUrl: 'http://x/' }, config: { jobs: [{ endpoint: 'a', params: 'x' }] } } },
      /The 'params' property must be an array\./,
      'parameters.config.jobs[0].params',
    ],
    [
      { parameters: { api: { baseUrl: 'http://x/' }, config: { jobs: [{ endpoint: 'a', children: [{ endpoint: '' }] }] } } },
      /The 'endpoint' property must be set in job\./,
      'parameters.config.jobs[0].children[0].endpoint',
    ],
    [{ parameters: { config: { jobs: [{ endpoint: 'a' }] } } }, /The 'api' section is required in configuration\./, 'parameters.api'],
    [
      { parameters: { api: { baseUrl: 'not a url' }, config: { jobs: [{ endpoint: 'a' }] } } },
      /The 'baseUrl' attribute in API configuration is not a valid URL/,
      'parameters.api.baseUrl',
    ],
    [
      { parameters: { api: { baseUrl: 'http://x/', caCertificate: 5 }, config: { jobs: [{ endpoint: 'a' }] } } },
      /The 'caCertificate' must be string\./,
      'parameters.api.caCertificate',
    ],
  ];
  for (const [cfg, message, path] of cases) {
    const r = await run(cfg);
    assert.equal(r.code, 1, `${message}: ${r.lines.join('\n')}`);
    const last = r.lines.at(-1)!;
    assert.match(last, message);
    assert.ok(last.includes(`"configPath":"${path}"`), `${last} should name ${path}`);
    assert.ok(outIsEmpty(r.dir));
  }
});

test('an invalid JSON response fails the run with exit 1 and no output', async () => {
  const s = await api((_req, res) => json(res, 200, '<html>oops</html>'));
  const r = await run(config(`${s.url}/`, [{ endpoint: 'users' }]));
  assert.equal(r.code, 1);
  assert.match(r.lines.at(-1)!, /Invalid JSON response from API: JSON decode error: Syntax error/);
  assert.ok(outIsEmpty(r.dir));
});

test('HTTP errors after exhausted retries: exit 1, attempts = maxRetries + 1, nothing written', async () => {
  const s = await api((req, res) => (req.target.startsWith('/ok') ? json(res, 200, [{ id: 1 }]) : json(res, 503, { error: 'down' })));
  const r = await run(config(`${s.url}/`, [{ endpoint: 'ok' }, { endpoint: 'down' }], {}, { retryConfig: { maxRetries: 2 } }));
  assert.equal(r.code, 1);
  assert.equal(s.requests.filter((q) => q.target === '/down').length, 3);
  assert.match(
    r.lines.at(-1)!,
    /The API request failed: \[503\] Server error: `GET http:\/\/127\.0\.0\.1:\d+\/down` resulted in a `503 Service Unavailable` response: \{"error":"down"\}/,
  );
  assert.ok(outIsEmpty(r.dir), 'the first job succeeded but no table may be written');
});

test('retries honour Retry-After and then succeed with identical output', async () => {
  const s = await api((_req, res, i) => (i < 2 ? json(res, 429, {}, { 'Retry-After': '1' }) : json(res, 200, [{ id: 7 }])));
  const r = await run(config(`${s.url}/`, [{ endpoint: 'users' }], { debug: true }));
  assert.equal(r.code, 0, r.lines.join('\n'));
  assert.equal(r.tables()['b.users'], '"id"\n"7"\n');
  assert.equal(r.lines.filter((l) => l.includes('Http request failed, retrying in 1.0 seconds')).length, 2);
});

test('ignoreErrors turns a listed error into an errorData record', async () => {
  const s = await api((_req, res) => {
    res.writeHead(404, { 'Content-Type': 'text/plain' });
    res.end('not found');
  });
  const r = await run(config(`${s.url}/`, [{ endpoint: 'users', dataField: '.' }], {}, { http: { ignoreErrors: ['404'] } }));
  assert.equal(r.code, 0, r.lines.join('\n'));
  assert.equal(r.tables()['b.users'], '"errorData"\n"not found"\n');
  assert.ok(r.lines.some((l) => l.includes('logger.WARNING: Failed to get response Client error: `GET')));
});

test('POST and FORM bodies, default options and header precedence', async () => {
  const s = await api((_req, res) => json(res, 200, []));
  const r = await run(
    config(
      `${s.url}/api/`,
      [
        { endpoint: 'p', method: 'POST', params: { q: 'a/b é', n: 1.5, big: 1e20, e: {} } },
        { endpoint: 'f', method: 'form', params: { user: 'John Doe', pass: 'p&ss=1', b: false } },
        { endpoint: 'g?lang=cs&page=1', params: { page: 2, tags: ['a b', 'c'], since: null } },
      ],
      { http: { headers: { 'X-Key': 'k', Accept: 'text/plain' } } },
      {
        http: {
          headers: { Accept: 'application/json' },
          defaultOptions: { params: { account: 7, lang: 'en' }, headers: { 'X-Trace': 'on', Accept: 'x/y' } },
        },
      },
    ),
  );
  assert.equal(r.code, 0, r.lines.join('\n'));
  const [p, f, g] = s.requests;
  assert.equal(p!.body, '{"account":7,"lang":"en","q":"a\\/b \\u00e9","n":1.5,"big":1.0e+20,"e":[]}');
  assert.equal(p!.headers['content-type'], 'application/json');
  assert.equal(f!.body, 'account=7&lang=en&user=John+Doe&pass=p%26ss%3D1&b=0');
  assert.equal(f!.headers['content-type'], 'application/x-www-form-urlencoded');
  assert.equal(g!.target, '/api/g?lang=en&page=2&account=7&tags%5B0%5D=a+b&tags%5B1%5D=c');
  assert.equal(g!.headers['accept'], 'x/y', 'request headers override client headers');
  assert.equal(g!.headers['x-key'], 'k');
  assert.equal(g!.headers['user-agent'], 'GuzzleHttp/7');
});

test('gzip responses are decoded; debug lines hide credentials and # secrets', async () => {
  const s = await api((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' });
    res.end(zlib.gzipSync(JSON.stringify([{ id: 1 }])));
  });
  const r = await run({
    parameters: {
      api: { baseUrl: `${s.url}/`, http: { headers: { Authorization: 'Bearer tok-123', 'X-Api-Key': { attr: '#key' } } } },
      config: { debug: true, '#key': 'sekret-value', outputBucket: 'b', jobs: [{ endpoint: 'users' }] },
    },
  });
  assert.equal(r.code, 0, r.lines.join('\n'));
  assert.equal(s.requests[0]!.headers['x-api-key'], 'sekret-value');
  const all = r.lines.join('\n');
  assert.ok(!all.includes('sekret-value') && !all.includes('tok-123'), all);
  assert.match(
    all,
    /GET \/users HTTP\/1\.1 Authorization: \[hidden\] X-Api-Key: \[hidden\] User-Agent: GuzzleHttp\/7 Host: 127\.0\.0\.1:\d+/,
  );
});

test('time.previousStart from the input state reaches functions and the new state', async () => {
  const s = await api((_req, res) => json(res, 200, [{ id: 1 }]));
  const r = await run(config(`${s.url}/`, [{ endpoint: 'users', params: { since: { time: 'previousStart' } } }]), {
    time: { previousStart: 1492606006 },
    other: 'kept',
  });
  assert.equal(r.code, 0, r.lines.join('\n'));
  assert.equal(s.requests[0]!.target, '/users?since=1492606006');
  assert.match(r.state()!, /^\{"time":\{"previousStart":\d{10}\},"other":"kept","json_parser.struct":/);
});

test('--strict with a sync action: one ERROR line, exit 1, nothing sent; EX_GENERIC_STRICT does not apply to actions', async () => {
  const extractor = await import('../../src/extractor.ts');
  const s = await api((_req, res) => json(res, 200, [{ id: 1 }]));
  // A configuration warning (unknown key) that strict mode would stop a run for.
  const dir = makeDataDir({
    action: 'test_request',
    parameters: { __SELECTED_JOB: '0', api: { baseUrl: `${s.url}/` }, config: { jobs: [{ endpoint: 'users', dataFeild: 'x' }] } },
  });
  const lines: string[] = [];
  const code = await extractor.run({ env: { KBC_DATADIR: dir }, write: (l) => lines.push(l), strict: true });
  assert.equal(code, 1, lines.join('\n'));
  assert.equal(lines.length, 1, lines.join('\n'));
  assert.match(
    lines[0]!,
    /logger\.ERROR: --strict applies to a run \(and to validate and plan\), not to the sync action "test_request" set by "action" in config\.json: remove it, or set "action" to "run"\. \{"configPath":"action"\} \[\]$/,
  );
  assert.equal(s.requests.length, 0);
  // The environment's strict mode is for runs: the action answers its JSON as usual.
  let answer = '';
  const envLines: string[] = [];
  const stdoutWrite = process.stdout.write;
  process.stdout.write = ((chunk: string) => {
    answer += chunk;
    return true;
  }) as typeof process.stdout.write;
  let envCode: number;
  try {
    envCode = await extractor.run({ env: { KBC_DATADIR: dir, EX_GENERIC_STRICT: '1' }, write: (l) => envLines.push(l) });
  } finally {
    process.stdout.write = stdoutWrite;
  }
  assert.equal(envCode, 0, envLines.join('\n'));
  assert.deepEqual(envLines, []);
  assert.match(answer, /"records": \[\{"id": 1\}\]/);
  assert.equal(s.requests.length, 1);
});

test('a non-boolean incrementalOutput is an application error', async () => {
  const s = await api((_req, res) => json(res, 200, [{ id: 1 }]));
  const r = await run(config(`${s.url}/`, [{ endpoint: 'users' }], { incrementalOutput: 1 }));
  assert.equal(r.code, 2);
  assert.ok(outIsEmpty(r.dir));
});

test('--max-pages / --max-records with a sync action in config.json: one ERROR line, exit 1, nothing sent', async () => {
  const extractor = await import('../../src/extractor.ts');
  const s = await api((_req, res) => json(res, 200, [{ id: 1 }]));
  const dir = makeDataDir({
    action: 'test_request',
    parameters: { __SELECTED_JOB: '0', api: { baseUrl: `${s.url}/` }, config: { jobs: [{ endpoint: 'users' }] } },
  });
  for (const limits of [{ maxPages: 1 }, { maxRecords: 5 }]) {
    const lines: string[] = [];
    const code = await extractor.run({ env: { KBC_DATADIR: dir }, write: (l) => lines.push(l), limits });
    assert.equal(code, 1, lines.join('\n'));
    assert.equal(lines.length, 1, lines.join('\n'));
    assert.match(
      lines[0]!,
      /logger\.ERROR: --max-pages and --max-records apply to a run, not to the sync action "test_request" set by "action" in config\.json: remove them, or set "action" to "run"\. \{"configPath":"action"\} \[\]$/,
    );
  }
  assert.equal(s.requests.length, 0);
  // Without the limits the action answers as usual.
  const lines: string[] = [];
  assert.equal(await extractor.run({ env: { KBC_DATADIR: dir }, write: (l) => lines.push(l) }), 0, lines.join('\n'));
  assert.equal(s.requests.length, 1);
});
