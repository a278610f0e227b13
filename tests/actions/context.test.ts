/**
 * The action context (src/actions/context.ts, spec 05 §4.1 step 1): the user parameters are
 * evaluated once and that value reaches everything that reads them — the login request too.
 * The helper evaluates them a second time for its login (§2.5 step 1); here a `time` parameter
 * is one value for the login and the API request, whatever the clock did in between.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { json, startServer, type TestServer } from '../helpers/httpServer.ts';
import { runActionInProcess } from './run.ts';

let api: TestServer;
before(async () => {
  api = await startServer((req, res) => {
    if (req.target.startsWith('/login')) return json(res, 200, { token: 'session-1' });
    json(res, 200, [{ id: 1 }]);
  });
});
after(() => api.close());

test('user parameters are evaluated once: the login and the API request get the same `time`, the clock read once', async () => {
  const config = {
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
  };
  // Every reading of the clock is ten seconds after the one before.
  let readings = 0;
  const before = api.requests.length;
  const { code, stdout } = await runActionInProcess(config, () => 1_700_000_000_000 + 10_000 * readings++);
  assert.equal(code, 0, stdout);
  const [login, request] = api.requests.slice(before);
  assert.equal(login!.target, '/login?at=1700000000');
  assert.equal(request!.target, '/items?at=1700000000');
  assert.equal(request!.headers['x-session'], 'session-1');
  assert.equal(readings, 1, 'the clock is read for the one evaluation of `stamp`');
});
