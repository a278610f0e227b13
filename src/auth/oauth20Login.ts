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
  example: {
    authentication: {
      type: 'oauth20.login',
      loginRequest: {
        endpoint: 'oauth/token',
        method: 'FORM',
        params: {
          grant_type: 'refresh_token',
          refresh_token: { user: 'refresh_token' },
          client_id: { consumer: 'client_id' },
          client_secret: { consumer: 'client_secret' },
        },
      },
      apiRequest: { headers: { Authorization: { function: 'concat', args: ['Bearer ', { response: 'access_token' }] } } },
    },
    authorization: {
      oauth_api: { credentials: { '#data': '{"refresh_token":"r-1234abcd"}', appKey: 'my-client', '#appSecret': 'my-secret' } },
    },
    sends:
      'A form POST to `oauth/token` with the refresh token of the OAuth authorization (`user`) and the application id and secret (`consumer`); then `Authorization: Bearer <access_token>` on every request.',
  },
  create: createOAuth20LoginAuth,
});
