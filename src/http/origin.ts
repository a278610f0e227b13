/**
 * The origin of a URL, `scheme://host:port` with the port always explicit (RFC 6454): what every
 * client compares before it sends credentials. A redirect to another scheme, host or port drops
 * `Authorization` (requests ≥ 2.32, curl ≥ 7.83, Guzzle ≥ 7.4.5 do the same), and the credential
 * scope of config/credentialOrigins.ts is a set of these.
 */
import { defaultPort } from './prepared.ts';

export function originOf(url: { scheme: string; host: string; port: number | undefined }): string {
  return `${url.scheme.toLowerCase()}://${url.host.toLowerCase()}:${url.port ?? defaultPort(url.scheme.toLowerCase())}`;
}

export function sameOrigin(
  a: { scheme: string; host: string; port: number | undefined },
  b: { scheme: string; host: string; port: number | undefined },
): boolean {
  return originOf(a) === originOf(b);
}
