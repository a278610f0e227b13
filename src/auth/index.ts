/**
 * `api.authentication` of a configuration (spec 02 §2): parsed by the registered method of its
 * type, then turned into that method's authenticator. Importing the method files registers them.
 */
import { isCredentialKey } from '../logging/redact.ts';
import { phpString } from '../php/stringConversion.ts';
import { isEmpty, member } from '../php/value.ts';
import type { Authenticator } from '../http/client.ts';
import { getAuthMethod, type AuthSetup, type AuthSource, type ParsedAuthOptions } from './registry.ts';
import './basic.ts';
import './query.ts';
import './login.ts';
import './oauth20Login.ts';
import './oauth20.ts';
import './oauth10.ts';

export { randomHexNonce } from './common.ts';
export { awsCredentialsOf, createAwsSigner } from './awsSignature.ts';
export type { AuthSetup } from './registry.ts';

/**
 * The parsed `api.authentication`: no authentication, or what the spec of its type parsed (each
 * method file declares its own options type; no list of them here, so a new method is its file
 * and its import line above).
 */
export type AuthOptions = { type: 'none' } | ParsedAuthOptions;

/**
 * Parses the authentication of one configuration. Throws the error the reference throws when it
 * constructs the authentication, in the same order: the type (unknown names list the known ones),
 * then the method's own checks.
 */
export function parseAuthentication(source: AuthSource): AuthOptions {
  const type = member(source.authentication, 'type');
  // PHP-empty type ("", "0", 0, null …) means no authentication.
  if (isEmpty(type)) {
    source.logger.debug(noAuthenticationLine(source.headerSources, source.userinfoIn));
    return { type: 'none' };
  }
  const name = typeof type === 'string' ? type : phpString(type ?? null);
  const method = getAuthMethod(name);
  source.logger.debug(`Using '${name}' authentication.`);
  return method.parse(source);
}

/** What `createAuthenticator` needs: the parsed options and what every method gets. */
export interface AuthenticationSetup extends AuthSetup {
  options: AuthOptions;
}

/** The authenticator of parsed options (`parseAuthentication`); none for no authentication. */
export function createAuthenticator(setup: AuthenticationSetup): Authenticator | undefined {
  const { options } = setup;
  if (options.type === 'none') return undefined;
  return getAuthMethod(options.type).create(setup, options);
}

/** Header names that carry credentials: those the redaction treats as credentials, and `*-Key`. */
const isCredentialHeader = (name: string): boolean => isCredentialKey(name) || /(^|[-_])key$/i.test(name);

/**
 * "Using no authentication." is what the reference says whenever no type is set, even when an
 * `Authorization` header in `api.http.headers` authenticates every request, or the user and
 * password in the base URL do (sent as Basic, src/http/userinfo.ts); then we say so.
 * `userinfoIn`: the config path of a URL that carries userinfo.
 */
export function noAuthenticationLine(sources: ReadonlyMap<string, readonly string[]> | undefined, userinfoIn?: string): string {
  const found: string[] = [];
  let authorization = false;
  for (const [path, names] of sources ?? []) {
    const credentials = names.filter(isCredentialHeader);
    if (credentials.length > 0) found.push(`${credentials.map((n) => `'${n}'`).join(', ')} from ${path}`);
    authorization ||= names.some((n) => n.toLowerCase() === 'authorization');
  }
  const ways: string[] = [];
  if (found.length > 0) ways.push(`in the header${found.length > 1 || found[0]!.includes(',') ? 's' : ''} ${found.join('; ')}`);
  // A request's own Authorization header wins over the URL's userinfo.
  if (userinfoIn !== undefined && !authorization) ways.push(`as Basic authorization, from the user and password in ${userinfoIn}`);
  if (ways.length === 0) return 'Using no authentication.';
  return `Using no authentication type: credentials are sent ${ways.join(', and ')}.`;
}
