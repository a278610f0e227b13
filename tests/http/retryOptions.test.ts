/**
 * Issue 33 point 3 / issue 27 point 1: `api.retryConfig` read as the reference reads it (spec 01
 * §3.11), for every type a user can write. What is asserted is what the reference makes observable:
 * the number of requests a failing endpoint receives before the run gives up (maxRetries + 1, or
 * one when nothing is retried), against a real server that fails at once (the waits between
 * attempts are not slept in these runs, so nothing here takes real time).
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { json, startServer, type TestServer } from '../helpers/httpServer.ts';
import { run } from '../helpers/dataDir.ts';
import { readMaxRetries, readStatusCode, retryPolicyFrom } from '../../src/http/retryOptions.ts';
import { DEFAULT_RETRY } from '../../src/http/retry.ts';
import { decodeJson } from '../../src/php/jsonDecode.ts';

const servers: TestServer[] = [];
after(async () => {
  for (const s of servers) await s.close();
});

/** Requests an endpoint answering `status` receives with `retryConfig` (JSON text as written: 2.9 and 500.0 stay floats). */
async function attempts(retryConfig: string, status = 500): Promise<{ requests: number; code: number; log: string }> {
  const s = await startServer((_req, res) => json(res, status, { error: 'failing' }));
  servers.push(s);
  const config = `{"parameters":{"api":{"baseUrl":"${s.url}/","retryConfig":${retryConfig}},"config":{"outputBucket":"b","jobs":[{"endpoint":"x"}]}}}`;
  const r = await run(config);
  return { requests: s.requests.length, code: r.code, log: r.lines.join('\n') };
}

/** retryConfig as written → requests sent to an endpoint that answers 500 every time. */
const MAX_RETRIES: [string, number][] = [
  ['{"maxRetries":2}', 3],
  ['{"maxRetries":"2"}', 3],
  ['{"maxRetries":2.9}', 3],
  ['{"maxRetries":"2.9"}', 3],
  ['{"maxRetries":" 2"}', 3],
  ['{"maxRetries":"2 apples"}', 3],
  ['{"maxRetries":"1e1"}', 11],
  ['{"maxRetries":"three"}', 1],
  ['{"maxRetries":""}', 1],
  ['{"maxRetries":0}', 1],
  ['{"maxRetries":-1}', 1],
  ['{"maxRetries":"-3"}', 1],
  ['{"maxRetries":false}', 1],
  ['{"maxRetries":true}', 2],
  ['{"maxRetries":[]}', 1],
  ['{"maxRetries":[5]}', 2],
  ['{"maxRetries":null}', 11],
  ['{"http":{"codes":[500]}}', 11],
];

for (const [retryConfig, requests] of MAX_RETRIES) {
  test(`retryConfig ${retryConfig}: a failing request is sent ${requests} time(s), then the run fails (exit 1)`, async () => {
    const r = await attempts(retryConfig);
    assert.equal(r.requests, requests, r.log);
    assert.equal(r.code, 1, r.log);
  });
}

/** retryConfig → status the server answers → requests sent. */
const CODES: [string, number, number][] = [
  ['{"maxRetries":1,"http":{"codes":[500]}}', 500, 2],
  ['{"maxRetries":1,"http":{"codes":["500"]}}', 500, 1],
  ['{"maxRetries":1,"http":{"codes":[500.0]}}', 500, 1],
  ['{"maxRetries":1,"http":{"codes":[]}}', 500, 1],
  ['{"maxRetries":1,"http":{"codes":null}}', 500, 2],
  ['{"maxRetries":1,"http":{"codes":[418]}}', 418, 2],
  ['{"maxRetries":1,"httpCodes":[418]}', 418, 2],
  ['{"maxRetries":1,"httpCodes":["418"]}', 418, 1],
  // A legacy key replaces the whole http object: its codes are gone, the defaults apply (418 is not one).
  ['{"maxRetries":1,"headerName":"X-Wait","http":{"codes":[418]}}', 418, 1],
  ['{"maxRetries":1,"httpCodes":null,"http":{"codes":[418]}}', 418, 1],
];

for (const [retryConfig, status, requests] of CODES) {
  test(`retryConfig ${retryConfig}, status ${status}: ${requests} request(s)`, async () => {
    const r = await attempts(retryConfig, status);
    assert.equal(r.requests, requests, r.log);
    assert.equal(r.code, 1, r.log);
  });
}

test('a listed 2xx status is retried, then processed as data (exit 0)', async () => {
  const r = await attempts('{"maxRetries":2,"http":{"codes":[200]}}', 200);
  assert.equal(r.requests, 3, r.log);
  assert.equal(r.code, 0, r.log);
});

test('the warning and the behaviour come from one reader: what a value counts as is what the run uses', () => {
  for (const text of ['"three"', '""', '"2.9"', '2.9', '-1', 'true', '[]', '"1e1"', '3', 'null']) {
    const value = decodeJson(text, 'config');
    const reading = readMaxRetries(value);
    assert.equal(retryPolicyFrom(decodeJson(`{"maxRetries":${text}}`, 'config')).maxRetries, reading.value, text);
    if (reading.note !== undefined) assert.match(reading.note, new RegExp(`counts as ${Math.max(reading.value, 0)}, so`), text);
  }
  assert.equal(readMaxRetries(decodeJson('3', 'config')).note, undefined, 'an integer reads as written');
  assert.equal(readMaxRetries(null).value, DEFAULT_RETRY.maxRetries);
  assert.equal(readStatusCode(decodeJson('"503"', 'config')).value, undefined);
  assert.match(readStatusCode(decodeJson('"503"', 'config')).note ?? '', /never matches a status/);
});
