/**
 * Where credentials may go (issue 19 #2; a deliberate difference from the reference, which sends
 * them wherever a redirect or a next-page link leads). Credentials and auth-derived headers and
 * query parameters are sent only to the origins (scheme, host, port) they were configured for:
 * the origin of `api.baseUrl`, of the login endpoint and of job endpoints written as absolute
 * URLs, extended by the entries of `image_parameters.allowed_hosts` and by
 * `api.credentialOrigins`. Redirects and next-page links come from the API, not from the user.
 */
import { UserError } from '../errors/UserError.ts';
import { InvalidUriError } from '../errors/InvalidUriError.ts';
import { isAllowedOrigin, type AllowedHost } from './allowedHosts.ts';
import { resolveUrl } from '../http/url.ts';
import { originOf } from '../http/origin.ts';
import type { RequestUrl } from '../http/prepared.ts';
import { isEmpty, isMap, member, type Value } from '../php/value.ts';

export const CREDENTIAL_ORIGINS_PATH = 'parameters.api.credentialOrigins';

function originOfText(base: string, endpoint: string): string | undefined {
  try {
    const r = resolveUrl(base, endpoint);
    if ((r.scheme !== 'http' && r.scheme !== 'https') || r.host === '') return undefined;
    return originOf(r);
  } catch (e) {
    if (e instanceof InvalidUriError) return undefined;
    throw e;
  }
}

/** The origins of `api.credentialOrigins`: absolute http(s) URLs; a path is ignored. */
function configuredOrigins(value: Value | undefined): string[] {
  if (isEmpty(value)) return [];
  const list = Array.isArray(value) ? value : undefined;
  if (list === undefined) {
    throw new UserError(`${CREDENTIAL_ORIGINS_PATH} must be a list of origins such as "https://eu.api.example.com".`, {
      configPath: CREDENTIAL_ORIGINS_PATH,
    });
  }
  return list.map((entry, i) => {
    const origin = typeof entry === 'string' && /^https?:\/\//i.test(entry) ? originOfText(entry, '') : undefined;
    if (origin === undefined) {
      throw new UserError(
        `${CREDENTIAL_ORIGINS_PATH}[${i}] is not an origin: write it as "https://host" or "https://host:port" (scheme, host and port are compared).`,
        { configPath: `${CREDENTIAL_ORIGINS_PATH}[${i}]` },
      );
    }
    return origin;
  });
}

/** Origins of job endpoints written as absolute URLs (children included): configured by the user. */
function jobOrigins(jobs: Value | undefined, baseUrl: string, into: Set<string>): void {
  const list = Array.isArray(jobs) ? jobs : isMap(jobs) ? [...jobs.values()] : [];
  for (const job of list) {
    const endpoint = member(job, 'endpoint');
    if (typeof endpoint === 'string' && /^[a-z][a-z0-9+.-]*:\/\/[^/{]+(?:[/?#]|$)/i.test(endpoint)) {
      const origin = originOfText(baseUrl, endpoint.replace(/\{[^}]*\}/g, 'x'));
      if (origin !== undefined) into.add(origin);
    }
    jobOrigins(member(job, 'children'), baseUrl, into);
  }
}

/**
 * The check for one configuration: true when credentials may be sent to `url`. `api` is the
 * `parameters.api` section, `baseUrl` its evaluated base URL, `jobs` the configuration's jobs
 * (an endpoint written as an absolute URL is an origin the user configured).
 */
export function credentialScope(
  api: Value | undefined,
  baseUrl: string,
  allowedHosts: readonly AllowedHost[] | undefined,
  jobs?: Value,
): (url: RequestUrl) => boolean {
  const origins = new Set<string>(configuredOrigins(member(api, 'credentialOrigins')));
  jobOrigins(jobs, baseUrl, origins);
  const base = originOfText(baseUrl, '');
  if (base !== undefined) origins.add(base);
  const loginEndpoint = member(member(member(api, 'authentication'), 'loginRequest'), 'endpoint');
  if (typeof loginEndpoint === 'string' && loginEndpoint !== '') {
    const login = originOfText(baseUrl, loginEndpoint);
    if (login !== undefined) origins.add(login);
  }
  return (url) => origins.has(originOf(url)) || (allowedHosts !== undefined && isAllowedOrigin(url, allowedHosts));
}
