/**
 * The built command `ex-generic` (dist/cli.js) as a user calls it: help, version, unknown
 * arguments, validate and plan (no request reaches the server), test reads with --max-pages and
 * --max-records, --strict. `npm test` builds dist/ first.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { parseCommandLine } from '../src/commandLine.ts';
import { makeDataDir, readTables } from './helpers/dataDir.ts';
import { json, startServer, type TestServer } from './helpers/httpServer.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const CLI = path.join(ROOT, 'dist', 'cli.js');
const VERSION = (JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

async function cli(args: string[], env: Record<string, string> = {}): Promise<Ran> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [CLI, ...args], {
      env: { PATH: process.env['PATH'] ?? '', ...env },
      encoding: 'utf8',
      timeout: 30_000,
    });
    return { code: 0, stdout, stderr };
  } catch (e) {
    const err = e as { code: number; stdout: string; stderr: string };
    return { code: err.code, stdout: err.stdout, stderr: err.stderr };
  }
}

/** Users in pages of 2 (page=N), 3 pages; each user has orders in pages of 2 (page=N), 2 pages. */
let api: TestServer;
before(async () => {
  api = await startServer((req, res) => {
    const url = new URL(req.target, 'http://x');
    const page = Number(url.searchParams.get('page') ?? '1');
    if (url.pathname === '/login') return json(res, 200, { token: 'tok-from-login-123' });
    const orders = /^\/users\/(\d+)\/orders$/.exec(url.pathname);
    if (orders) return json(res, 200, { orders: page <= 2 ? [{ n: page * 10 + 1 }, { n: page * 10 + 2 }] : [] });
    if (url.pathname === '/users') return json(res, 200, { data: { users: page <= 3 ? [{ id: page * 2 - 1 }, { id: page * 2 }] : [] } });
    json(res, 404, { error: 'unknown' });
  });
});
after(() => api.close());

function config(extra: Record<string, unknown> = {}, job: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    parameters: {
      api: { baseUrl: `${api.url}/`, pagination: { method: 'pagenum', limit: 2 }, ...extra },
      config: {
        outputBucket: 'b',
        '#token': 'very-secret-token-value',
        http: { headers: { 'X-Token': { attr: '#token' } } },
        jobs: [
          {
            endpoint: 'users',
            dataField: 'data.users',
            ...job,
            children: [{ endpoint: 'users/{id}/orders', dataField: 'orders', dataType: 'orders', placeholders: { id: 'id' } }],
          },
        ],
      },
    },
  };
}

describe('the command line', () => {
  it('parses with node:util parseArgs: no arguments is a run; unknown options and commands are errors', () => {
    assert.deepEqual(parseCommandLine([]), { kind: 'run', strict: undefined, limits: undefined });
    // No arguments skip the parser: the same command as the parser reads from `run`.
    assert.deepEqual(parseCommandLine([]), parseCommandLine(['run']));
    assert.deepEqual(parseCommandLine(['run', '--max-pages', '1', '--strict']), { kind: 'run', strict: true, limits: { maxPages: 1 } });
    assert.deepEqual(parseCommandLine(['plan']), { kind: 'plan', strict: undefined });
    assert.equal(parseCommandLine(['--max-pages', '0']).kind, 'error');
    assert.equal(parseCommandLine(['--max-pages', 'x']).kind, 'error');
    assert.equal(parseCommandLine(['validate', '--max-records', '3']).kind, 'error');
    assert.deepEqual(parseCommandLine(['--bogus']), { kind: 'error', message: "Unknown option '--bogus'." });
    assert.equal(parseCommandLine(['extract']).kind, 'error');
    assert.equal(parseCommandLine(['run', 'extra']).kind, 'error');
  });

  it('--help and --version print and exit 0 without reading a data folder', async () => {
    const help = await cli(['--help'], { KBC_DATADIR: '/nonexistent' });
    assert.equal(help.code, 0);
    assert.match(help.stdout, /Usage: ex-generic \[command\]/);
    assert.match(help.stdout, /validate/);
    assert.match(help.stdout, /--max-pages N/);
    const version = await cli(['--version'], { KBC_DATADIR: '/nonexistent' });
    assert.deepEqual(version, { code: 0, stdout: `ex-generic ${VERSION}\n`, stderr: '' });
  });

  it('an unknown argument is an error with a usage hint (exit 1), nothing is run', async () => {
    const before = api.requests.length;
    const dir = makeDataDir(config());
    const ran = await cli(['--max-page', '1'], { KBC_DATADIR: dir });
    assert.equal(ran.code, 1);
    assert.match(ran.stderr, /ex-generic: Unknown option '--max-page'/);
    assert.match(ran.stderr, /ex-generic --help/);
    assert.equal(api.requests.length, before);
    assert.deepEqual(readTables(dir), {});
  });

  it('a mistyped command gets a did-you-mean; --max-pages -1 gets our message; both exit 1', async () => {
    const typo = await cli(['valdate'], { KBC_DATADIR: '/nonexistent' });
    assert.equal(typo.code, 1);
    assert.match(
      typo.stderr,
      /^ex-generic: Unknown command 'valdate' \(did you mean 'validate'\?\); the commands are run, validate, plan\.\n/,
    );
    const negative = await cli(['run', '--max-pages', '-1'], { KBC_DATADIR: '/nonexistent' });
    assert.equal(negative.code, 1);
    assert.match(negative.stderr, /^ex-generic: --max-pages needs a whole number of 1 or more, got "-1"\.\n/);
    assert.deepEqual(parseCommandLine(['--strikt']), { kind: 'error', message: "Unknown option '--strikt' (did you mean '--strict'?)." });
    assert.deepEqual(parseCommandLine(['--data']), {
      kind: 'error',
      message: '--data needs a value: --data DIR, the folder holding config.json.',
    });
    assert.deepEqual(parseCommandLine(['--data', '--strict']), {
      kind: 'error',
      message: '--data needs a value: --data DIR, the folder holding config.json.',
    });
    assert.deepEqual(parseCommandLine(['--strict=yes']), { kind: 'error', message: '--strict takes no value.' });
    assert.deepEqual(parseCommandLine(['-x']), { kind: 'error', message: "Unknown option '-x'." });
  });

  it('--data DIR points run, validate and plan at a folder, and wins over KBC_DATADIR', async () => {
    const dir = makeDataDir(config());
    for (const command of ['validate', 'plan']) {
      const ran = await cli([command, '--data', dir], { KBC_DATADIR: '/nonexistent' });
      assert.equal(ran.code, 0, ran.stdout);
    }
    const ran = await cli(['--data', dir], { KBC_DATADIR: '/nonexistent' });
    assert.equal(ran.code, 0, ran.stdout);
    assert.ok(readTables(dir)['b.users'] !== undefined);
  });

  it("without a data folder: the reference's ERROR (exit 2), then one line on how to point at one", async () => {
    const ran = await cli([], { KBC_DATADIR: '/nonexistent' });
    assert.equal(ran.code, 2);
    const lines = ran.stdout.trim().split('\n');
    assert.match(lines.at(-2)!, /logger\.ERROR: Configuration file '\/nonexistent\/config\.json' not found\. \[\] \[\]$/);
    assert.match(
      lines.at(-1)!,
      /logger\.INFO: Point the extractor at the folder holding config\.json: KBC_DATADIR=\/path\/to\/data ex-generic, or ex-generic --data \/path\/to\/data/,
    );
    const checked = await cli(['validate'], { KBC_DATADIR: '/nonexistent' });
    assert.equal(checked.code, 1);
    assert.match(checked.stdout, /ERROR: Configuration file .*\n.*INFO: Point the extractor at the folder holding config\.json/);
  });

  it('validate checks offline: exit 0 and no request; a broken configuration exits 1 naming the key', async () => {
    const before = api.requests.length;
    const good = await cli(['validate'], { KBC_DATADIR: makeDataDir(config()) });
    assert.equal(good.code, 0, good.stdout);
    assert.match(good.stdout, /The configuration is valid; no request was sent\./);
    const broken = makeDataDir(config({ pagination: { method: 'offset' } }));
    const bad = await cli(['validate'], { KBC_DATADIR: broken });
    assert.equal(bad.code, 1);
    assert.match(
      bad.stdout,
      /ERROR: Missing 'pagination.limit' attribute required for offset pagination .*"configPath":"parameters.api.pagination.limit"/,
    );
    const typo = await cli(['validate'], { KBC_DATADIR: makeDataDir(config({}, { dataFeild: 'x' })) });
    assert.equal(typo.code, 0);
    assert.match(typo.stdout, /WARNING: parameters.config.jobs\[0\].dataFeild: unknown key, ignored \(did you mean "dataField"\?\)/);
    const strict = await cli(['validate', '--strict'], { KBC_DATADIR: makeDataDir(config({}, { dataFeild: 'x' })) });
    assert.equal(strict.code, 1);
    assert.match(strict.stdout, /ERROR: The configuration has 1 problem\(s\)/);
    const notJson = await cli(['validate'], { KBC_DATADIR: makeDataDir('{"parameters": {"config": {"jobs": [],}}}') });
    assert.equal(notJson.code, 1);
    assert.match(
      notJson.stdout,
      /ERROR: Configuration file is not a valid JSON: Syntax error at line 1, column 39: expected another member after the comma/,
    );
    assert.equal(api.requests.length, before, 'validate sent a request');
  });

  it('plan prints the first request of each job with secrets hidden, the login first; nothing is sent', async () => {
    const before = api.requests.length;
    const login = {
      type: 'login',
      loginRequest: { endpoint: 'login', method: 'POST', params: { password: { attr: '#token' } } },
      apiRequest: { headers: { Authorization: { response: 'token' } } },
    };
    const ran = await cli(['plan'], { KBC_DATADIR: makeDataDir(config({ authentication: login })) });
    assert.equal(ran.code, 0, ran.stdout);
    assert.equal(api.requests.length, before, 'plan sent a request');
    assert.match(ran.stdout, /Plan \(nothing was sent\)/);
    assert.match(ran.stdout, /login request[^\n]*\n\s+POST http:\/\/127\.0\.0\.1:\d+\/login\n/);
    assert.match(ran.stdout, /body: \{"password":"\[hidden\]"\}/);
    assert.match(ran.stdout, /GET http:\/\/127\.0\.0\.1:\d+\/users\?page=1&limit=2\n/);
    assert.match(ran.stdout, /X-Token: \[hidden\]/);
    assert.match(ran.stdout, /then for each record: users\/\{id\}\/orders \(placeholders id\)/);
    assert.doesNotMatch(ran.stdout, /very-secret-token-value/);
  });

  it('plan hides credential-named values written in plain text (form login, query, header)', async () => {
    const login = {
      type: 'login',
      loginRequest: { endpoint: 'login', method: 'FORM', params: { user: 'john', password: { attr: 'password' } } },
      apiRequest: { headers: { Authorization: { response: 'token' } } },
    };
    const doc = config(
      { authentication: login, http: { headers: { 'X-Api-Key': 'plain-api-key-1' } } },
      { params: { access_token: 'plain-token-2', page: 1 } },
    );
    (doc['parameters'] as { config: Record<string, unknown> }).config['password'] = 'plain-password-3';
    const ran = await cli(['plan'], { KBC_DATADIR: makeDataDir(doc) });
    assert.equal(ran.code, 0, ran.stdout);
    assert.match(ran.stdout, /body: user=john&password=\[hidden\]/);
    assert.match(ran.stdout, /GET http:\/\/127\.0\.0\.1:\d+\/users\?access_token=\[hidden\]&page=1/);
    assert.match(ran.stdout, /X-Api-Key: \[hidden\]/);
    assert.doesNotMatch(ran.stdout, /plain-(api-key|token|password)/);
  });

  it('run --max-pages 1: every job, children too, stops after one page; tables written, a WARNING, no state', async () => {
    const before = api.requests.length;
    const dir = makeDataDir(config());
    const ran = await cli(['run', '--max-pages', '1'], { KBC_DATADIR: dir });
    assert.equal(ran.code, 0, ran.stdout);
    const sent = api.requests.slice(before).map((r) => r.target);
    assert.deepEqual(sent, ['/users?page=1&limit=2', '/users/1/orders?page=1&limit=2', '/users/2/orders?page=1&limit=2']);
    const tables = readTables(dir);
    assert.equal(tables['b.users'], '"id"\n"1"\n"2"\n');
    assert.equal(tables['b.orders'], '"n","parent_id"\n"11","1"\n"12","1"\n"11","2"\n"12","2"\n');
    assert.match(ran.stdout, /WARNING: Test read \(at most 1 page\(s\) per job\): the tables hold a sample/);
    assert.equal(fs.existsSync(path.join(dir, 'out', 'state.json')), false);
  });

  it('run --max-records 3 stops each job instance at 3 records', async () => {
    const before = api.requests.length;
    const dir = makeDataDir(config());
    const ran = await cli(['--max-records', '3'], { KBC_DATADIR: dir });
    assert.equal(ran.code, 0, ran.stdout);
    assert.equal(readTables(dir)['b.users'], '"id"\n"1"\n"2"\n"3"\n');
    const users = api.requests.slice(before).filter((r) => r.target.startsWith('/users?'));
    assert.equal(users.length, 2);
    assert.equal(fs.existsSync(path.join(dir, 'out', 'state.json')), false);
  });

  it('--strict and EX_GENERIC_STRICT=1 stop a configuration with a warning before any request (exit 1)', async () => {
    const before = api.requests.length;
    for (const [args, env] of [
      [['--strict'], {}],
      [[], { EX_GENERIC_STRICT: '1' }],
    ] as const) {
      const dir = makeDataDir(config({ paginaton: {} }));
      const ran = await cli([...args], { KBC_DATADIR: dir, ...env });
      assert.equal(ran.code, 1, ran.stdout);
      assert.match(ran.stdout, /WARNING: parameters.api.paginaton: unknown key, ignored \(did you mean "pagination"\?\)/);
      assert.match(ran.stdout, /ERROR: The configuration has 1 problem\(s\), listed above; strict mode/);
      assert.deepEqual(readTables(dir), {});
    }
    assert.equal(api.requests.length, before);
  });
});
