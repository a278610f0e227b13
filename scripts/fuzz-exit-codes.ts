/**
 * Throwaway fuzzer for exit codes (issue 22 class 4): random broken configurations and quirky
 * responses against a local server, run in-process through the extractor's run command. Records every run that
 * exits 2 or prints a stack trace, grouped by the first line of the error.
 *
 *   node scripts/fuzz-exit-codes.ts [count] [seed] [data]
 *
 * `data`: valid configurations, quirky responses only. FUZZ_WORKER=always runs the output phase
 * on the worker thread. Findings (config, responses, message) go to /tmp/fuzz-exit-codes-<seed>.json.
 *
 * Not part of the test suite: a search tool. Each class it finds gets a real test under tests/.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as extractor from '../src/extractor.ts';

const count = Number(process.argv[2] ?? 300);
/** `data`: valid configurations, quirky responses only. */
const dataMode = process.argv[4] === 'data';
let seed = Number(process.argv[3] ?? Date.now() % 100000);
const startSeed = seed;
function rnd(): number {
  // mulberry32
  seed = (seed + 0x6d2b79f5) | 0;
  let t = seed;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
const pick = <T>(a: readonly T[]): T => a[Math.floor(rnd() * a.length)]!;
const chance = (p: number): boolean => rnd() < p;

function deep(n: number): unknown {
  let v: unknown = 1;
  for (let i = 0; i < n; i++) v = chance(0.5) ? { a: v } : [v];
  return v;
}
const FUNCS = [
  'concat',
  'md5',
  'sha1',
  'base64_encode',
  'time',
  'date',
  'strtotime',
  'sprintf',
  'ifempty',
  'implode',
  'hash',
  'hash_hmac',
  'string_to_date',
  'urlencode',
  'nope',
];
function randomFunction(depth = 0): unknown {
  const args: unknown[] = [];
  const n = Math.floor(rnd() * 4);
  for (let i = 0; i < n; i++) args.push(randomScalarOrRef(depth + 1));
  const f: Record<string, unknown> = { function: pick(FUNCS) };
  if (chance(0.8)) f['args'] = chance(0.1) ? pick([{}, 'x', 5, null, { a: 1 }]) : args;
  return f;
}
function randomScalarOrRef(depth: number): unknown {
  if (depth < 3 && chance(0.2)) return randomFunction(depth);
  return pick([
    'x',
    '',
    '日本',
    0,
    -1,
    1.5,
    1e308,
    'BIGINT',
    'INF',
    true,
    false,
    null,
    [],
    {},
    [1, 'a'],
    { a: 1 },
    { attr: 'a' },
    { attr: 'missing' },
    { attr: {} },
    { attr: 5 },
    { time: 'previousStart' },
    { time: 'nope' },
    { placeholder: 'value' },
    { response: 'x' },
    'Y-m-d',
    '%s-%d',
    '%1$s %2$z',
    'md5',
    'sha256',
    'nope-algo',
    '-1 day',
  ]);
}
function randomValue(): unknown {
  if (chance(0.1)) return deep(1 + Math.floor(rnd() * 30));
  if (chance(0.15)) return randomFunction();
  if (chance(0.05)) return 'x'.repeat(5000);
  return randomScalarOrRef(0);
}
function randomResponse(depth = 0): unknown {
  const r = rnd();
  if (depth > 3) return pick([1, 'a', null, true, 1.5, [], {}]);
  if (r < 0.35) {
    const list: unknown[] = [];
    const n = Math.floor(rnd() * 4);
    for (let i = 0; i < n; i++) list.push(randomResponse(depth + 1));
    return list;
  }
  if (r < 0.75) {
    const o: Record<string, unknown> = {};
    const n = Math.floor(rnd() * 4);
    for (let i = 0; i < n; i++)
      o[
        pick([
          'id',
          'data',
          'items',
          'next',
          'a',
          'b',
          '[]',
          '',
          '0',
          '12',
          'ž',
          'JSON_parentId',
          'nodeType',
          'next_page',
          'has_more',
          'cursor',
        ])
      ] = randomResponse(depth + 1);
    return o;
  }
  return pick([1, 'a', null, true, false, 0, 1.5, -3, '', 'http://127.0.0.1:1/x', 1e30, 'next', 'INF', 'BIG', 'users?x=1']);
}

const PAGINATIONS: unknown[] = [
  { method: 'offset', limit: 2 },
  { method: 'pagenum' },
  { method: 'response.url' },
  { method: 'response.url', urlKey: 'next', paramIsQuery: true },
  { method: 'response.param', responseParam: 'next', queryParam: 'p' },
  { method: 'cursor', idKey: 'id', param: 'since' },
  { method: 'multiple', scrollers: { a: { method: 'pagenum' } } },
  { method: 'zendesk.response.url' },
  { method: 'offset', limit: 2, limitStop: { count: 3 } },
  { method: 'pagenum', nextPageFlag: { field: 'has_more', stopOn: false } },
  { method: 'pagenum', forceStop: { pages: 2 } },
];
const AUTHS: unknown[] = [
  { type: 'basic' },
  { type: 'query', query: { k: { attr: 'a' } } },
  { type: 'login', loginRequest: { endpoint: 'login' }, apiRequest: { headers: { X: 'token' } } },
  { type: 'bearer' },
  { type: 'oauth10' },
  {
    type: 'oauth20',
    format: 'json',
    headers: { Authorization: { function: 'concat', args: ['Bearer ', { authorization: 'data.access_token' }] } },
  },
  { type: 'oauth20.login', loginRequest: { endpoint: 'login' } },
  { type: 'url.query', query: { k: 'v' } },
];

/** A JSON object of the generated configuration (mutated in place). */
type Obj = Record<string, unknown>;

function baseConfig(url: string): Obj {
  const job: Obj = { endpoint: 'users' };
  if (chance(0.3)) job['dataField'] = pick(['data', 'items', '.', 'a.b', { path: 'data' }]);
  if (chance(0.3)) job['params'] = { q: randomValue() };
  if (chance(0.2)) job['method'] = pick(['POST', 'FORM', 'get']);
  if (chance(0.2)) job['responseFilter'] = pick(['a', 'a.b', 'items[].x', ['a', 'b']]);
  if (chance(0.3))
    job['children'] = [
      {
        endpoint: 'users/{id}',
        placeholders: { id: pick(['id', 'a.b', '[]', { path: 'id', function: 'urlencode', args: [{ placeholder: 'value' }] }, '2:id']) },
        ...(chance(0.3) ? { recursionFilter: pick(['id>1', 'a==b', 'x', 'a.b!=c|id<2&x~~%']) } : {}),
        ...(chance(0.3) ? { children: [{ endpoint: 'users/{id}/{1:id}', placeholders: { id: '1:id', '1:id': 'id' } }] } : {}),
      },
    ];
  const config: Obj = { outputBucket: 'b', jobs: [job], a: 'x' };
  if (chance(0.3)) config['userData'] = { u: randomValue() };
  if (chance(0.2))
    config['mappings'] = {
      users: pick([
        { id: 'id' },
        { id: { mapping: { destination: 'id', primaryKey: true } }, a: { type: 'table', destination: 't', tableMapping: { b: 'b' } } },
        { a: { type: 'column', mapping: { destination: 'a' } } },
        { x: { type: 'user', mapping: { destination: 'x' } } },
      ]),
    };
  if (chance(0.15)) config['compatLevel'] = pick([1, 2, 3]);
  if (chance(0.2)) config['http'] = { headers: { 'X-A': randomValue() } };
  const api: Obj = { baseUrl: `${url}/api/`, retryConfig: { maxRetries: 0 } };
  if (chance(0.4)) api['pagination'] = structuredClone(pick(PAGINATIONS));
  if (chance(0.3)) api['authentication'] = structuredClone(pick(AUTHS));
  if (chance(0.2)) api['http'] = { headers: { 'X-B': randomValue() }, defaultOptions: { params: { d: randomValue() } } };
  const parameters: Obj = { api, config };
  if (chance(0.15)) parameters['iterations'] = [{ a: randomValue() }, { outputBucket: 'c' }];
  const root: Obj = { parameters };
  if (chance(0.1))
    root['authorization'] = {
      oauth_api: {
        credentials: { '#data': pick(['{"access_token":"t"}', '{}', 'x', '[]', '5']), appKey: pick(['k', 5, null]), '#appSecret': 's' },
      },
    };
  return root;
}

/** All [container, key] places of a value tree. */
function places(v: unknown, out: [Obj | unknown[], string | number][] = []): [Obj | unknown[], string | number][] {
  if (Array.isArray(v)) {
    v.forEach((x, i) => {
      out.push([v, i]);
      places(x, out);
    });
  } else if (v && typeof v === 'object') {
    for (const k of Object.keys(v)) {
      out.push([v as Obj, k]);
      places((v as Obj)[k], out);
    }
  }
  return out;
}
const EXTRA_KEYS = [
  'dataType',
  'dataField',
  'responseFilter',
  'responseFilterDelimiter',
  'placeholders',
  'recursionFilter',
  'children',
  'params',
  'method',
  'id',
  'userData',
  'headers',
  'scroller',
  'mappings',
  'compatLevel',
  'incrementalOutput',
  'debug',
  'http',
  'pagination',
  'authentication',
  'retryConfig',
  'caCertificate',
  'name',
  'limit',
  'urlKey',
  'idKey',
  'param',
  'responseParam',
  'queryParam',
  'scrollRequest',
  'nextPageFlag',
  'limitStop',
  'forceStop',
  'delimiter',
  'path',
  'function',
  'args',
  'query',
  'loginRequest',
  'apiRequest',
  'expires',
  'ignoreErrors',
  'requiredHeaders',
  'defaultOptions',
  'connectTimeout',
  'offsetParam',
  'limitParam',
  'firstPage',
  'pageParam',
  'increment',
  'scrollers',
  'default',
  'type',
  'destination',
  'tableMapping',
  'parentKey',
  'mapping',
  'primaryKey',
  'forceType',
  'includeParams',
  'paramIsQuery',
  'endpoint',
  'iterations',
  'outputBucket',
  'format',
  'stopOn',
  'field',
  'count',
  'pages',
  'firstPageParams',
];

function mutate(root: Obj): string[] {
  const changes: string[] = [];
  const n = 1 + Math.floor(rnd() * 3);
  for (let i = 0; i < n; i++) {
    const all = places(root.parameters);
    const [container, key] = pick(all);
    const v = randomValue();
    if (chance(0.35) && container && typeof container === 'object' && !Array.isArray(container)) {
      const k = pick(EXTRA_KEYS);
      container[k] = v;
      changes.push(`${k}=${JSON.stringify(v)?.slice(0, 80)}`);
    } else {
      (container as Record<string | number, unknown>)[key] = v;
      changes.push(`${String(key)}=${JSON.stringify(v)?.slice(0, 80)}`);
    }
  }
  return changes;
}

interface Finding {
  seed: number;
  code: number;
  message: string;
  config: unknown;
  responses: unknown;
  stack: boolean;
}

async function main(): Promise<void> {
  let responses: Record<string, unknown> = {};
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const p = (req.url ?? '').split('?')[0]!;
      const key = Object.keys(responses).find((k) => p.includes(k)) ?? '';
      const body = responses[key] ?? responses[''];
      res.writeHead(200, { 'Content-Type': 'application/json' });
      const text = typeof body === 'string' && body.startsWith('RAW:') ? body.slice(4) : JSON.stringify(body);
      res.end(text.replaceAll('"INF"', '1e400').replaceAll('"BIG"', '123456789012345678901234567890'));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const findings = new Map<string, Finding[]>();
  const codes = [0, 0, 0];
  for (let i = 0; i < count; i++) {
    const caseSeed = seed;
    const root = baseConfig(url);
    const changes = !dataMode && chance(0.85) ? mutate(root) : [];
    responses = { '': randomResponse(), login: chance(0.5) ? { token: 't', access_token: 'x' } : randomResponse() };
    if (chance(0.5)) responses['users/'] = randomResponse();
    if (chance(0.1))
      responses[''] = pick([
        'RAW:',
        'RAW:not json',
        'RAW:[1,2',
        'RAW:"\\ud800"',
        'RAW:{"a":1,"a":[2]}',
        `RAW:${'['.repeat(600)}${']'.repeat(600)}`,
        `RAW:${'['.repeat(300)}1${']'.repeat(300)}`,
        'RAW:[{"a":1e400}]',
        'RAW:[{"a":[[1e400]]}]',
        'RAW:[{"a":-0.0,"b":1E+2}]',
      ]);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fuzz-exit-'));
    // Markers for what JSON.stringify cannot write: an int64 beyond 2^53 and a number beyond a double.
    fs.writeFileSync(
      path.join(dir, 'config.json'),
      JSON.stringify(root).replaceAll('"BIGINT"', '9223372036854775807').replaceAll('"INF"', '1e400'),
    );
    const lines: string[] = [];
    let code: number;
    try {
      code = await Promise.race([
        extractor.run({
          env: { KBC_DATADIR: dir, EX_GENERIC_OUTPUT_WORKER: process.env['FUZZ_WORKER'] ?? 'off' },
          write: (l) => lines.push(l),
          sleep: async () => {},
          outputWorker: { script: new URL('../src/cli.ts', import.meta.url) },
        }),
        new Promise<number>((r) => setTimeout(() => r(-1), 15000)),
      ]);
    } catch (e) {
      code = -2;
      lines.push(`THROWN ${(e as Error).stack}`);
    }
    fs.rmSync(dir, { recursive: true, force: true });
    if (code >= 0 && code <= 2) codes[code]!++;
    const errorLine = lines.find((l) => l.includes('logger.ERROR')) ?? lines.at(-1) ?? '';
    const stack = lines.some((l) => /\bat .*\.(ts|js):\d+/.test(l) || l.includes('"trace"'));
    if (code === 2 || code < 0 || stack) {
      const message = errorLine.replace(/^\[[^\]]*\] /, '').slice(0, 400);
      const klass = message
        .replace(/\d+/g, 'N')
        .replace(/'[^']*'/g, "'…'")
        .replace(/"[^"]*"/g, '"…"')
        .slice(0, 120);
      const list = findings.get(klass) ?? [];
      list.push({ seed: caseSeed, code, message, config: { root, changes }, responses, stack });
      findings.set(klass, list);
    }
  }
  server.close();
  const report = [...findings.entries()].sort((a, b) => b[1].length - a[1].length);
  const file = `/tmp/fuzz-exit-codes-${startSeed}.json`;
  fs.writeFileSync(file, JSON.stringify(report, null, 1));
  process.stdout.write(`runs ${count} (seed ${startSeed}): exit0 ${codes[0]} exit1 ${codes[1]} exit2 ${codes[2]}\n`);
  for (const [klass, list] of report) process.stdout.write(`${list.length}\t${list[0]!.code}\t${klass}\n`);
  process.stdout.write(`details: ${file}\n`);
  process.exit(0);
}
await main();
