/**
 * `oauth20.login` (spec 02 §7): `login` whose login request also sees the OAuth application
 * (`consumer`: client_id, client_secret) and the decoded user data (`user`: `#data`), e.g. a
 * refresh-token exchange. The `apiRequest` part sees only `response` and `attr`, as in `login`.
 */
import { ApplicationError } from '../errors/ApplicationError.ts';
import { JsonDecodeError } from '../errors/JsonDecodeError.ts';
import { UserError } from '../errors/UserError.ts';
import { flattenContext } from '../functions/index.ts';
import { decodeJson } from '../php/jsonDecode.ts';
import { isMap, PhpArray, type Value } from '../php/value.ts';
import type { Authenticator } from '../http/client.ts';
import { oauthDataText, readOAuthCredentials, textOf } from './common.ts';
import { LoginAuthenticator, validateLogin } from './login.ts';
import { registerAuthMethod, type AuthSetup } from './registry.ts';

export function createOAuth20LoginAuth(setup: AuthSetup): Authenticator {
  const settings = validateLogin(setup.config);
  const credentials = readOAuthCredentials(
    setup.oauthCredentials,
    'OAuth API credentials not supplied in config',
    (key) => `Missing '${key}' for OAuth 2.0 authorization`,
  );
  let data: Value;
  try {
    data = decodeJson(oauthDataText(credentials.data), 'config');
  } catch (e) {
    if (!(e instanceof JsonDecodeError)) throw e;
    throw new UserError('The OAuth data is not a valid JSON', { configPath: 'authorization.oauth_api.credentials.#data' });
  }
  if (!isMap(data) && !Array.isArray(data)) {
    throw new ApplicationError('The OAuth data must be a JSON object.', { context: { path: 'authorization.oauth_api.credentials.#data' } });
  }
  const consumer = new PhpArray([
    ['client_id', textOf(credentials.appKey)],
    ['client_secret', textOf(credentials.appSecret)],
  ]);
  return new LoginAuthenticator(setup, settings, {
    type: 'oauth20.login',
    loginContexts: { consumer: flattenContext(consumer), user: flattenContext(data) },
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
