/**
 * Credentials withheld from a foreign origin (issue 19 #2): a request that a redirect or a
 * next-page link sends outside the origins credentials were configured for loses every header
 * and query parameter that carries one. The authentication step itself is skipped for such a
 * request by the client; what is removed here is what came with the request: `Authorization`,
 * `Cookie` and the other sensitive headers, headers set by authentication (a login request's
 * computed headers), and headers or query values holding a registered secret (a `#` attribute,
 * a login-derived token echoed into a next-page link).
 */
import { PROTOCOL_HEADERS, type SecretRegistry, SENSITIVE_HEADERS } from '../logging/redact.ts';
import type { PreparedRequest } from './prepared.ts';

/** A query string's key or value as form decoding reads it (`+` is a space); text that is not valid percent-encoding stays as it is. */
export function decodeQueryPart(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}

/** Removes credentials from `req` in place; returns what was removed (names only, never values). */
export function withholdCredentials(req: PreparedRequest, secrets: SecretRegistry): string[] {
  const withheld: string[] = [];
  for (const { name, values } of [...req.headers.entries]) {
    const lower = name.toLowerCase();
    if (PROTOCOL_HEADERS.has(lower)) continue;
    if (SENSITIVE_HEADERS.has(lower) || req.authHeaders.has(lower) || values.some((v) => secrets.hides(v))) {
      req.headers.remove(name);
      withheld.push(`header ${name}`);
    }
  }
  if (req.url.query !== undefined && req.url.query !== '') {
    const kept: string[] = [];
    for (const piece of req.url.query.split('&')) {
      const eq = piece.indexOf('=');
      const value = eq < 0 ? '' : piece.slice(eq + 1);
      if (value !== '' && (secrets.hides(value) || secrets.hides(decodeQueryPart(value)))) {
        withheld.push(`query parameter ${decodeQueryPart(eq < 0 ? piece : piece.slice(0, eq))}`);
      } else {
        kept.push(piece);
      }
    }
    const query = kept.join('&');
    req.url.query = query === '' ? undefined : query;
  }
  return withheld;
}
