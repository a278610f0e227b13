/**
 * `basic` (spec 02 §3): `Authorization: Basic base64(user:password)` on every attempt, with the
 * credentials taken from the configuration attributes (`username`/`#username`,
 * `password`/`#password`).
 */
import { UserError } from '../errors/UserError.ts';
import { phpBytes } from '../functions/convert.ts';
import { isEmpty, member, type Value } from '../php/value.ts';
import type { Authenticator } from '../http/client.ts';
import { misplaced } from '../spec/schemaNode.ts';
import { setAuthHeader, textOf } from './common.ts';
import { registerAuthMethod, type AuthSetup } from './registry.ts';

/** The credentials as configured (converted to text by the method: an object there is an internal error). */
export interface BasicOptions {
  type: 'basic';
  username: Value;
  password: Value;
}

/** The plain key wins when PHP-non-empty, else the `#` key (02 §3). */
function pick(attributes: Value, plain: string, secret: string): Value | undefined {
  const value = member(attributes, plain);
  return isEmpty(value) ? member(attributes, secret) : value;
}

function parseBasicOptions(attributes: Value): BasicOptions {
  const username = pick(attributes, 'username', '#username');
  if (isEmpty(username)) {
    throw new UserError("Missing the required '#username' (or 'username') attribute in config.", {
      configPath: 'parameters.config.#username',
    });
  }
  const password = pick(attributes, 'password', '#password');
  if (isEmpty(password)) {
    throw new UserError("Missing the required '#password' attribute in config.", { configPath: 'parameters.config.#password' });
  }
  return { type: 'basic', username: username!, password: password! };
}

export function createBasicAuth(setup: AuthSetup, { username, password }: BasicOptions): Authenticator {
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
  description: "HTTP Basic: 'Authorization: Basic …' from the config attributes username/#username and password/#password.",
  // The credentials are attributes: written here, they are a mistake the pre-flight checks name.
  options: {
    username: misplaced('parameters.config.username'),
    '#username': misplaced('parameters.config.#username'),
    password: misplaced('parameters.config.password'),
    '#password': misplaced('parameters.config.#password'),
  },
  example: {
    authentication: { type: 'basic' },
    config: { username: 'JohnDoe', '#password': 'secret' },
    sends: '`Authorization: Basic Sm9obkRvZTpzZWNyZXQ=` (base64 of `JohnDoe:secret`) on every request.',
  },
  parse: (source) => parseBasicOptions(source.attributes),
  create: createBasicAuth,
});
