/**
 * The authentication set-up line tells the truth (issue 18): with no authentication type but
 * credentials in configured headers, "Using no authentication." would mislead.
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { json, startServer, type TestServer } from '../helpers/httpServer.ts';
import { run } from '../helpers/dataDir.ts';
import { noAuthenticationLine } from '../../src/auth/index.ts';

const servers: TestServer[] = [];
after(async () => {
  for (const s of servers) await s.close();
});

test('no type, an Authorization header in api.http.headers: the line names the header and where it is set', async () => {
  const s = await startServer((_req, res) => json(res, 200, [{ id: 1 }]));
  servers.push(s);
  const r = await run({
    parameters: {
      api: { baseUrl: `${s.url}/`, http: { headers: { Authorization: { function: 'concat', args: ['Bearer ', { attr: '#token' }] } } } },
      config: {
        outputBucket: 'b',
        debug: true,
        '#token': 'tok-123456789',
        http: { headers: { 'X-Api-Key': 'k-987654321', Accept: 'json' } },
        jobs: [{ endpoint: 'users' }],
      },
    },
  });
  assert.equal(r.code, 0, r.lines.join('\n'));
  assert.equal(s.requests[0]!.headers['authorization'], 'Bearer tok-123456789');
  const line = r.lines.find((l) => l.includes('authentication'))!;
  assert.match(
    line,
    /logger\.DEBUG: Using no authentication type: credentials are sent in the headers 'Authorization' from parameters\.api\.http\.headers; 'X-Api-Key' from parameters\.config\.http\.headers\. \[\] \[\]$/,
  );
  assert.ok(!r.lines.some((l) => l.includes('tok-123456789')));
});

test('no credential-like headers: the reference line, unchanged', () => {
  assert.equal(noAuthenticationLine(undefined), 'Using no authentication.');
  assert.equal(noAuthenticationLine(new Map([['parameters.api.http.headers', ['Accept', 'Accept-Encoding']]])), 'Using no authentication.');
  assert.equal(
    noAuthenticationLine(new Map([['parameters.api.http.defaultOptions.headers', ['X-Auth-Token']]])),
    "Using no authentication type: credentials are sent in the header 'X-Auth-Token' from parameters.api.http.defaultOptions.headers.",
  );
});
