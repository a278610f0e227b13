/**
 * Dispatch and contract (spec 05 §1): which `action` values are sync actions, the output
 * framing, the envelope with exit 0, exit 2 for an unknown action, the time limit.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { runSyncAction } from '../../src/actions/index.ts';
import { createLogger } from '../../src/logging/logger.ts';
import { makeDataDir } from '../helpers/dataDir.ts';
import { startServer } from '../helpers/httpServer.ts';
import { lastLine, outIsEmpty, runAction } from './run.ts';

test('an answer is one Python-framed JSON document, no trailing newline, exit 0, stderr empty', async () => {
  const r = await runAction({
    action: 'perform_function',
    parameters: { config: {}, __FUNCTION_CFG: [1.0, 10000000000000000, 1.5e-7, 'ž/é', { a: null }, 123456789012345678901234567890] },
  });
  // JSON.stringify writes 1.0 as 1: the float is given in the text instead.
  assert.equal(r.code, 0);
  assert.equal(r.stderr, '');
  assert.equal(r.stdout, '{"result": [1, 10000000000000000, 1.5e-07, "\\u017e/\\u00e9", {"a": null}, 1.2345678901234568e+29]}');
  assert.ok(outIsEmpty(r.dir));
});

test('floats keep their Python form and big integers stay exact', async () => {
  const r = await runAction(
    '{"action":"perform_function","parameters":{"config":{},"__FUNCTION_CFG":[1.0,1e16,0.1,1234567890123456789,-0.0001]}}',
  );
  assert.equal(r.stdout, '{"result": [1.0, 1e+16, 0.1, 1234567890123456789, -0.0001]}');
});

test('"" is a sync action (test_request); a missing __SELECTED_JOB is an envelope', async () => {
  const r = await runAction({ action: '', parameters: { config: { jobs: [] }, api: { baseUrl: 'http://127.0.0.1:1/' } } });
  assert.equal(r.code, 0);
  assert.equal(r.stderr, '');
  const answer = r.answer();
  assert.deepEqual(Object.keys(answer), ['status', 'traceback']);
  assert.equal(answer.status, 'exception');
  assert.equal(answer.traceback[0], 'Traceback (most recent call last):\n');
  assert.equal(lastLine(r), 'ValueError: __SELECTED_JOB is missing!\n');
});

test('an unknown action exits 2 with an ERROR line and the text on stderr, stdout has no answer', async () => {
  for (const action of ['testConnection', 'test-request', 'Run']) {
    const r = await runAction({ action, parameters: { config: {} } });
    assert.equal(r.code, 2, action);
    assert.match(r.stdout, /logger\.ERROR: The defined action .* is not implemented!/);
    assert.ok(r.stdout.includes('test_request'), 'the known actions are listed');
    assert.equal(r.stderr, `The defined action ${action} is not implemented!\n`);
    assert.ok(outIsEmpty(r.dir));
  }
});

test('errors inside an action are envelopes with exit 0 and never a JavaScript stack', async () => {
  const r = await runAction({
    action: 'perform_function',
    parameters: { config: {}, __FUNCTION_CFG: { function: 'concat', args: ['a', 1] } },
  });
  assert.equal(r.code, 0);
  assert.equal(lastLine(r), 'TypeError: sequence item 1: expected str instance, int found\n');
  assert.doesNotMatch(r.stdout + r.stderr, /\.ts:\d+|at .*\(/);
});

test('parameters.config must be an object, and the authentication is built for every action', async () => {
  const noConfig = await runAction({ action: 'perform_function', parameters: { __FUNCTION_CFG: 'x' } });
  assert.match(lastLine(noConfig), /^AttributeError: /);
  const badAuth = await runAction({
    action: 'perform_function',
    parameters: { config: { __AUTH_METHOD: 'oauth20' }, __FUNCTION_CFG: 'x' },
  });
  assert.equal(lastLine(badAuth), 'ValueError: Unsupported auth method: oauth20\n');
  const basic = await runAction({
    action: 'load_from_curl',
    parameters: { config: {}, api: { authentication: { type: 'basic' } }, __CURL_COMMAND: 'curl http://a.b/c' },
  });
  assert.equal(lastLine(basic), 'ValueError: Username or password not found in the BasicAuth configuration\n');
});

test('a run still running at the time limit is stopped: ERROR "exceeded the timeout", exit 2, no answer', async () => {
  // A server that never answers keeps test_request waiting.
  const server = await startServer(() => {});
  const dir = makeDataDir({
    action: 'test_request',
    parameters: { __SELECTED_JOB: '0', config: { jobs: [{ endpoint: 'slow' }] }, api: { baseUrl: `${server.url}/` } },
  });
  const lines: string[] = [];
  const out: string[] = [];
  const code = await runSyncAction({
    action: 'test_request',
    configFile: path.join(dir, 'config.json'),
    logger: createLogger({ write: (l) => lines.push(l) }),
    writeStdout: (t) => out.push(t),
    writeStderr: (t) => out.push(t),
    timeoutMs: 300,
  });
  await server.close();
  assert.equal(code, 2);
  assert.deepEqual(out, []);
  assert.equal(lines.length, 1);
  assert.match(lines[0]!, /logger\.ERROR: Unexpected error: The sync action "test_request" exceeded the timeout of 0 seconds\./);
});

/** Runs `config` in-process with a short answer budget; the answer parsed, the lines logged. */
async function withBudget(config: unknown, budgetMs: number) {
  const dir = makeDataDir(config);
  const out: string[] = [];
  const lines: string[] = [];
  const code = await runSyncAction({
    action: (config as { action: string }).action,
    configFile: path.join(dir, 'config.json'),
    logger: createLogger({ write: (l) => lines.push(l) }),
    writeStdout: (t) => out.push(t),
    writeStderr: (t) => lines.push(t),
    budgetMs,
  });
  return { code, lines, stdout: out.join(''), answer: JSON.parse(out.join('')) };
}

function busyServer() {
  return startServer((_req, res) => {
    res.writeHead(503, { 'Retry-After': '1', 'Content-Type': 'text/plain' });
    res.end('busy');
  });
}

const job = (baseUrl: string, action: string) => ({
  action,
  parameters: { __SELECTED_JOB: '0', config: { jobs: [{ endpoint: 'busy' }] }, api: { baseUrl: `${baseUrl}/` } },
});

test('test_request: retries that would outlast the budget stop, and the last 503 is answered as the helper answers it', async () => {
  const server = await busyServer();
  const r = await withBudget(job(server.url, 'test_request'), 2500);
  await server.close();
  assert.equal(r.code, 0);
  assert.deepEqual(r.lines, [], 'nothing on stderr or in the log');
  // Retry-After: 1 → requests at 0, 1 and 2 s; the next pause would end after 2.5 s.
  assert.equal(server.requests.length, 3);
  assert.equal(r.answer.response.status_code, 503);
  assert.equal(r.answer.response.data, 'busy');
  assert.deepEqual(r.answer.records, []);
  assert.match(
    r.answer.debug_log,
    /Retries stopped after 3 attempts of GET .*\/busy: the next wait \(1\.0 s\) would end after the sync action's retry budget \(2\.5 s/,
  );
});

test('infer_mapping: the same stop is the "too many retries" envelope the helper gives', async () => {
  const server = await busyServer();
  const r = await withBudget(job(server.url, 'infer_mapping'), 2500);
  await server.close();
  assert.equal(r.code, 0);
  assert.equal(server.requests.length, 3);
  assert.equal(
    r.answer.traceback.at(-1),
    'keboola.component.exceptions.UserException: Request "GET: busy" failed, too many retries. Status Code: 503. Response: busy\n',
  );
});

test('a host that refuses connections: the network error envelope after the attempts that fit the budget', async () => {
  const probe = await startServer(() => {});
  const url = probe.url;
  await probe.close();
  const r = await withBudget(job(url, 'test_request'), 2500);
  assert.equal(r.code, 0);
  // The helper's back-off: at once, then 0.6 s and 1.2 s (attempts at 0, 0, 0.6 and 1.8 s); the
  // next pause, 2.4 s, would end after 2.5 s, so four attempts.
  assert.match(
    r.answer.traceback.at(-1),
    /^keboola\.component\.exceptions\.UserException: Request "GET: busy" failed with the following error: Failed to connect to 127\.0\.0\.1 port \d+: Connection refused \(GET http:\/\/127\.0\.0\.1:\d+\/busy, after 4 attempts\)\n$/,
  );
});

test('a server that never answers: the attempt ends 3 s after the budget and the timeout is answered, not the hard limit', async () => {
  const server = await startServer(() => {});
  const r = await withBudget(job(server.url, 'test_request'), 100);
  await server.close();
  assert.equal(r.code, 0);
  assert.equal(server.requests.length, 1);
  assert.match(
    r.answer.traceback.at(-1),
    /failed with the following error: Operation timed out after \d+ milliseconds with 0 bytes received/,
  );
});

test('the time limit is read while the answer is encoded: a limit over by then prints nothing and exits 2', async () => {
  // The answer is ready before any timer can run; only the writer's own reading of the clock sees the limit.
  const dir = makeDataDir({
    action: 'perform_function',
    parameters: { config: {}, __FUNCTION_CFG: { function: 'sprintf', args: ['%5000000s', 'x'] } },
  });
  const lines: string[] = [];
  const out: string[] = [];
  const code = await runSyncAction({
    action: 'perform_function',
    configFile: path.join(dir, 'config.json'),
    logger: createLogger({ write: (l) => lines.push(l) }),
    writeStdout: (t) => out.push(t),
    writeStderr: (t) => out.push(t),
    timeoutMs: 0,
  });
  assert.equal(code, 2);
  assert.deepEqual(out, []);
  assert.match(lines.join('\n'), /logger\.ERROR: Unexpected error: The sync action "perform_function" exceeded the timeout of 0 seconds\./);
});

test('sprintf with a field wider than any text fails as an allocation does (MemoryError), answered at once', async () => {
  const r = await runAction({
    action: 'perform_function',
    parameters: { config: {}, __FUNCTION_CFG: { function: 'sprintf', args: ['%900000000s', 'x'] } },
  });
  assert.equal(r.code, 0);
  assert.equal(lastLine(r), 'MemoryError: a field width of 900000000 characters is more than the 536870888 a text can hold\n');
});
