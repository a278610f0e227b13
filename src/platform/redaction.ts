/**
 * The one redaction of everything the platform client prints or puts into an error: the token
 * is replaced by `[hidden]` where it stands as a value (a query or header value, a JSON string, a
 * word of its own), raw, URL-encoded or JSON-escaped, and never inside a longer word, so a short
 * token (`KBC_TOKEN=x`) cannot turn `ex-generic-platform` into `e[hidden]-generic-platform`.
 */
import { HIDDEN } from '../logging/redact.ts';
import { valueMasker } from '../logging/valueMask.ts';

export function tokenRedactor(token: string | undefined): (text: string) => string {
  return token === undefined ? (text) => text : valueMasker([token], { replacement: HIDDEN });
}
