/**
 * Pieces shared by the authentication methods (spec 02 §1, §11.2, §11.3): evaluating a
 * configuration "place", the `request`/`query` contexts, setting auth headers, and keeping wire
 * forms of secrets out of the logs (01 §4.5).
 */
import { createHash, randomBytes } from 'node:crypto';
import { ApplicationError } from '../errors/ApplicationError.ts';
import { UserError } from '../errors/UserError.ts';
import { evaluateTopLevel, type FunctionContext } from '../functions/index.ts';
import { pjson } from '../php/jsonEncode.ts';
import { phpString } from '../php/stringConversion.ts';
import { isEmpty, isMap, JsonObject, PhpArray, phpType, type Value } from '../php/value.ts';
import type { Logger } from '../logging/logger.ts';
import { isCredentialKey } from '../logging/redact.ts';

export { isCredentialKey };
import { checkHeader, headerValues } from '../http/headers.ts';
import { defaultPort, type PreparedRequest } from '../http/prepared.ts';
import { parseQueryRebuild } from '../php/guzzleQuery.ts';

export const AUTH_PATH = 'parameters.api.authentication';

/** Ordered `(key, value)` pairs of a map or a list (PHP array iteration). */
export function entriesOf(v: Value | undefined): [string, Value][] {
  if (isMap(v)) return [...v.entries()];
  if (Array.isArray(v)) return v.map((x, i) => [String(i), x]);
  return [];
}

/** PHP `json_encode` of a value for messages. */
function jsonForMessage(v: Value): string {
  try {
    return pjson(v, 'shortest');
  } catch {
    return 'null';
  }
}

/**
 * Evaluates one configuration place (02 §11.2): PHP-empty → empty map; a non-container → user
 * error `Expected 'object' type, …`; otherwise the top-level rule, with function errors prefixed
 * `User script error: `. Returns the evaluated `(key, value)` pairs.
 */
export function evaluatePlace(place: Value | undefined, ctx: FunctionContext, nowMs: () => number, configPath: string): [string, Value][] {
  if (isEmpty(place)) return [];
  if (!isMap(place) && !Array.isArray(place)) {
    throw new UserError(`Expected 'object' type, given '${phpType(place)}' type, value '${jsonForMessage(place!)}'.`, { configPath });
  }
  let evaluated: Value;
  try {
    evaluated = evaluateTopLevel(place, ctx, { now: nowMs });
  } catch (e) {
    if (e instanceof UserError) throw new UserError(`User script error: ${e.message}`, { configPath, context: e.context });
    throw e;
  }
  return entriesOf(evaluated);
}

/** The first path (`name[.index…]`) holding a map inside a header value, if any. */
export function objectPath(v: Value, path: string): string | undefined {
  if (isMap(v)) return path;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      const found = objectPath(v[i]!, `${path}.${i}`);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

/** `Invalid configuration: invalid type "object" in headers at path: <path>` (02 §11.10). */
export function objectHeaderError(path: string, configPath: string): UserError {
  return new UserError(`Invalid configuration: invalid type "object" in headers at path: ${path}`, { configPath });
}

/**
 * Sets an authentication header: replaces any same-named header (case-insensitive; the header
 * moves to the end with this spelling) and marks it hidden in debug logs (01 §4.5).
 */
export function setAuthHeader(request: PreparedRequest, name: string, value: Value, configPath = AUTH_PATH): void {
  const values = headerValues(value);
  checkHeader(name, values, configPath);
  request.headers.set(name, values);
  request.authHeaders.add(name.toLowerCase());
}

/** `request` context (02 §11.3.5), as the request is before the authentication step. */
export function requestContext(request: PreparedRequest): PhpArray {
  const { url } = request;
  const query = url.query ?? '';
  const authority = (url.userinfo !== undefined ? `${url.userinfo}@` : '') + url.host + (url.port !== undefined ? `:${url.port}` : '');
  const entries: [string, Value][] = [
    ['url', `${url.scheme}://${authority}${url.path}${query !== '' ? `?${query}` : ''}`],
    ['path', url.path],
    ['queryString', query],
    ['method', request.method],
    ['hostname', url.host],
    ['port', url.port ?? defaultPort(url.scheme)],
    ['resource', url.path + (query !== '' ? `?${query}` : '')],
  ];
  return new PhpArray(entries);
}

/** `query` context (02 §11.3.6): the current query parsed as in §1.3 (repeated keys → lists). */
export function queryContext(request: PreparedRequest): PhpArray {
  const out = new PhpArray();
  for (const [k, v] of parseQueryRebuild(request.url.query ?? '')) out.set(k, Array.isArray(v) ? [...v] : v);
  return out;
}

/** Whole Unix seconds of an injectable millisecond clock. */
export function seconds(nowMs: () => number): number {
  return Math.floor(nowMs() / 1000);
}

/** PHP string form for values that must be text (an object there is a fatal error in PHP). */
export function textOf(v: Value | undefined): string {
  if (v instanceof JsonObject) throw new ApplicationError('Object of class stdClass could not be converted to string');
  return phpString(v ?? null);
}

// ---------------------------------------------------------------------------------------------
// random values

/** A fresh lowercase hex string of `length` characters (the default nonce source). */
export function randomHexNonce(length: number): string {
  return randomBytes(Math.ceil(length / 2))
    .toString('hex')
    .slice(0, length);
}

/**
 * A nonce of `length` lowercase hex characters from the setup's source. A source value that is
 * not already in that form is treated as a unique id and hashed with `salt` (the reference's
 * OAuth 1.0 nonce is `sha1(uniqid + host + path)`).
 */
export function nonceOf(source: (length: number) => string, length: number, salt = ''): string {
  const value = source(length);
  if (value.length === length && /^[0-9a-f]+$/.test(value)) return value;
  return sha1Hex(value + salt).slice(0, length);
}

/** Lowercase hex SHA-1. */
export function sha1Hex(text: string): string {
  return createHash('sha1').update(text, 'utf8').digest('hex');
}

// ---------------------------------------------------------------------------------------------
// secrets derived by authentication

/**
 * Registers the credential-named string leaves of a login response (`access_token`,
 * `refresh_token`, `session.id` …) as secrets from the moment the response is read, whether or
 * not `apiRequest` sends them on (01 §4.5; issue 19 #1).
 */
export function registerCredentialLeaves(logger: Logger, v: Value, key = ''): void {
  if (isMap(v)) for (const [k, x] of v) registerCredentialLeaves(logger, x, k);
  else if (Array.isArray(v)) for (const x of v) registerCredentialLeaves(logger, x, key);
  else if (typeof v === 'string' && isCredentialKey(key)) logger.secrets.add(v);
}
