/**
 * `oauth20` (spec 02 §8): headers and query parameters computed on every attempt from the
 * `authorization` context (clientId, nonce, timestamp, data from `#data`), the `query` and the
 * `request` contexts. Covers bearer tokens and MAC signatures.
 */
import { childPath } from '../errors/configPath.ts';
import { ApplicationError } from '../errors/ApplicationError.ts';
import { UserError } from '../errors/UserError.ts';
import { flattenContext } from '../functions/index.ts';
import { phpString } from '../php/stringConversion.ts';
import { isEmpty, member, PhpArray, type Value } from '../php/value.ts';
import type { Authenticator } from '../http/client.ts';
import { rebuildQuery } from '../php/guzzleQuery.ts';
import { headerMap, type SchemaNode } from '../spec/schemaNode.ts';
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
  textOf,
} from './common.ts';
import { DATA_PATH, decodeOAuthData, oauthCredentials, oauthDataText } from './credentials.ts';
import { queryMap } from './query.ts';
import { registerAuthMethod, type AuthSetup, type AuthSource } from './registry.ts';

/** The OAuth client id, `#data` (decoded with format json) and the query and headers places, evaluated per attempt. */
export interface OAuth20Options {
  type: 'oauth20';
  clientId: string;
  data: Value;
  query: Value | undefined;
  headers: Value | undefined;
}

const format = {
  type: 'string',
  enum: ['json', 'text'],
  default: 'text',
  description: 'json: #data is parsed and its members read as data.<path>; text: #data is the token.',
} as const satisfies SchemaNode;

const oauth20OptionNodes: Record<string, SchemaNode> = {
  format,
  headers: headerMap('Headers for API requests.', {
    Authorization: { function: 'concat', args: ['Bearer ', { authorization: 'data.access_token' }] },
  }),
  query: queryMap,
};

/** The stored authorization's checks first, then the format's (the reference's order). */
function parseOAuth20Options(source: AuthSource): OAuth20Options {
  const credentials = oauthCredentials(
    source.oauthCredentials,
    'OAuth API credentials not supplied in configuration.',
    (key) => `Missing '${key}' for OAuth 2.0 authorization.`,
  );
  const chosenFormat = member(source.authentication, 'format');
  if (!isEmpty(chosenFormat) && chosenFormat !== 'json' && chosenFormat !== 'text') {
    throw new UserError(`Unknown OAuth data format '${phpString(chosenFormat)}'.`, { configPath: `${AUTH_PATH}.format` });
  }
  // Past the check, the format is json, text or PHP-empty: the default (text, kept as it is).
  const data =
    (isEmpty(chosenFormat) ? format.default : chosenFormat) === 'json'
      ? decodeOAuthData(
          credentials.data,
          'config',
          (e) => new ApplicationError(`JSON decode error: ${e.apiReason}`, { context: { path: DATA_PATH } }),
        )
      : oauthDataText(credentials.data);
  return {
    type: 'oauth20',
    clientId: textOf(credentials.appKey),
    data,
    query: member(source.authentication, 'query'),
    headers: member(source.authentication, 'headers'),
  };
}

export function createOAuth20Auth(setup: AuthSetup, options: OAuth20Options): Authenticator {
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
        if (path !== undefined) throw objectHeaderError(path, childPath(`${AUTH_PATH}.headers`, name));
      }
      // Computed auth parameters and headers are secrets (issue 19 #1), per attempt (nonces, MACs).
      for (const v of params.values()) setup.logger.secrets.addValue(v, true);
      for (const [, v] of headers) setup.logger.secrets.addValue(v, true);
      const query = rebuildQuery(request.url.query ?? '', params, 'replace');
      request.url.query = query === '' ? undefined : query;
      for (const [name, value] of headers) setAuthHeader(request, name, value, childPath(`${AUTH_PATH}.headers`, name));
    },
  };
}

registerAuthMethod({
  type: 'oauth20',
  description: 'OAuth 2.0 with a stored token: headers/query from the authorization (#data, nonce, timestamp), query and request contexts.',
  options: oauth20OptionNodes,
  example: {
    authentication: { type: 'oauth20', headers: { Authorization: { function: 'concat', args: ['Bearer ', { authorization: 'data' }] } } },
    authorization: { oauth_api: { credentials: { '#data': 'SomeToken1234abcd567ef', appKey: 'clientId', '#appSecret': 'clientSecret' } } },
    sends:
      '`Authorization: Bearer SomeToken1234abcd567ef` (the token stored by the platform in `authorization.oauth_api.credentials.#data`) on every request.',
  },
  parse: parseOAuth20Options,
  create: createOAuth20Auth,
});
