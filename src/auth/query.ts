/**
 * `query` and its deprecated alias `url.query` (spec 02 §4): every attempt evaluates the
 * `authentication.query` map (contexts `attr`, `query`, `request`) and merges it into the query
 * string with the Q-rebuild, replace variant (02 §1.3). Legacy `api.query` is used when
 * `authentication.query` is PHP-empty.
 */
import { ApplicationError } from '../errors/ApplicationError.ts';
import { UserError } from '../errors/UserError.ts';
import { flattenContext } from '../functions/index.ts';
import { isEmpty, isMap, member, type PhpArray, phpType, type Value } from '../php/value.ts';
import type { Authenticator } from '../http/client.ts';
import { rebuildQuery } from '../php/guzzleQuery.ts';
import { functionValue, MAP, type SchemaNode } from '../spec/schemaNode.ts';
import { AUTH_PATH, evaluatePlace, queryContext, requestContext } from './common.ts';
import { registerAuthMethod, type AuthSetup, type AuthSource } from './registry.ts';

/** The query place (a map or list) and where it was configured (`authentication.query` or legacy `api.query`). */
export interface QueryOptions {
  type: 'query' | 'url.query';
  query: PhpArray | Value[];
  configPath: string;
}

/** A query map evaluated on every request (`query`; `oauth20` writes its query the same way). */
export const queryMap: SchemaNode = {
  ...MAP,
  description: `Query parameter name → value. ${functionValue} Evaluated for every request; {"query": name} and {"request": "path"} read the request.`,
  additionalProperties: { description: functionValue },
  examples: [{ apiKey: { attr: '#apiKey' } }],
  // A set `query` of another type is the reference's type error (Query::__construct takes an array).
  'x-stops': (v) => !isEmpty(v as Value),
};

function parseQueryOptions(source: AuthSource, type: QueryOptions['type']): QueryOptions {
  if (type === 'url.query') source.logger.warning("Method 'url.query' auth is deprecated, use 'query'.");
  let definition = member(source.authentication, 'query');
  let configPath = `${AUTH_PATH}.query`;
  // Legacy `api.query` is used only when `authentication.query` is PHP-empty (02 §4).
  if (isEmpty(definition) && !isEmpty(source.legacyQuery)) {
    // Sic: the reference's message lacks the closing quote.
    source.logger.warning("Using 'api.query' is deprecated, use 'api.authentication.query");
    definition = source.legacyQuery;
    configPath = 'parameters.api.query';
  }
  if (isEmpty(definition)) {
    throw new UserError("The query authentication method requires 'query' configuration in 'authentication' section.", { configPath });
  }
  if (!isMap(definition) && !Array.isArray(definition)) {
    // The reference's constructor takes an array: anything else is a PHP type error there (exit 2).
    throw new ApplicationError(`Argument 1 passed to Query::__construct() must be of the type array, ${typeof definition} given`, {
      context: { configPath },
      hint: `${configPath} is ${phpType(definition)}: write an object of query parameter name → value, e.g. {"apikey": {"attr": "#apiKey"}}.`,
    });
  }
  return { type, query: definition as PhpArray | Value[], configPath };
}

export function createQueryAuth(setup: AuthSetup, { query, configPath }: QueryOptions): Authenticator {
  const attr = flattenContext(setup.attributes);
  const place: Value = query;
  return {
    authenticate: async (request) => {
      const ctx = { attr, query: flattenContext(queryContext(request)), request: flattenContext(requestContext(request)) };
      const params = new Map(evaluatePlace(place, ctx, setup.nowMs, configPath));
      // Computed auth parameters are secrets (issue 19 #1); per attempt, as a signature may change each time.
      for (const v of params.values()) setup.logger.secrets.addValue(v, true);
      const query = rebuildQuery(request.url.query ?? '', params, 'replace');
      request.url.query = query === '' ? undefined : query;
    },
  };
}

registerAuthMethod({
  type: 'query',
  description: 'Query parameters from authentication.query (functions with attr/query/request contexts) merged into every request URL.',
  options: { query: queryMap },
  required: ['query'],
  example: {
    authentication: { type: 'query', query: { apikey: { attr: '#apiKey' } } },
    config: { '#apiKey': 'k-123456' },
    sends: '`?apikey=k-123456` added to the query of every request (the value is hidden in logs).',
  },
  parse: (source) => parseQueryOptions(source, 'query'),
  create: createQueryAuth,
});

registerAuthMethod({
  type: 'url.query',
  description: "Deprecated alias of 'query'.",
  options: { query: queryMap },
  required: ['query'],
  example: {
    authentication: { type: 'url.query', query: { apikey: { attr: '#apiKey' } } },
    config: { '#apiKey': 'k-123456' },
    sends: 'The same as \'query\', with a deprecation WARNING: write `"type": "query"` instead.',
  },
  parse: (source) => parseQueryOptions(source, 'url.query'),
  create: createQueryAuth,
});
