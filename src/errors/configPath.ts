/**
 * Config paths in messages and in the `configPath` of log records (`parameters.config.jobs[0]`,
 * `parameters.api.http.headers["X Token"]`). Built here only, so that a key holding a space, a dot
 * or a bracket reads unambiguously and the same way in every message.
 */

/** Keys written as `.key`; one with a space, dot, bracket, quote, backslash or control character (or empty) is written `["key"]`. */
const PLAIN_KEY = /^[^\s.[\]"\\\p{C}]+$/u;

/** The path of `key` in the map at `path` (`path` empty: the key at the file's root). */
export function childPath(path: string, key: string): string {
  if (PLAIN_KEY.test(key)) return path === '' ? key : `${path}.${key}`;
  return `${path}[${JSON.stringify(key)}]`;
}

/** The path of an entry of the list at `path` (`jobs[0]`), or of a map used as a list (`jobs["users"]`). */
export function itemPath(path: string, key: string | number): string {
  return typeof key === 'number' || /^\d+$/.test(key) ? `${path}[${key}]` : `${path}[${JSON.stringify(key)}]`;
}
