/**
 * `oauth20` (spec 02 §8): headers and query parameters computed on every attempt from the
 * `authorization` context (clientId, nonce, timestamp, data from `#data`), the `query` and the
 * `request` contexts. Covers bearer tokens and MAC signatures.
 */
import { ApplicationError } from '../errors/ApplicationError.ts';
import { JsonDecodeError } from '../errors/JsonDecodeError.ts';
import { UserError } from '../errors/UserError.ts';
import { flattenContext } from '../functions/index.ts';
import { decodeJson } from '../php/jsonDecode.ts';
import { phpString } from '../php/stringConversion.ts';
import { isEmpty, member, PhpArray, type Value } from '../php/value.ts';
import type { Authenticator } from '../http/client.ts';
import { rebuildQuery } from '../php/guzzleQuery.ts';
import {
  AUTH_PATH,
  evaluatePlace,
  nonceOf,
  objectHeaderError,
  objectPath,
  oauthDataText,
  queryContext,
  readOAuthCredentials,
  requestContext,
  seconds,
  setAuthHeader,
  textOf,
} from './common.ts';
import { registerAuthMethod, type AuthSetup } from './registry.ts';

export function createOAuth20Auth(setup: AuthSetup): Authenticator {
  const credentials = readOAuthCredentials(
    setup.oauthCredentials,
    'OAuth API credentials not supplied in configuration.',
    (key) => `Missing '${key}' for OAuth 2.0 authorization.`,
  );
  const format = member(setup.config, 'format');
  if (!isEmpty(format) && format !== 'json' && format !== 'text') {
    throw new UserError(`Unknown OAuth data format '${phpString(format)}'.`, { configPath: `${AUTH_PATH}.format` });
  }
  const text = oauthDataText(credentials.data);
  let data: Value = text;
  if (format === 'json') {
    try {
      data = decodeJson(text, 'config');
    } catch (e) {
      if (!(e instanceof JsonDecodeError)) throw e;
      throw new ApplicationError(`JSON decode error: ${e.apiReason}`, { context: { path: 'authorization.oauth_api.credentials.#data' } });
    }
  }
  const clientId = textOf(credentials.appKey);
  const queryDefinition = member(setup.config, 'query');
  const headersDefinition = member(setup.config, 'headers');

  return {
    authenticate: async (request) => {
      const authorization = new PhpArray([
        ['clientId', clientId],
        ['nonce', nonceOf(setup.nonce, 16)],
        ['timestamp', seconds(setup.nowMs)],
        ['data', data],
      ]);
      const ctx = {
        query: flattenContext(queryContext(request)),
        request: flattenContext(requestContext(request)),
        authorization: flattenContext(authorization),
      };
      const params = new Map(evaluatePlace(queryDefinition, ctx, setup.nowMs, `${AUTH_PATH}.query`));
      const headers = evaluatePlace(headersDefinition, ctx, setup.nowMs, `${AUTH_PATH}.headers`);
      for (const [name, value] of headers) {
        const path = objectPath(value, name);
        if (path !== undefined) throw objectHeaderError(path, `${AUTH_PATH}.headers.${name}`);
      }
      // Computed auth parameters and headers are secrets (issue 19 #1), per attempt (nonces, MACs).
      for (const v of params.values()) setup.logger.secrets.addValue(v, true);
      for (const [, v] of headers) setup.logger.secrets.addValue(v, true);
      const query = rebuildQuery(request.url.query ?? '', params, 'replace');
      request.url.query = query === '' ? undefined : query;
      for (const [name, value] of headers) setAuthHeader(request, name, value, `${AUTH_PATH}.headers.${name}`);
    },
  };
}

registerAuthMethod({
  type: 'oauth20',
  description: 'OAuth 2.0 with a stored token: headers/query from the authorization (#data, nonce, timestamp), query and request contexts.',
  create: createOAuth20Auth,
});
