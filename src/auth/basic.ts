/**
 * `basic` (spec 02 §3): `Authorization: Basic base64(user:password)` on every attempt, with the
 * credentials taken from the configuration attributes (`username`/`#username`,
 * `password`/`#password`, picked by `src/config/authOptions.ts`).
 */
import { phpBytes } from '../functions/convert.ts';
import type { Authenticator } from '../http/client.ts';
import type { AuthOptions } from '../config/authOptions.ts';
import { setAuthHeader, textOf } from './common.ts';
import { registerAuthMethod, type AuthSetup } from './registry.ts';

export function createBasicAuth(setup: AuthSetup, { username, password }: Extract<AuthOptions, { type: 'basic' }>): Authenticator {
  const credentials = Buffer.concat([phpBytes(textOf(username)), Buffer.from(':'), phpBytes(textOf(password))]);
  const header = `Basic ${credentials.toString('base64')}`;
  // The encoded pair is as good as the password: hide it wherever it shows up (an API echoing
  // the Authorization header in an error body, 01 §4.5).
  setup.logger.secrets.add(credentials.toString('base64'));
  setup.logger.secrets.add(header);
  return {
    authenticate: async (request) => {
      setAuthHeader(request, 'Authorization', header);
    },
  };
}

registerAuthMethod({
  type: 'basic',
  description: "HTTP Basic: 'Authorization: Basic …' from config username/#username and password/#password.",
  example: {
    authentication: { type: 'basic' },
    config: { username: 'JohnDoe', '#password': 'secret' },
    sends: '`Authorization: Basic Sm9obkRvZTpzZWNyZXQ=` (base64 of `JohnDoe:secret`) on every request.',
  },
  create: createBasicAuth,
});
