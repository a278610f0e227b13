/**
 * Where credentials may go (issue 19 #2; a deliberate difference from the reference, which sends
 * them wherever a redirect or a next-page link leads). Credentials and auth-derived headers and
 * query parameters are sent only to the origins (scheme, host, port) they were configured for:
 * the origin of `api.baseUrl` and of the login endpoint, extended by the entries of
 * `image_parameters.allowed_hosts` and by `api.credentialOrigins`.
 */
import { UserError } from '../errors/UserError.ts';
import { InvalidUriError } from '../errors/InvalidUriError.ts';
import { isAllowedOrigin, type AllowedHost } from './allowedHosts.ts';
import { resolveUrl } from '../http/url.ts';
import { defaultPort, type RequestUrl } from '../http/prepared.ts';
import { isEmpty, member, type Value } from '../php/value.ts';

export const CREDENTIAL_ORIGINS_PATH = 'parameters.api.credentialOrigins';

/** `scheme://host:port`, the port always explicit. */
export function originOf(url: { scheme: string; host: string; port: number | undefined }): string {
  return `${url.scheme}://${url.host.toLowerCase()}:${url.port ?? defaultPort(url.scheme)}`;
}

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

/**
 * The check for one configuration: true when credentials may be sent to `url`. `api` is the
 * `parameters.api` section, `baseUrl` its evaluated base URL.
 */
export function credentialScope(
  api: Value | undefined,
  baseUrl: string,
  allowedHosts: readonly AllowedHost[] | undefined,
): (url: RequestUrl) => boolean {
  const origins = new Set<string>(configuredOrigins(member(api, 'credentialOrigins')));
  const base = originOfText(baseUrl, '');
  if (base !== undefined) origins.add(base);
  const loginEndpoint = member(member(member(api, 'authentication'), 'loginRequest'), 'endpoint');
  if (typeof loginEndpoint === 'string' && loginEndpoint !== '') {
    const login = originOfText(baseUrl, loginEndpoint);
    if (login !== undefined) origins.add(login);
  }
  return (url) => origins.has(originOf(url)) || (allowedHosts !== undefined && isAllowedOrigin(url, allowedHosts));
}
