/**
 * Credentials in a URL's userinfo (`https://user:pass@host/`). The reference's curl sends them,
 * percent-decoded, as Basic authentication unless the request has its own `Authorization`
 * header; so do we. They stay with their URL: a redirect or next-page link to another host
 * carries no userinfo, so no credentials. The header and the password are secrets.
 */
import type { SecretRegistry } from '../logging/redact.ts';
import { hostHeader, requestTarget, type RequestUrl } from './prepared.ts';

function percentDecodedBytes(part: string): Buffer {
  return Buffer.from(
    part.replace(/%([0-9A-Fa-f]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16))),
    'latin1',
  );
}

/** `Basic <base64(user:password)>` for a URL's userinfo, registered as a secret; undefined without one. */
export function userinfoAuthorization(userinfo: string | undefined, secrets: SecretRegistry): string | undefined {
  if (userinfo === undefined) return undefined;
  const colon = userinfo.indexOf(':');
  const user = percentDecodedBytes(colon < 0 ? userinfo : userinfo.slice(0, colon));
  const password = percentDecodedBytes(colon < 0 ? '' : userinfo.slice(colon + 1));
  const header = `Basic ${Buffer.concat([user, Buffer.from(':'), password]).toString('base64')}`;
  secrets.addHeaderValue(header);
  if (password.length > 0) secrets.add(password.toString('utf8'));
  return header;
}

/** The URL with its userinfo as written (password included): the base a redirect's Location resolves against. */
export function urlWithUserinfo(url: RequestUrl): string {
  const auth = url.userinfo === undefined ? '' : `${url.userinfo}@`;
  return `${url.scheme}://${auth}${hostHeader(url)}${requestTarget(url)}`;
}
