/**
 * Job params, user data and client headers evaluated with the run's secrets: a value a user
 * function computes from a `#` key (an HMAC signature, a hash) is hidden in every log line, as
 * the key itself is (docs/failures.md, "Secrets").
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { cleanup, runWith, sendJson, startFaultServer, type FaultServer } from '../reliability/helpers.ts';

let api: FaultServer;
before(async () => {
  // An API that refuses the signature and echoes what it received: URL and headers.
  api = await startFaultServer((q, res) => {
    if (q.target.startsWith('/to?')) {
      res.writeHead(302, { Location: new URL(q.target, 'http://x').searchParams.get('location')! });
      return res.end();
    }
    sendJson(res, 403, { error: 'bad signature', url: q.target, headers: q.headers });
  });
});
after(() => api.close());

test('a signature or hash computed from a # key, in a header or a job parameter, is hidden in the log (debug on)', async () => {
  const key = { attr: '#key' };
  const run = await runWith({
    parameters: {
      api: {
        baseUrl: `${api.url}/`,
        retryConfig: { maxRetries: 0 },
        http: { headers: { 'X-Sig': { function: 'hash_hmac', args: ['sha256', 'payload', key] } } },
      },
      config: {
        debug: true,
        '#key': 'hmacKey-secret-1',
        jobs: [{ endpoint: 'items', params: { hash: { function: 'sha1', args: [{ function: 'concat', args: [key, '-salt'] }] } } }],
      },
    },
  });
  try {
    const received = api.requests.at(-1)!;
    const sent = [String(received.headers['x-sig']), new URL(received.target, 'http://x').searchParams.get('hash')!];
    assert.equal(sent[0].length, 64);
    const log = run.lines.join('\n');
    for (const value of sent) assert.ok(!log.includes(value.slice(0, 16)), `${value} in\n${log}`);
    assert.ok(log.includes('hash=[hidden]'), log);
  } finally {
    cleanup(run);
  }
});

test('a redirect to another origin goes without a header holding a signature computed from a # key', async () => {
  const foreign = await startFaultServer((_q, res) => sendJson(res, 200, [{ landed: true }]));
  const run = await runWith({
    parameters: {
      api: {
        baseUrl: `${api.url}/`,
        http: { headers: { 'X-Sig': { function: 'hash_hmac', args: ['sha256', 'payload', { attr: '#key' }] } } },
      },
      config: { '#key': 'hmacKey-secret-1', jobs: [{ endpoint: 'to', params: { location: `${foreign.url}/landing` } }] },
    },
  });
  try {
    assert.equal(run.code, 0, run.lines.join('\n'));
    assert.equal(String(api.requests.at(-1)!.headers['x-sig']).length, 64);
    assert.equal(foreign.requests[0]!.headers['x-sig'], undefined);
    assert.ok(
      run.lines.some((l) => l.includes('Credentials withheld from') && l.includes('X-Sig')),
      run.lines.join('\n'),
    );
  } finally {
    cleanup(run);
    await foreign.close();
  }
});
