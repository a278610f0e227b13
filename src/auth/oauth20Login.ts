/**
 * `oauth20.login` (spec 02 §7): `login` whose login request also sees the OAuth application
 * (`consumer`: client_id, client_secret) and the decoded user data (`user`: `#data`), e.g. a
 * refresh-token exchange. The `apiRequest` part sees only `response` and `attr`, as in `login`.
 */
import { flattenContext } from '../functions/index.ts';
import { PhpArray } from '../php/value.ts';
import type { Authenticator } from '../http/client.ts';
import type { AuthOptions } from '../config/authOptions.ts';
import { LoginAuthenticator } from './login.ts';
import { registerAuthMethod, type AuthSetup } from './registry.ts';

export function createOAuth20LoginAuth(setup: AuthSetup, options: Extract<AuthOptions, { type: 'oauth20.login' }>): Authenticator {
  const consumer = new PhpArray([
    ['client_id', options.clientId],
    ['client_secret', options.clientSecret],
  ]);
  return new LoginAuthenticator(setup, options.login, {
    type: 'oauth20.login',
    loginContexts: { consumer: flattenContext(consumer), user: flattenContext(options.user) },
    objectHeaderIsUserError: false,
  });
}

registerAuthMethod({
  type: 'oauth20.login',
  description: "'login' with the OAuth 2.0 application (consumer) and user data (user) available to the login request.",
  create: createOAuth20LoginAuth,
});
