/**
 * The sync actions' `bearer` (spec 05 §2.5, the UI builder's own method): header
 * `authorization: Bearer ⟨config.#__BEARER_TOKEN⟩`, the name in lower case as the helper writes it.
 */
import { registerHelperAuthMethod, replaceAuthHeader } from './helperRegistry.ts';

registerHelperAuthMethod({
  types: ['bearer'],
  description: '`authorization: Bearer …` from `config.#__BEARER_TOKEN`.',
  create({ config, dialect }) {
    const token = config.get('#__BEARER_TOKEN');
    if (!dialect.truthy(token)) throw dialect.error('value', 'Bearer token not found in the Bearer Token Authentication configuration');
    const value = dialect.str(token);
    return {
      dropsAuthorizationPlaceholder: true,
      secrets: () => [value],
      authenticate: async (request) => replaceAuthHeader(request, 'authorization', `Bearer ${value}`),
    };
  },
});
