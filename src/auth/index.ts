/**
 * Chooses the authenticator of a configuration (spec 02 §2). Importing the method files
 * registers them.
 */
import { isEmpty, member } from '../php/value.ts';
import { phpString } from '../php/stringConversion.ts';
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
export { createAwsSigner, awsSignerFromParameters } from './awsSignature.ts';
export type { AuthSetup } from './registry.ts';

export function createAuthenticator(setup: AuthSetup): Authenticator | undefined {
  const type = member(setup.config, 'type');
  if (isEmpty(type)) {
    setup.logger.debug(noAuthenticationLine(setup.headerSources));
    return undefined;
  }
  const name = typeof type === 'string' ? type : phpString(type ?? null);
  const spec = getAuthMethod(name);
  setup.logger.debug(`Using '${name}' authentication.`);
  return spec.create(setup);
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
