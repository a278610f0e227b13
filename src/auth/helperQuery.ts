/**
 * The sync actions' `query` (spec 05 §2.5): `api.authentication.query` filled against the raw
 * `parameters.config` (not the user parameters), appended as `?k=v` to every API URL — always
 * `?`, as the helper does, even after an existing query string.
 */
import { appendHelperQuery, registerHelperAuthMethod } from './helperRegistry.ts';

registerHelperAuthMethod({
  types: ['query'],
  description: '`api.authentication.query`, filled from `parameters.config`, appended to the URL after a `?`.',
  create({ config, api, dialect }) {
    const authentication = api.get('authentication');
    const params = dialect.fill(authentication instanceof Map ? authentication.get('query') : undefined, config, true);
    const entries = params instanceof Map ? [...params] : [];
    const encoded = dialect.formEncode(entries);
    return {
      secrets: () => entries.map(([, v]) => dialect.str(v)),
      authenticate: async (request) => appendHelperQuery(request, encoded),
    };
  },
});
