/**
 * Config paths in messages and in the `configPath` of log records (`parameters.config.jobs[0]`,
 * `parameters.api.http.headers["X Token"]`). Built here only, so that a key holding a space, a dot
 * or a bracket reads unambiguously and the same way in every message.
 */

/** Keys written as `.key`; one with a space, dot, bracket, quote, backslash or control character (or empty) is written `["key"]`. */
export const PLAIN_KEY_SOURCE = String.raw`^[^\s.[\]"\\\p{C}]+$`;
/**
 * The same for an ASCII key, as nearly every key is: `\p{C}`'s ASCII members are U+0000–U+001F
 * and U+007F. Creating the Unicode expression builds its ICU set (~0.5 ms of a start, issue 28),
 * so it is created for the first other key only.
 */
export const PLAIN_ASCII_KEY = /^[^\s.[\]"\\\0-\x1f\x7f]+$/;
let plainKey: RegExp | undefined;

function isPlainKey(key: string): boolean {
  if (/^[\0-\x7f]*$/.test(key)) return PLAIN_ASCII_KEY.test(key);
  plainKey ??= new RegExp(PLAIN_KEY_SOURCE, 'u');
  return plainKey.test(key);
}

/** The path of `key` in the map at `path` (`path` empty: the key at the file's root). */
export function childPath(path: string, key: string): string {
  if (isPlainKey(key)) return path === '' ? key : `${path}.${key}`;
  return `${path}[${JSON.stringify(key)}]`;
}

/** The path of an entry of the list at `path` (`jobs[0]`), or of a map used as a list (`jobs["users"]`). */
export function itemPath(path: string, key: string | number): string {
  return typeof key === 'number' || /^\d+$/.test(key) ? `${path}[${key}]` : `${path}[${JSON.stringify(key)}]`;
}
