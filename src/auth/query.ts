/**
 * `query` and its deprecated alias `url.query` (spec 02 §4): every attempt evaluates the
 * `authentication.query` map (contexts `attr`, `query`, `request`) and merges it into the query
 * string with the Q-rebuild, replace variant (02 §1.3). Legacy `api.query` is used when
 * `authentication.query` is PHP-empty.
 */
import { flattenContext } from '../functions/index.ts';
import type { Value } from '../php/value.ts';
import type { AuthOptions } from '../config/authOptions.ts';
import type { Authenticator } from '../http/client.ts';
import { rebuildQuery } from '../php/guzzleQuery.ts';
import { evaluatePlace, queryContext, requestContext } from './common.ts';
import { registerAuthMethod, type AuthSetup } from './registry.ts';

export function createQueryAuth(
  setup: AuthSetup,
  { query, configPath }: Extract<AuthOptions, { type: 'query' | 'url.query' }>,
): Authenticator {
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
  example: {
    authentication: { type: 'query', query: { apikey: { attr: '#apiKey' } } },
    config: { '#apiKey': 'k-123456' },
    sends: '`?apikey=k-123456` added to the query of every request (the value is hidden in logs).',
  },
  create: createQueryAuth,
});

registerAuthMethod({
  type: 'url.query',
  description: "Deprecated alias of 'query'.",
  example: {
    authentication: { type: 'url.query', query: { apikey: { attr: '#apiKey' } } },
    config: { '#apiKey': 'k-123456' },
    sends: 'The same as \'query\', with a deprecation WARNING: write `"type": "query"` instead.',
  },
  create: createQueryAuth,
});
