/**
 * Chooses the authenticator of a configuration (spec 02 §2). Importing the method files
 * registers them.
 */
import { isEmpty, member } from '../php/value.ts';
import { phpString } from '../php/stringConversion.ts';
import type { Authenticator } from '../http/client.ts';
import { getAuthMethod, type AuthSetup } from './registry.ts';
import './basic.ts';
import './query.ts';
import './login.ts';
import './oauth20Login.ts';
import './oauth20.ts';
import './oauth10.ts';

export { randomHexNonce } from './common.ts';
export { createAwsSigner, awsSignerFromParameters } from './awsSignature.ts';
export type { AuthSetup } from './registry.ts';

export function createAuthenticator(setup: AuthSetup): Authenticator | undefined {
  const type = member(setup.config, 'type');
  if (isEmpty(type)) {
    setup.logger.debug('Using no authentication.');
    return undefined;
  }
  const name = typeof type === 'string' ? type : phpString(type ?? null);
  const spec = getAuthMethod(name);
  setup.logger.debug(`Using '${name}' authentication.`);
  return spec.create(setup);
}
