/**
 * Builds the authenticator of a configuration (spec 02 §2) from its parsed options. Importing the method files
 * registers them.
 */
import { isCredentialKey } from '../logging/redact.ts';
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

/** Header names that carry credentials: those the redaction treats as credentials, and `*-Key`. */
const isCredentialHeader = (name: string): boolean => isCredentialKey(name) || /(^|[-_])key$/i.test(name);

/**
 * "Using no authentication." is what the reference says whenever no type is set, even when an
 * `Authorization` header in `api.http.headers` authenticates every request; then we say so.
 */
export function noAuthenticationLine(sources: ReadonlyMap<string, readonly string[]> | undefined): string {
  const found: string[] = [];
  for (const [path, names] of sources ?? []) {
    const credentials = names.filter(isCredentialHeader);
    if (credentials.length > 0) found.push(`${credentials.map((n) => `'${n}'`).join(', ')} from ${path}`);
  }
  if (found.length === 0) return 'Using no authentication.';
  return `Using no authentication type: credentials are sent in the header${found.length > 1 || found[0]!.includes(',') ? 's' : ''} ${found.join('; ')}.`;
}
