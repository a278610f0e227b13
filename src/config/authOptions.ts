/**
 * The pieces of one configuration that the authentication reads (spec 02 §2–§10), gathered into
 * the source `src/auth/` parses: each method there owns its options and their checks.
 */
import { member, type PhpArray, type Value } from '../php/value.ts';
import type { Logger } from '../logging/logger.ts';
import { parseAuthentication, type AuthOptions } from '../auth/index.ts';
import type { ApiDescription } from './api.ts';
import { attributesOf } from './configurations.ts';

/**
 * The authentication of one configuration (`api` already checked by `buildApiDescription`):
 * `api.authentication`, legacy `api.query`, the attributes and `authorization.oauth_api.credentials`
 * of config.json's root.
 */
export function authenticationOf(
  api: ApiDescription,
  config: PhpArray,
  root: Value,
  logger: Logger,
  headerSources?: ReadonlyMap<string, readonly string[]>,
): AuthOptions {
  return parseAuthentication({
    authentication: api.authentication,
    legacyQuery: api.api.get('query'),
    attributes: attributesOf(config),
    oauthCredentials: member(member(member(root, 'authorization'), 'oauth_api'), 'credentials'),
    logger,
    ...(headerSources ? { headerSources } : {}),
    ...(/^[a-z][a-z0-9+.-]*:\/\/[^/?#]*@/i.test(api.baseUrl) ? { userinfoIn: 'parameters.api.baseUrl' } : {}),
  });
}

/** Where request headers are configured, for the authentication set-up line. */
export function headerSourcesOf(api: ApiDescription, config: PhpArray): Map<string, string[]> {
  const names = (v: Value | undefined): string[] => (v instanceof Map ? [...v.keys()] : []);
  return new Map([
    ['parameters.api.http.headers', names(member(member(api.api, 'http'), 'headers'))],
    ['parameters.config.http.headers', names(member(config.get('http'), 'headers'))],
    ['parameters.api.http.defaultOptions.headers', names(member(api.defaultOptions, 'headers'))],
  ]);
}
