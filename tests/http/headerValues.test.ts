/**
 * Header values (issue 19 #4): sent as the reference sends them — trimmed of spaces and tabs only,
 * as UTF-8 bytes (`café` goes out as `63 61 66 c3 a9`, characters outside Latin-1 work) — and a
 * value that cannot be sent safely (a line break inside, a pasted token's trailing newline) is a
 * user error naming the configuration path, before any request; never Node's ERR_INVALID_CHAR.
 * The compat cases of ../shared/compat-cases/header-value-latin1 run against a real server that
 * serves their routes.json and compares what arrives with the reference's recording.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import {
  assertFailed,
  cleanup,
  outSnapshot,
  runWith,
  sendJson,
  startFaultServer,
  strip,
  type FaultServer,
} from '../reliability/helpers.ts';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** Raw header lines as received: Node reads header bytes as Latin-1, so UTF-8 `ü` reads `Ã¼`. */
interface RawRequest {
  line: string;
  headers: [string, string][];
}

async function rawServer(respond: (target: string, body: string) => { status: number; body: string }) {
  const received: RawRequest[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const headers: [string, string][] = [];
      for (let i = 0; i < req.rawHeaders.length; i += 2) headers.push([req.rawHeaders[i]!.toLowerCase(), req.rawHeaders[i + 1]!]);
      received.push({ line: `${req.method} ${req.url}`, headers });
      const answer = respond(req.url ?? '', Buffer.concat(chunks).toString('utf8'));
      res.writeHead(answer.status, { 'Content-Type': 'application/json' });
      res.end(answer.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

let api: FaultServer;
before(async () => {
  api = await startFaultServer((q, res) => {
    if (q.target.startsWith('/login')) return sendJson(res, 200, 'line1\nline2');
    sendJson(res, 200, [{ id: 1 }]);
  });
});
after(() => api.close());

test('UTF-8 bytes on the wire: café as c3 a9, 日本 as e6 97 a5 e6 9c ac; spaces and tabs trimmed, nothing else', async () => {
  const s = await rawServer(() => ({ status: 200, body: '[]' }));
  try {
    const r = await runWith({
      parameters: {
        api: { baseUrl: `http://127.0.0.1:${s.port}/`, http: { headers: { 'X-Cafe': ' \tcafé\t ', 'X-Cjk': '日本', 'X-Emoji': 'a😀b' } } },
        config: { debug: true, jobs: [{ endpoint: 'x' }] },
      },
    });
    assert.equal(r.code, 0, r.lines.map(strip).slice(-2).join('\n'));
    const got = Object.fromEntries(s.received[0]!.headers);
    const bytes = (name: string) => Buffer.from(got[name]!, 'latin1').toString('hex');
    assert.equal(bytes('x-cafe'), Buffer.from('café').toString('hex'));
    assert.equal(bytes('x-cjk'), 'e697a5e69cac');
    assert.equal(bytes('x-emoji'), Buffer.from('a😀b').toString('hex'));
    // The debug line shows the text, not the bytes.
    assert.ok(r.lines.some((l) => l.includes('X-Cafe: café X-Cjk: 日本')));
    cleanup(r);
  } finally {
    await s.close();
  }
});

const NEWLINE_CASES: [string, Record<string, unknown>, Record<string, unknown>, string][] = [
  [
    'a pasted token with a trailing newline',
    {},
    { http: { headers: { 'X-Token': 'tok-123\n' } } },
    'parameters.config.http.headers.X-Token',
  ],
  [
    'values joined with "\\n" by a function',
    { http: { headers: { 'X-Scopes': { function: 'implode', args: ['\n', ['read', 'write']] } } } },
    {},
    'parameters.api.http.headers.X-Scopes',
  ],
  ['a carriage return', { http: { defaultOptions: { headers: { 'X-A': 'a\rb' } } } }, {}, 'parameters.api.http.defaultOptions.headers.X-A'],
  ['a control character', {}, { jobs: [{ endpoint: 'x', headers: { 'X-B': 'a\u0001b' } }] }, 'parameters.config.jobs[0].headers'],
  [
    'a login request header',
    {
      authentication: {
        type: 'login',
        loginRequest: { endpoint: 'login', headers: { 'X-Pw': 'pw\n' } },
        apiRequest: { headers: { A: 'x' } },
      },
    },
    {},
    'parameters.api.authentication.loginRequest.headers.X-Pw',
  ],
  [
    'a header computed from a text login response ending in a newline',
    {
      authentication: {
        type: 'login',
        format: 'text',
        loginRequest: { endpoint: 'login' },
        apiRequest: { headers: { 'X-Token': 'data' } },
      },
    },
    {},
    'parameters.api.authentication.apiRequest.headers.X-Token',
  ],
  ['a header name with a space', {}, { http: { headers: { 'X Key': 'v' } } }, 'parameters.config.http.headers.X Key'],
];

for (const [what, apiExtra, configExtra, configPath] of NEWLINE_CASES) {
  test(`${what}: a user error naming ${configPath}, no request sent with it`, async () => {
    const before = api.requests.length;
    const r = await runWith({
      parameters: { api: { baseUrl: `${api.url}/`, ...apiExtra }, config: { jobs: [{ endpoint: 'x' }], ...configExtra } },
    });
    const error = assertFailed(r, 1, what);
    assert.ok(error.includes(`"configPath":"${configPath}"`), error);
    assert.match(error, /cannot be sent/);
    assert.ok(!error.includes('ERR_INVALID_CHAR') && !error.includes('tok-123'), error);
    // Only the login request (which has no bad header itself) may have gone out.
    assert.ok(api.requests.slice(before).every((q) => q.target.startsWith('/login')));
    cleanup(r);
  });
}

// ---------------------------------------------------------------------------------------------
// ../shared/compat-cases/header-value-latin1: the reference's recordings

const CASES_DIR = path.resolve(import.meta.dirname, '../../../shared/compat-cases/header-value-latin1');

interface Route {
  path: string;
  param: string | null;
  pages: Record<string, string>;
  dflt: string;
}

function answer(routes: Route[], target: string, body: string): { status: number; body: string } {
  const [rawPath, query = ''] = target.split('?');
  const rest = '/' + rawPath!.split('/').slice(2).join('/');
  const route = routes.find((r) => r.path === rest || r.path === decodeURIComponent(rest));
  if (!route) return { status: 404, body: '{"error":"not found"}' };
  let value = route.param === null ? '' : (new URLSearchParams(query).get(route.param) ?? null);
  if (value === null && route.param !== null) {
    try {
      value = String((JSON.parse(body) as Record<string, unknown>)[route.param] ?? '');
    } catch {
      value = new URLSearchParams(body).get(route.param) ?? '';
    }
  }
  return { status: 200, body: route.pages[value ?? ''] ?? route.dflt };
}

const caseNames = fs.existsSync(CASES_DIR) ? fs.readdirSync(CASES_DIR).sort() : [];

for (const name of caseNames) {
  test(`compat case header-value-latin1/${name}: the same requests and header bytes as the reference`, async () => {
    const dir = path.join(CASES_DIR, name);
    const routes = JSON.parse(fs.readFileSync(path.join(dir, 'routes.json'), 'utf8')) as Route[];
    const s = await rawServer((target, body) => answer(routes, target, body));
    try {
      const config = fs.readFileSync(path.join(dir, 'config.json'), 'utf8').replaceAll('PORT', String(s.port));
      const r = await runWith(JSON.parse(config));
      const expected = (f: string) => fs.readFileSync(path.join(dir, 'expected', f), 'utf8');
      assert.equal(String(r.code), expected('exit-code.txt').trim(), r.lines.map(strip).slice(-2).join('\n'));
      const lines = s.received.map((q) => q.line.replace(/^(\S+) \/[^/?]*/, '$1 '));
      assert.deepEqual(lines, expected('requests.txt').trim().split('\n'));
      const headerLines = s.received.map((q, i) => {
        const selected = q.headers
          .filter(([n]) => n.startsWith('x-'))
          .sort(([a], [b]) => (a < b ? -1 : 1))
          .map(([n, v]) => `${n}: ${v}`);
        return `${lines[i]} | ${selected.join('; ')}`;
      });
      assert.deepEqual(headerLines, expected('request-headers.txt').replace(/\n$/, '').split('\n'));
      const state = JSON.parse(outSnapshot(r.dir)['state.json'] ?? '{}') as { time?: unknown };
      const expectedState = JSON.parse(expected('state.json')) as { time?: unknown };
      delete state.time;
      delete expectedState.time;
      assert.deepEqual(state, expectedState);
      cleanup(r);
    } finally {
      await s.close();
    }
  });
}
