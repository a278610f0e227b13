/**
 * Exit codes of failures found by fuzzing broken configurations and quirky responses (issue 22
 * class 4): a user error where the value is the user's to fix, exit 2 only where the reference
 * crashes and the spec says so — and never a JavaScript stack trace in the log.
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { json, startServer, type TestServer } from '../helpers/httpServer.ts';
import { makeDataDir, outIsEmpty, readTables, runIn } from '../helpers/dataDir.ts';
import * as extractor from '../../src/extractor.ts';
import { tempDir } from '../helpers/tempDirs.ts';

const servers: TestServer[] = [];
after(async () => {
  for (const s of servers) await s.close();
});

/** A server answering every request with the same raw JSON text. */
async function api(body: string | ((target: string) => string)): Promise<TestServer> {
  const s = await startServer((req, res) => json(res, 200, typeof body === 'string' ? body : body(req.target)));
  servers.push(s);
  return s;
}

/** config.json text; the string "INF" becomes the literal 1e400 (JSON.stringify cannot write it). */
function configText(
  baseUrl: string,
  job: Record<string, unknown>,
  extra: Record<string, unknown> = {},
  apiExtra: Record<string, unknown> = {},
): string {
  const root = {
    parameters: { api: { baseUrl, ...apiExtra }, config: { outputBucket: 'b', jobs: [{ endpoint: 'users', ...job }], ...extra } },
  };
  return JSON.stringify(root).replaceAll('"INF"', '1e400');
}

function errorLine(lines: string[]): string {
  return lines.find((l) => l.includes('logger.ERROR')) ?? '';
}

function assertNoTrace(lines: string[]): void {
  for (const l of lines) {
    assert.doesNotMatch(l, /"trace"|\bat \S+\.(ts|js):\d+/, l);
  }
}

/** Runs with the output phase in the worker thread or in the main thread. */
async function runMode(config: string, mode: 'always' | 'off') {
  const dir = makeDataDir(config);
  const lines: string[] = [];
  const code = await extractor.run({
    env: { KBC_DATADIR: dir, EX_GENERIC_OUTPUT_WORKER: mode },
    write: (l) => lines.push(l),
    sleep: async () => {},
    outputWorker: { script: new URL('../../src/cli.ts', import.meta.url) },
  });
  return { code, lines, tables: readTables(dir) };
}

for (const mode of ['off', 'always'] as const) {
  test(`a number beyond the double range inside JSON text is an empty cell, as PHP's failed json_encode (output worker ${mode})`, async () => {
    const s = await api('[{"id":1,"a":[[1e400]],"f":{"x":1e400},"g":1e400}]');
    const r = await runMode(configText(`${s.url}/`, { responseFilter: 'f' }), mode);
    assert.equal(r.code, 0, r.lines.join('\n'));
    assertNoTrace(r.lines);
    // The scalar stays PHP's string form; the nested list and the filtered member are JSON text.
    assert.match(r.tables['b.users']!, /^"id","a","f","g"\n"1","users_[0-9a-f]{32}","","INF"\n$/);
    assert.match(r.tables['b.users_a']!, /^"data","JSON_parentId"\n"","users_[0-9a-f]{32}"\n$/);
  });
}

test('the legacy parser (compatLevel 1) writes such a nested list as an empty cell too', async () => {
  const s = await api('[[1e400],[1]]');
  const r = await runIn(makeDataDir(configText(`${s.url}/`, {}, { compatLevel: 1 })));
  assert.equal(r.code, 0, r.lines.join('\n'));
  assertNoTrace(r.lines);
  assert.equal(r.tables()['b.users'], '"data"\n""\n"[1]"\n');
});

test('POST params holding a number beyond the double range: exit 1 naming the params, nothing sent', async () => {
  const s = await api('[]');
  const r = await runIn(makeDataDir(configText(`${s.url}/`, { method: 'POST', params: { n: 'INF' } })));
  assert.equal(r.code, 1);
  assertNoTrace(r.lines);
  assert.match(
    errorLine(r.lines),
    /The "params" property cannot be sent as a JSON body: .*Write that number as a string\..*"configPath":"parameters\.config\.jobs\[0\]\.params"/,
  );
  assert.equal(s.requests.length, 0);
  assert.ok(outIsEmpty(r.dir));
});

test('login params holding a number beyond the double range: exit 1 naming the login params', async () => {
  const s = await api('{"token":"t"}');
  const auth = {
    type: 'login',
    loginRequest: { endpoint: 'login', method: 'POST', params: { n: 'INF' } },
    apiRequest: { headers: { X: 'token' } },
  };
  const r = await runIn(makeDataDir(configText(`${s.url}/`, {}, {}, { authentication: auth })));
  assert.equal(r.code, 1);
  assertNoTrace(r.lines);
  assert.match(
    errorLine(r.lines),
    /The "params" property cannot be sent as a JSON body.*"configPath":"parameters\.api\.authentication\.loginRequest\.params"/,
  );
  assert.ok(outIsEmpty(r.dir));
});

test('an input state holding 1e400 fails before any table is moved into place (exit 1)', async () => {
  const s = await api('[{"id":1}]');
  const dir = makeDataDir(configText(`${s.url}/`, {}), '{"x":1e400}');
  const r = await runIn(dir);
  assert.equal(r.code, 1);
  assertNoTrace(r.lines);
  assert.match(errorLine(r.lines), /The state cannot be saved: in\/state\.json holds a number outside the range of a double/);
  assert.ok(outIsEmpty(dir));
});

test('a configuration value of 1e400 where a boolean belongs is a warning, not a crash', async () => {
  const s = await api('[{"id":1}]');
  const r = await runIn(makeDataDir(configText(`${s.url}/`, {}, { debug: 'INF' })));
  assert.equal(r.code, 0, r.lines.join('\n'));
  assertNoTrace(r.lines);
  assert.ok(r.lines.some((l) => l.includes('WARNING: parameters.config.debug: should be true or false')));
});

test('a next-page link that is an object with paramIsQuery: exit 2 as the reference, without a stack trace', async () => {
  const s = await api('{"data":[{"id":1}],"next":{"page":2}}');
  const r = await runIn(
    makeDataDir(configText(`${s.url}/`, {}, {}, { pagination: { method: 'response.url', urlKey: 'next', paramIsQuery: true } })),
  );
  assert.equal(r.code, 2);
  assertNoTrace(r.lines);
  assert.match(errorLine(r.lines), /logger\.ERROR: Object of class stdClass could not be converted to string \[\] \[\]$/);
  assert.ok(outIsEmpty(r.dir));
});

test('a login apiRequest query path that names an object: exit 2 as the reference, without a stack trace', async () => {
  const s = await api((target) => (target.includes('login') ? '{"auth":{"t":1}}' : '[]'));
  const auth = { type: 'login', loginRequest: { endpoint: 'login' }, apiRequest: { query: { x: 'auth' } } };
  const r = await runIn(makeDataDir(configText(`${s.url}/`, {}, {}, { authentication: auth })));
  assert.equal(r.code, 2);
  assertNoTrace(r.lines);
  assert.match(errorLine(r.lines), /Object of class stdClass could not be converted to string/);
});

test('the built command prints no stack trace for these failures either', { skip: !fs.existsSync('dist/cli.js') }, async () => {
  const s = await api('{"data":[{"id":1}],"next":{"page":2}}');
  const dir = tempDir('exit-codes-');
  fs.writeFileSync(
    path.join(dir, 'config.json'),
    configText(`${s.url}/`, {}, {}, { pagination: { method: 'response.url', urlKey: 'next', paramIsQuery: true } }),
  );
  // Asynchronous: the server answering the command lives in this process.
  const child = spawn(process.execPath, ['dist/cli.js'], { env: { ...process.env, KBC_DATADIR: dir } });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const status = await new Promise<number | null>((resolve) => child.on('close', resolve));
  assert.equal(status, 2, stdout + stderr);
  assert.equal(stderr, '');
  assertNoTrace(stdout.split('\n'));
});

test('a userData value that is a list: exit 1 with the reference message, the column and the fix', async () => {
  const s = await api('[{"id":1}]');
  const r = await runIn(makeDataDir(configText(`${s.url}/`, {}, { userData: { tags: ['a', 'b'] } })));
  assert.equal(r.code, 1);
  assertNoTrace(r.lines);
  assert.match(
    errorLine(r.lines),
    /Error assigning parentId to a CSV file! \$parentId array cannot be multidimensional\. The column 'tags' .*give userData scalar values/,
  );
  assert.ok(outIsEmpty(r.dir));
});

test('an error message quoting a value that holds 1e400 quotes it as PHP does (empty), without a crash', async () => {
  const s = await api('[{"id":{"a":1e400}}]');
  const r = await runIn(makeDataDir(configText(`${s.url}/`, {}, {}, { pagination: { method: 'cursor', idKey: 'id', param: 'since' } })));
  assert.equal(r.code, 1);
  assertNoTrace(r.lines);
  assert.match(errorLine(r.lines), /Cursor value '' is not numeric\./);
});

/** Iteration 1 (or job 2) gives a function an object: a crash of the reference, when it starts. */
function laterCrash(baseUrl: string, where: 'iteration' | 'job'): string {
  const bad = { endpoint: 'orders', params: { a: { function: 'concat', args: [{ a: 1 }] } } };
  const root =
    where === 'iteration'
      ? {
          parameters: {
            api: { baseUrl },
            config: { outputBucket: 'b', jobs: [{ endpoint: 'users' }] },
            iterations: [{}, { outputBucket: 'c', jobs: [bad] }],
          },
        }
      : { parameters: { api: { baseUrl }, config: { outputBucket: 'b', jobs: [{ endpoint: 'users' }, bad] } } };
  return JSON.stringify(root);
}

for (const where of ['iteration', 'job'] as const) {
  test(`a crash in a later ${where} does not hide an earlier ${where}'s user error: exit 1, as in the reference`, async () => {
    const s = await startServer((req, res) => json(res, req.target.includes('users') ? 404 : 200, '[]'));
    servers.push(s);
    const r = await runIn(makeDataDir(laterCrash(`${s.url}/`, where)));
    assert.equal(r.code, 1, r.lines.join('\n'));
    assert.match(errorLine(r.lines), /The API request failed: \[404\]/);
    assert.ok(outIsEmpty(r.dir));
  });

  test(`the later ${where}'s crash comes when it starts, after the earlier one's requests: exit 2`, async () => {
    const s = await api('[{"id":1}]');
    const r = await runIn(makeDataDir(laterCrash(`${s.url}/`, where)));
    assert.equal(r.code, 2);
    assertNoTrace(r.lines);
    assert.match(errorLine(r.lines), /Object of class stdClass could not be converted to string/);
    assert.deepEqual(
      s.requests.map((q) => q.target),
      ['/users'],
    );
    assert.ok(outIsEmpty(r.dir));
  });
}

test('config.json nested 100,000 levels deep: the reference message (exit 2), no stack overflow', async () => {
  const n = 100_000;
  const deep = `${'['.repeat(n)}${']'.repeat(n)}`;
  const r = await runIn(
    makeDataDir(`{"parameters":{"api":{"baseUrl":"http://127.0.0.1:1/"},"config":{"jobs":[{"endpoint":"u","params":{"a":${deep}}}]}}}`),
  );
  assert.equal(r.code, 2);
  assertNoTrace(r.lines);
  assert.match(errorLine(r.lines), /logger\.ERROR: Configuration file is not a valid JSON: Maximum stack depth exceeded \[\] \[\]$/);
});
