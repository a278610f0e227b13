/**
 * With debug logging on, no secret of the configuration (keys starting with `#`, and the strings
 * inside `#data`) shows up in any log line, in raw or URL-encoded form, for every auth type.
 */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { awsCredentialsFrom, createAwsSigner } from '../../src/auth/awsSignature.ts';
import { rawurlencode, urlencode } from '../../src/php/urlEncoding.ts';
import { cfg, harness, startServer, type HarnessOptions } from './helpers.ts';

const SECRETS = {
  user: 'John Doe~',
  password: 'p@ss w0rd/é!',
  key: 'k€y 1~(x)',
  login: 'Top Secret/1',
  refresh: 'refr esh~tok',
  accessToken: 'acc/ess tok~en',
  macSecret: 'mac sec~ret',
  appSecret: 'app sec/ret',
  tokenSecret: 'tok en~secret',
  aws: 'aws/sec+ret key',
};

function forms(secret: string): string[] {
  return [secret, urlencode(secret), rawurlencode(secret), encodeURIComponent(secret)];
}

it('debug logs never contain secrets, for every auth type', async () => {
  const server = await startServer((r, i) => {
    if (r.target.includes('missing-404')) return { status: 404, body: '{"error":"nope"}' };
    if (r.target.includes('login') || r.target.includes('token')) return { body: JSON.stringify({ token: 'T', access_token: 'A' }) };
    return i % 3 === 1 ? { status: 500 } : {};
  });
  const oauth2Data = JSON.stringify({ access_token: SECRETS.accessToken, mac_secret: SECRETS.macSecret, refresh_token: SECRETS.refresh });
  const cases: Record<string, Omit<HarnessOptions, 'baseUrl'>> = {
    basic: { authentication: { type: 'basic' }, attributes: { '#username': SECRETS.user, '#password': SECRETS.password } },
    query: {
      authentication: { type: 'query', query: { key: { attr: '#key' }, sig: { function: 'md5', args: [{ attr: '#key' }] } } },
      attributes: { '#key': SECRETS.key },
    },
    login: {
      authentication: {
        type: 'login',
        loginRequest: { endpoint: 'login', params: { user: { attr: '#user' }, password: { attr: '#password' } } },
        apiRequest: {
          headers: { Authorization: { function: 'concat', args: ['Bearer ', { response: 'token' }] } },
          query: { k: { attr: '#user' } },
        },
        expires: 0,
      },
      attributes: { '#user': SECRETS.login, '#password': SECRETS.password },
    },
    'oauth20.login': {
      authentication: {
        type: 'oauth20.login',
        loginRequest: {
          endpoint: 'token',
          params: { refresh: { user: 'refresh_token' }, secret: { consumer: 'client_secret' } },
          headers: { 'X-Secret': { consumer: 'client_secret' } },
        },
        apiRequest: { query: { access_token: 'access_token' } },
      },
      oauthCredentials: { '#data': oauth2Data, appKey: 'id', '#appSecret': SECRETS.appSecret },
    },
    oauth20: {
      authentication: {
        type: 'oauth20',
        format: 'json',
        query: { access_token: { authorization: 'data.access_token' } },
        headers: { 'X-Mac': { function: 'concat', args: [{ authorization: 'data.mac_secret' }] } },
      },
      oauthCredentials: { '#data': oauth2Data, appKey: 'id', '#appSecret': SECRETS.appSecret },
    },
    oauth10: {
      authentication: { type: 'oauth10' },
      oauthCredentials: {
        '#data': JSON.stringify({ oauth_token: 'tok', oauth_token_secret: SECRETS.tokenSecret }),
        appKey: 'id',
        '#appSecret': SECRETS.appSecret,
      },
    },
  };
  try {
    for (const [type, options] of Object.entries(cases)) {
      const signer = createAwsSigner(
        awsCredentialsFrom(cfg({ accessKeyId: 'AKID', '#secretKey': SECRETS.aws, serviceName: 's', regionName: 'r' })),
        Date.now,
      );
      const h = harness({
        baseUrl: `${server.url}/api/`,
        ...options,
        signer,
        secretsFrom: {
          parameters: { config: options.attributes ?? {}, aws: { signature: { credentials: { '#secretKey': SECRETS.aws } } } },
          authorization: { oauth_api: { credentials: options.oauthCredentials ?? {} } },
        },
      });
      try {
        await h.send({ endpoint: 'items', params: { page: 1 } });
        await h.send({ endpoint: 'items', params: { page: 2 } });
        await h.send({ endpoint: 'missing-404' }).then((res) => {
          if (res.status >= 400)
            h.logger.error(
              `The API request failed: [${res.status}] ${res.request.method} ${res.request.url.path}?${res.request.url.query ?? ''}`,
            );
        });
      } finally {
        h.close();
      }
      assert.ok(h.lines.length >= 4, type);
      assert.ok(
        h.lines.some((l) => l.includes('HTTP/1.1')),
        `${type}: debug request lines were written`,
      );
      for (const l of h.lines) {
        for (const secret of Object.values(SECRETS)) {
          for (const form of forms(secret)) assert.ok(!l.includes(form), `${type}: ${JSON.stringify(form)} in ${l}`);
        }
      }
    }
  } finally {
    await server.close();
  }
});
