/**
 * `oauth10` (spec 02 §9): OAuth 1.0a, HMAC-SHA1, header method. Every attempt gets a fresh nonce
 * and timestamp; the signature covers the oauth parameters, form-body parameters (FORM requests)
 * and query parameters. The query string itself is left untouched.
 */
import { createHmac } from 'node:crypto';
import { ApplicationError } from '../errors/ApplicationError.ts';
import { UserError } from '../errors/UserError.ts';
import { phpBytes } from '../functions/convert.ts';
import { JsonObject, PhpArray, phpType, type Value } from '../php/value.ts';
import type { Authenticator } from '../http/client.ts';
import type { PreparedRequest } from '../http/prepared.ts';
import { parseQueryRebuild, type RebuildValue } from '../php/guzzleQuery.ts';
import { rawurlencode } from '../php/urlEncoding.ts';
import { nonceOf, seconds, setAuthHeader, textOf } from './common.ts';
import { CREDENTIALS_PATH, DATA_PATH, decodeOAuthData, oauthCredentials } from './credentials.ts';
import { registerAuthMethod, type AuthSetup } from './registry.ts';

export interface OAuth1Keys {
  consumerKey: string;
  consumerSecret: string;
  token: string;
  tokenSecret: string;
}

export interface OAuth10Options {
  type: 'oauth10';
  keys: OAuth1Keys;
}

/** A credential as text: scalars in PHP string form; containers crash the reference (internal error). */
function credentialText(v: Value, path: string): string {
  if (Array.isArray(v) || v instanceof Map)
    throw new ApplicationError(`The OAuth 1.0 credential '${path}' must be a string.`, { context: { path } });
  return textOf(v);
}

/** The stored authorization: the application keys, then the user's token and secret in `#data`. */
function parseOAuth10Options(source: Value | undefined): OAuth10Options {
  const credentials = oauthCredentials(
    source,
    'OAuth API credentials not supplied in configuration.',
    (key) => `Missing '${key}' for OAuth 1.0 authorization.`,
  );
  // Decoded as a response: the reference requires a JSON object here, not a PHP array.
  const data = decodeOAuthData(
    credentials.data,
    'response',
    () => new UserError('The OAuth #data is not a valid JSON.', { configPath: DATA_PATH }),
  );
  if (!(data instanceof JsonObject)) {
    throw new UserError(
      `Key 'oauth_api.credentials'.#data must be object, given '${data instanceof PhpArray ? 'array' : phpType(data)}'.`,
      { configPath: DATA_PATH },
    );
  }
  const token = data.get('oauth_token');
  if (token === undefined || token === null) {
    throw new UserError("Missing 'oauth_api.credentials.#data.oauth_token' for OAuth 1.0 authorization.", { configPath: DATA_PATH });
  }
  const tokenSecret = data.get('oauth_token_secret');
  if (tokenSecret === undefined || tokenSecret === null) {
    throw new UserError("Missing 'oauth_api.credentials.#data.oauth_token_secret' for OAuth 1.0 authorization.", { configPath: DATA_PATH });
  }
  return {
    type: 'oauth10',
    keys: {
      consumerKey: credentialText(credentials.appKey, `${CREDENTIALS_PATH}.appKey`),
      consumerSecret: credentialText(credentials.appSecret, `${CREDENTIALS_PATH}.#appSecret`),
      token: credentialText(token, `${DATA_PATH}.oauth_token`),
      tokenSecret: credentialText(tokenSecret, `${DATA_PATH}.oauth_token_secret`),
    },
  };
}

/** Byte-wise comparison of two strings' UTF-8 forms (PHP `strcmp`). */
function strcmp(a: string, b: string): number {
  return Buffer.compare(phpBytes(a), phpBytes(b));
}

/** PHP `http_build_query($params, '', '&', PHP_QUERY_RFC3986)` for string/null/list values. */
function buildRfc3986(params: [string, RebuildValue][]): string {
  const parts: string[] = [];
  for (const [k, v] of params) {
    const key = rawurlencode(k);
    if (Array.isArray(v)) {
      v.forEach((x, i) => {
        if (x !== null) parts.push(`${key}%5B${i}%5D=${rawurlencode(x)}`);
      });
    } else if (v !== null) {
      parts.push(`${key}=${rawurlencode(v)}`);
    }
  }
  return parts.join('&');
}

/** `scheme://[userinfo@]host[:port]path` — the request URL without query (Spec 9.1.2). */
function baseUrl(request: PreparedRequest): string {
  const { url } = request;
  const userinfo = url.userinfo !== undefined ? `${url.userinfo}@` : '';
  const port = url.port !== undefined ? `:${url.port}` : '';
  return `${url.scheme}://${userinfo}${url.host}${port}${url.path}`;
}

/** The `Authorization` header value for one attempt (exported for tests). */
export function oauth1Header(request: PreparedRequest, keys: OAuth1Keys, nonce: string, timestamp: number): string {
  const oauth: [string, string][] = [
    ['oauth_consumer_key', keys.consumerKey],
    ['oauth_nonce', nonce],
    ['oauth_signature_method', 'HMAC-SHA1'],
    ['oauth_timestamp', String(timestamp)],
    ['oauth_token', keys.token],
    ['oauth_version', '1.0'],
  ];
  const params = new Map<string, RebuildValue>(oauth);
  const addMissing = (from: Map<string, RebuildValue>): void => {
    for (const [k, v] of from) if (!params.has(k)) params.set(k, v);
  };
  if (request.headers.get('content-type') === 'application/x-www-form-urlencoded' && request.body !== undefined) {
    // Form bodies are percent-encoded ASCII.
    addMissing(parseQueryRebuild(request.body.toString('latin1')));
  }
  addMissing(parseQueryRebuild(request.url.query ?? ''));
  const sorted = [...params.entries()].filter(([, v]) => v !== null).sort(([a], [b]) => strcmp(a, b));
  const base = `${request.method.toUpperCase()}&${rawurlencode(baseUrl(request))}&${rawurlencode(buildRfc3986(sorted))}`;
  const key = `${rawurlencode(keys.consumerSecret)}&${rawurlencode(keys.tokenSecret)}`;
  const signature = createHmac('sha1', phpBytes(key)).update(phpBytes(base)).digest('base64');
  const header = [...oauth, ['oauth_signature', signature] as [string, string]]
    .sort(([a], [b]) => strcmp(a, b))
    .map(([k, v]) => `${k}="${rawurlencode(v)}"`)
    .join(', ');
  return `OAuth ${header}`;
}

export function createOAuth10Auth(setup: AuthSetup, { keys }: OAuth10Options): Authenticator {
  return {
    authenticate: async (request) => {
      const nonce = nonceOf(setup.nonce, 40, request.url.host + request.url.path);
      const header = oauth1Header(request, keys, nonce, seconds(setup.nowMs));
      // The signed header is a secret of this attempt (issue 19 #1); so is the signature inside it.
      setup.logger.secrets.addRecent(header);
      const signature = /oauth_signature="([^"]*)"/.exec(header)?.[1];
      if (signature !== undefined) setup.logger.secrets.addRecent(signature);
      setAuthHeader(request, 'Authorization', header);
    },
  };
}

registerAuthMethod({
  type: 'oauth10',
  description: 'OAuth 1.0a (HMAC-SHA1, Authorization header) with the tokens of authorization.oauth_api.credentials.',
  options: {},
  example: {
    authentication: { type: 'oauth10' },
    authorization: {
      oauth_api: {
        credentials: {
          '#data': '{"oauth_token":"userToken","oauth_token_secret":"tokenSecret"}',
          appKey: 'consumerKey',
          '#appSecret': 'consumerSecret',
        },
      },
    },
    sends:
      'An `Authorization: OAuth oauth_consumer_key="consumerKey", oauth_nonce=…, oauth_signature=…` header (HMAC-SHA1) on every request.',
  },
  parse: (source) => parseOAuth10Options(source.oauthCredentials),
  create: createOAuth10Auth,
});
