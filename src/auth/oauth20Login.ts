/**
 * `oauth20.login` (spec 02 §7): `login` whose login request also sees the OAuth application
 * (`consumer`: client_id, client_secret) and the decoded user data (`user`: `#data`), e.g. a
 * refresh-token exchange. The `apiRequest` part sees only `response` and `attr`, as in `login`.
 */
import { ApplicationError } from '../errors/ApplicationError.ts';
import { UserError } from '../errors/UserError.ts';
import { flattenContext } from '../functions/index.ts';
import { isMap, PhpArray, type Value } from '../php/value.ts';
import type { Authenticator } from '../http/client.ts';
import { textOf } from './common.ts';
import { DATA_PATH, decodeOAuthData, oauthCredentials } from './credentials.ts';
import { LoginAuthenticator } from './login.ts';
import { loginOptionNodes, parseLoginOptions, type LoginOptions } from './loginOptions.ts';
import { registerAuthMethod, type AuthSetup, type AuthSource } from './registry.ts';

/** The login options, the OAuth application and the decoded user data (`#data`). */
export interface OAuth20LoginOptions {
  type: 'oauth20.login';
  login: LoginOptions;
  clientId: string;
  clientSecret: string;
  user: Value;
}

/** The login checks first, then the stored authorization's (the reference's order). */
function parseOAuth20LoginOptions(source: AuthSource): OAuth20LoginOptions {
  const login = parseLoginOptions(source.authentication);
  const credentials = oauthCredentials(
    source.oauthCredentials,
    'OAuth API credentials not supplied in config',
    (key) => `Missing '${key}' for OAuth 2.0 authorization`,
  );
  const user = decodeOAuthData(
    credentials.data,
    'config',
    () => new UserError('The OAuth data is not a valid JSON', { configPath: DATA_PATH }),
  );
  if (!isMap(user) && !Array.isArray(user)) {
    throw new ApplicationError('The OAuth data must be a JSON object.', { context: { path: DATA_PATH } });
  }
  return { type: 'oauth20.login', login, clientId: textOf(credentials.appKey), clientSecret: textOf(credentials.appSecret), user };
}

export function createOAuth20LoginAuth(setup: AuthSetup, options: OAuth20LoginOptions): Authenticator {
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
  description:
    'Like login, with the OAuth client ({"consumer": "client_id"}) and stored tokens ({"user": "refresh_token"}) for the login request.',
  options: loginOptionNodes,
  required: ['loginRequest'],
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
  parse: parseOAuth20LoginOptions,
  create: createOAuth20LoginAuth,
});
