/**
 * How much of a response body goes into a log context or an error. Its own file because both the
 * client (retry lines) and the response reading (errors) cut bodies, and the reader needs the
 * client's response type: one importing the other both ways would be a cycle.
 */
import type { SecretRegistry } from '../logging/redact.ts';

/** Longest response text put into an error's context: a hostile body must not become a 100 MB log line. */
export const MAX_CONTEXT_BODY = 16 * 1024;

/**
 * The first MAX_CONTEXT_BODY characters of a body text too long for a log context, marked as cut.
 * With `secrets`, redacted before it is cut, so no secret is left half-visible at the cut.
 */
export function bodyExcerpt(text: string, totalBytes: number, secrets?: SecretRegistry): string {
  const shown = secrets ? secrets.redact(text) : text;
  return `${shown.slice(0, MAX_CONTEXT_BODY)} (truncated, ${totalBytes} bytes in total)`;
}
