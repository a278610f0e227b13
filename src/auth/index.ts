/**
 * Builds the authenticator of a configuration (spec 02 §2) from its parsed options. Importing the method files
 * registers them.
 */
import type { Authenticator } from '../http/client.ts';
import { getAuthMethod, type AuthSetup } from './registry.ts';
import './basic.ts';
import './query.ts';
import './login.ts';
import './oauth20Login.ts';
import './oauth20.ts';
import './oauth10.ts';

export { randomHexNonce } from './common.ts';
export { createAwsSigner } from './awsSignature.ts';
export type { AuthSetup } from './registry.ts';

/** The authenticator of parsed options (`src/config/authOptions.ts`); none for no authentication. */
export function createAuthenticator(setup: AuthSetup): Authenticator | undefined {
  const { options } = setup;
  if (options.type === 'none') return undefined;
  return getAuthMethod(options.type).create(setup, options);
}
