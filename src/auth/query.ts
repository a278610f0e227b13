/**
 * `query` and its deprecated alias `url.query` (spec 02 §4): every attempt evaluates the
 * `authentication.query` map (contexts `attr`, `query`, `request`) and merges it into the query
 * string with the Q-rebuild, replace variant (02 §1.3). Legacy `api.query` is used when
 * `authentication.query` is PHP-empty.
 */
import { ApplicationError } from '../errors/ApplicationError.ts';
import { UserError } from '../errors/UserError.ts';
import { flattenContext } from '../functions/index.ts';
import { isEmpty, isMap, member, type Value } from '../php/value.ts';
import type { Authenticator } from '../http/client.ts';
import { rebuildQuery } from '../php/guzzleQuery.ts';
import { AUTH_PATH, evaluatePlace, queryContext, requestContext } from './common.ts';
import { registerAuthMethod, type AuthSetup } from './registry.ts';

export function createQueryAuth(setup: AuthSetup, type = 'query'): Authenticator {
  if (type === 'url.query') setup.logger.warning("Method 'url.query' auth is deprecated, use 'query'.");
  let definition = member(setup.config, 'query');
  let configPath = `${AUTH_PATH}.query`;
  if (isEmpty(definition) && !isEmpty(setup.legacyQuery)) {
    // Sic: the reference's message lacks the closing quote.
    setup.logger.warning("Using 'api.query' is deprecated, use 'api.authentication.query");
    definition = setup.legacyQuery;
    configPath = 'parameters.api.query';
  }
  if (isEmpty(definition)) {
    throw new UserError("The query authentication method requires 'query' configuration in 'authentication' section.", { configPath });
  }
  if (!isMap(definition) && !Array.isArray(definition)) {
    // The reference's constructor takes an array: anything else is a type error there.
    throw new ApplicationError(`Argument 1 passed to Query::__construct() must be of the type array, ${typeof definition} given`, {
      context: { path: configPath },
    });
  }
  const attr = flattenContext(setup.attributes);
  const place: Value = definition;
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
  create: (setup) => createQueryAuth(setup, 'query'),
});

registerAuthMethod({
  type: 'url.query',
  description: "Deprecated alias of 'query'.",
  create: (setup) => createQueryAuth(setup, 'url.query'),
});
