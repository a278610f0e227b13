/**
 * `oauth20` (spec 02 §8): headers and query parameters computed on every attempt from the
 * `authorization` context (clientId, nonce, timestamp, data from `#data`), the `query` and the
 * `request` contexts. Covers bearer tokens and MAC signatures.
 */
import { flattenContext } from '../functions/index.ts';
import { PhpArray } from '../php/value.ts';
import type { AuthOptions } from '../config/authOptions.ts';
import type { Authenticator } from '../http/client.ts';
import { rebuildQuery } from '../php/guzzleQuery.ts';
import {
  AUTH_PATH,
  evaluatePlace,
  nonceOf,
  objectHeaderError,
  objectPath,
  queryContext,
  requestContext,
  seconds,
  setAuthHeader,
} from './common.ts';
import { registerAuthMethod, type AuthSetup } from './registry.ts';

export function createOAuth20Auth(setup: AuthSetup, options: Extract<AuthOptions, { type: 'oauth20' }>): Authenticator {
  const { clientId, data, query: queryDefinition, headers: headersDefinition } = options;
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
  example: {
    authentication: { type: 'oauth20', headers: { Authorization: { function: 'concat', args: ['Bearer ', { authorization: 'data' }] } } },
    authorization: { oauth_api: { credentials: { '#data': 'SomeToken1234abcd567ef', appKey: 'clientId', '#appSecret': 'clientSecret' } } },
    sends:
      '`Authorization: Bearer SomeToken1234abcd567ef` (the token stored by the platform in `authorization.oauth_api.credentials.#data`) on every request.',
  },
  create: createOAuth20Auth,
});
