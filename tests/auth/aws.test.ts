import assert from 'node:assert/strict';
import fs from 'node:fs';
import { decodeJson } from '../../src/php/jsonDecode.ts';
import { member } from '../../src/php/value.ts';
import { startMockServer } from '../../src/mock-server/server.ts';
import { describe, it } from 'node:test';
import { UserError } from '../../src/errors/UserError.ts';
import { amzDate, awsCredentialsFrom, awsCredentialsOf, createAwsSigner, signRequest } from '../../src/auth/awsSignature.ts';
import { HeaderList } from '../../src/http/headers.ts';
import type { PreparedRequest } from '../../src/http/prepared.ts';
import { cfg, harness, header, line, startServer } from './helpers.ts';
import { cleanup, runWith, startFaultServer } from '../reliability/helpers.ts';

const SUITE = {
  accessKeyId: 'AKIDEXAMPLE',
  secretKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY',
  serviceName: 'service',
  regionName: 'us-east-1',
};
const SUITE_TIME = Date.UTC(2015, 7, 30, 12, 36, 0);

function request(query?: string): PreparedRequest {
  return {
    method: 'GET',
    url: { scheme: 'https', userinfo: undefined, host: 'example.amazonaws.com', port: undefined, path: '/', query },
    headers: HeaderList.from([
      ['User-Agent', ['GuzzleHttp/7']],
      ['Host', ['example.amazonaws.com']],
      ['Authorization', ['Basic old']],
      ['Date', ['yesterday']],
    ]),
    body: undefined,
    authHeaders: new Set(),
  };
}

describe('AWS Signature V4', () => {
  it('matches the AWS test suite (get-vanilla, get-vanilla-query-order-key-case)', () => {
    assert.equal(amzDate(SUITE_TIME), '20150830T123600Z');
    const vanilla = request();
    signRequest(vanilla, SUITE, SUITE_TIME);
    assert.deepEqual(
      vanilla.headers.entries.map((e) => e.name),
      ['User-Agent', 'Host', 'X-Amz-Date', 'Authorization'],
    );
    assert.equal(vanilla.headers.get('x-amz-date'), '20150830T123600Z');
    assert.equal(
      vanilla.headers.get('authorization'),
      'AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request, SignedHeaders=host;x-amz-date, Signature=5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31',
    );
    const query = request('Param2=value2&Param1=value1');
    signRequest(query, SUITE, SUITE_TIME);
    assert.match(query.headers.get('authorization')!, /Signature=b97d918cfa904a5beff61c982a1b6f458b799221646efd99d3219ec94cdf2500$/);
    assert.equal(query.url.query, 'Param2=value2&Param1=value1');
  });

  it('validates the credentials', () => {
    for (const key of ['accessKeyId', '#secretKey', 'serviceName', 'regionName']) {
      const creds = { accessKeyId: 'a', '#secretKey': 's', serviceName: 'execute-api', regionName: 'eu-west-1', [key]: '' };
      assert.throws(
        () => createAwsSigner(awsCredentialsFrom(cfg(creds)), Date.now),
        (e: Error) => {
          assert.ok(e instanceof UserError);
          assert.equal(e.message, `Option "${key}" under "parameters.aws.signature.credentials" cannot be empty.`);
          return true;
        },
      );
    }
    assert.equal(awsCredentialsOf(cfg({ aws: { signature: { credentials: {} } } })), undefined);
    assert.ok(
      awsCredentialsOf(
        cfg({ aws: { signature: { credentials: { accessKeyId: 'a', '#secretKey': 's', serviceName: 'x', regionName: 'y' } } } }),
      ),
    );
  });

  it('signs every request last (login included), replacing the auth Authorization and re-encoding the query', async () => {
    const server = await startServer((r) => (r.target.startsWith('/login') ? { body: '{"t":"tok"}' } : {}));
    const signer = createAwsSigner(
      awsCredentialsFrom(cfg({ accessKeyId: 'AKID', '#secretKey': 'secret', serviceName: 'execute-api', regionName: 'eu-central-1' })),
      () => SUITE_TIME,
    );
    const h = harness({
      baseUrl: `${server.url}/`,
      signer,
      authentication: { type: 'login', loginRequest: { endpoint: 'login' }, apiRequest: { headers: { Authorization: 'Bearer x' } } },
    });
    try {
      await h.send({ endpoint: 'items', params: { q: 'a b~', z: '1' }, headers: { 'X-Custom': 'v' } });
      const [login, items] = server.requests;
      for (const [r, signed] of [
        [login!, 'host;x-amz-date'],
        [items!, 'host;x-amz-date;x-custom'],
      ] as const) {
        assert.equal(header(r, 'x-amz-date'), '20150830T123600Z');
        const re = new RegExp(
          `^AWS4-HMAC-SHA256 Credential=AKID/20150830/eu-central-1/execute-api/aws4_request, SignedHeaders=${signed}, Signature=[0-9a-f]{64}$`,
        );
        assert.match(header(r, 'authorization')!, re);
      }
      assert.equal(line(items!), 'GET /items?q=a%20b~&z=1');
      // The debug line is written before signing: no AWS header there.
      assert.ok(h.lines.some((l) => l.includes('GET /items?q=a%20b~&z=1 HTTP/1.1') && !l.includes('X-Amz-Date')));
    } finally {
      h.close();
      await server.close();
    }
  });
});

const EXAMPLE_143 = '/work/shared/conformance/examples/143-aws-signature-request/config.json';

it('143-aws-signature-request: the replay server accepts the signed request', {
  skip: !fs.existsSync(EXAMPLE_143) && 'examples not found',
}, async () => {
  const config = decodeJson(fs.readFileSync(EXAMPLE_143, 'utf8'), 'config');
  const parameters = member(config, 'parameters');
  const keys = awsCredentialsOf(parameters);
  assert.ok(keys);
  const signer = createAwsSigner(keys, () => SUITE_TIME);
  const server = await startMockServer({ dir: '/work/shared/conformance/examples' });
  const h = harness({ baseUrl: `${server.url}/143-aws-signature-request/`, signer });
  try {
    const res = await h.send({ endpoint: 'users' });
    assert.equal(res.status, 200);
    assert.equal(server.requests.at(-1)!.matched, '143-aws-signature-request/users');
    assert.match(
      server.requests.at(-1)!.headers['authorization']!,
      /^AWS4-HMAC-SHA256 Credential=testAccessKey\/20150830\/testRegion\/testService\/aws4_request, /,
    );
  } finally {
    h.close();
    await server.close();
  }
});

it('the signature alone is a secret: an S3-style error echoing <SignatureProvided> shows it hidden', async () => {
  const api = await startFaultServer((q, res) => {
    const signature = /Signature=([0-9a-f]+)/.exec(String(q.headers.authorization))?.[1] ?? '';
    res.writeHead(403, { 'content-type': 'application/xml' });
    res.end(`<Error><Code>SignatureDoesNotMatch</Code><SignatureProvided>${signature}</SignatureProvided></Error>`);
  });
  const run = await runWith({
    parameters: {
      api: { baseUrl: `${api.url}/` },
      aws: {
        signature: {
          credentials: {
            accessKeyId: 'AKIDEXAMPLE',
            '#secretKey': SUITE.secretKey,
            serviceName: 'execute-api',
            regionName: 'eu-central-1',
          },
        },
      },
      config: { debug: true, jobs: [{ endpoint: 'items' }] },
    },
  });
  try {
    const signature = /Signature=([0-9a-f]+)/.exec(String(api.requests[0]!.headers.authorization))![1]!;
    const log = run.lines.join('\n');
    assert.ok(log.includes('<SignatureProvided>[hidden]</SignatureProvided>'), log);
    // Not even a part of it (a message cut at 120 characters must be cut after hiding).
    assert.ok(!log.includes(signature.slice(0, 16)), log);
  } finally {
    cleanup(run);
    await api.close();
  }
});
