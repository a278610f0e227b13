/**
 * The sync actions' `basic` (spec 05 §2.5): `Authorization: Basic base64(username:#password)`
 * from `config.username` and `config.#password`. The secrets: the whole header value (the
 * helper's), and the password itself — `#password` is not a user parameter the answer masks
 * (§2.2), and an API that echoes the decoded credentials would otherwise show it.
 */
import { registerHelperAuthMethod, replaceAuthHeader } from './helperRegistry.ts';

registerHelperAuthMethod({
  types: ['basic'],
  description: '`Authorization: Basic …` from `config.username` and `config.#password`.',
  create({ config, dialect }) {
    const username = config.get('username');
    const password = config.get('#password');
    if (!dialect.truthy(username) || !dialect.truthy(password)) {
      throw dialect.error('value', 'Username or password not found in the BasicAuth configuration');
    }
    const header = `Basic ${Buffer.from(`${dialect.str(username)}:${dialect.str(password)}`, 'utf8').toString('base64')}`;
    return {
      secrets: () => [header, dialect.str(password)],
      authenticate: async (request) => replaceAuthHeader(request, 'Authorization', header),
    };
  },
});
