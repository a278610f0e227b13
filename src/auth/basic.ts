/**
 * `basic` (spec 02 §3): `Authorization: Basic base64(user:password)` on every attempt, with the
 * credentials taken from the configuration attributes (`username`/`#username`,
 * `password`/`#password`, the plain key winning when PHP-non-empty).
 */
import { UserError } from '../errors/UserError.ts';
import { phpBytes } from '../functions/convert.ts';
import { isEmpty, member, type Value } from '../php/value.ts';
import type { Authenticator } from '../http/client.ts';
import { setAuthHeader, textOf } from './common.ts';
import { registerAuthMethod, type AuthSetup } from './registry.ts';

function pick(attributes: Value, plain: string, secret: string): Value | undefined {
  const value = member(attributes, plain);
  return isEmpty(value) ? member(attributes, secret) : value;
}

export function createBasicAuth(setup: AuthSetup): Authenticator {
  const username = pick(setup.attributes, 'username', '#username');
  if (isEmpty(username)) {
    throw new UserError("Missing the required '#username' (or 'username') attribute in config.", {
      configPath: 'parameters.config.#username',
    });
  }
  const password = pick(setup.attributes, 'password', '#password');
  if (isEmpty(password)) {
    throw new UserError("Missing the required '#password' attribute in config.", { configPath: 'parameters.config.#password' });
  }
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
  create: createBasicAuth,
});
