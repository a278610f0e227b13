/**
 * The action context (src/actions/context.ts, spec 05 §4.1 step 1): the user parameters are
 * evaluated once and that value reaches everything that reads them — the login request too.
 * The helper evaluates them a second time for its login (§2.5 step 1); here a `time` parameter
 * is one value for the login and the API request, whatever the clock did in between.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { runSyncAction } from '../../src/actions/index.ts';
import { createLogger } from '../../src/logging/logger.ts';
import { makeDataDir } from '../helpers/dataDir.ts';
import { json, startServer, type TestServer } from '../helpers/httpServer.ts';

let api: TestServer;
before(async () => {
  api = await startServer((req, res) => {
    if (req.target.startsWith('/login')) return json(res, 200, { token: 'session-1' });
    json(res, 200, [{ id: 1 }]);
  });
});
after(() => api.close());

test('user parameters are evaluated once: the login and the API request get the same `time`, the clock read once', async () => {
  const dir = makeDataDir({
    action: 'test_request',
    parameters: {
      __SELECTED_JOB: '0',
      api: {
        baseUrl: `${api.url}/`,
        authentication: {
          type: 'login',
          loginRequest: { endpoint: 'login', params: { at: { attr: 'stamp' } } },
          apiRequest: { headers: { 'X-Session': { response: 'token' } } },
        },
      },
      config: { stamp: { function: 'time' }, jobs: [{ endpoint: 'items', params: { at: { attr: 'stamp' } } }] },
    },
  });
  // Every reading of the clock is ten seconds after the one before.
  let readings = 0;
  const nowMs = () => 1_700_000_000_000 + 10_000 * readings++;
  let out = '';
  const before = api.requests.length;
  const code = await runSyncAction({
    action: 'test_request',
    configFile: path.join(dir, 'config.json'),
    logger: createLogger({ write: () => {} }),
    writeStdout: (t) => {
      out += t;
    },
    writeStderr: () => {},
    nowMs,
  });
  assert.equal(code, 0, out);
  const [login, request] = api.requests.slice(before);
  assert.equal(login!.target, '/login?at=1700000000');
  assert.equal(request!.target, '/items?at=1700000000');
  assert.equal(request!.headers['x-session'], 'session-1');
  assert.equal(readings, 1, 'the clock is read for the one evaluation of `stamp`');
});
