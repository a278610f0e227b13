/**
 * From a request description (the job's request: endpoint, params, method, headers) to a
 * prepared request (spec 01 §3.3–§3.6): default options merged, params in the query (GET) or
 * the body (POST/FORM), URL resolved against baseUrl, headers in the reference's order.
 */
import { CurlError } from '../errors/CurlError.ts';
import { childPath } from '../errors/configPath.ts';
import { UserError } from '../errors/UserError.ts';
import { pjsonOrFalse } from '../php/jsonEncode.ts';
import { isEmpty, isMap, member, PhpArray, type Value } from '../php/value.ts';
import { checkHeader, HeaderList, headerValues } from './headers.ts';
import { mergeParamsIntoUrl } from '../php/mergeQuery.ts';
import { httpBuildQuery } from '../php/httpBuildQuery.ts';
import { resolveUrl } from './url.ts';
import type { PreparedRequest, RequestUrl } from './prepared.ts';

export const USER_AGENT = 'GuzzleHttp/7';

function isPhpArrayLike(v: Value | undefined): v is Value[] | PhpArray {
  return Array.isArray(v) || v instanceof PhpArray;
}

function entriesOf(v: Value[] | PhpArray): [string, Value][] {
  return Array.isArray(v) ? v.map((x, i) => [String(i), x]) : [...v.entries()];
}

/** PHP `array_replace_recursive`: lists merge by index, configuration maps by key. */
export function replaceRecursive(base: Value[] | PhpArray, replacement: Value[] | PhpArray): Value[] | PhpArray {
  const merged = new Map<string, Value>(entriesOf(base));
  for (const [k, v] of entriesOf(replacement)) {
    const old = merged.get(k);
    merged.set(k, isPhpArrayLike(old) && isPhpArrayLike(v) ? replaceRecursive(old, v) : v);
  }
  if (Array.isArray(base) && Array.isArray(replacement)) {
    let i = 0;
    let sequential = true;
    for (const k of merged.keys()) if (k !== String(i++)) sequential = false;
    if (sequential) return [...merged.values()];
  }
  return new PhpArray(merged);
}

export interface RequestSettings {
  baseUrl: string;
  /** Evaluated `api.http.headers` ⊕ `config.http.headers`. */
  clientHeaders: HeaderList;
  defaultOptions: Value | undefined;
}

type Method = 'GET' | 'POST' | 'FORM';

/** The member of a request description (a job, the login request) each request-building error is about. */
const ERROR_MEMBERS: [string, string][] = [
  ['The "method" property', 'method'],
  ['The "params" property', 'params'],
  ['The "headers" property', 'headers'],
  ['The "endpoint" property', 'endpoint'],
  ['The value of header', 'headers'],
  ['The header name', 'headers'],
];

/**
 * The member (`method`, `params`, …) a request-building error without a config path is about, for
 * the caller to name it under the description's own path; undefined for other errors.
 */
export function requestErrorMember(e: unknown): string | undefined {
  if (!(e instanceof UserError) || e.configPath !== undefined) return undefined;
  return ERROR_MEMBERS.find(([prefix]) => e.message.startsWith(prefix))?.[1];
}

/**
 * A member of the wrong type. When only `api.http.defaultOptions` sets it, the error names that
 * place itself: the job (or login request) the caller would name does not have the member.
 */
function memberError(message: string, name: string, description: PhpArray, defaults: Value | undefined): UserError {
  const fromDefaults = description.get(name) === undefined && member(defaults, name) !== undefined;
  return new UserError(message, fromDefaults ? { configPath: childPath('parameters.api.http.defaultOptions', name) } : {});
}

function methodOf(v: Value | undefined, fail: (message: string, name: string) => UserError): Method {
  if (isEmpty(v)) return 'GET';
  const m = typeof v === 'string' ? v.toUpperCase() : '';
  if (m === 'GET' || m === 'POST' || m === 'FORM') return m;
  throw fail('The "method" property must be on of "GET", "POST", "FORM".', 'method');
}

function requestHeaders(v: Value | undefined, defaults: Value | undefined): HeaderList {
  const list = new HeaderList();
  const add = (name: string, value: Value): void => {
    const values = headerValues(value);
    // Request headers come from api.http.defaultOptions.headers or the job's own `headers`.
    const fromDefaults = member(member(defaults, 'headers'), name) !== undefined;
    // A job's own headers: the job runner adds the job's path (jobs/runner.ts).
    checkHeader(name, values, fromDefaults ? childPath('parameters.api.http.defaultOptions.headers', name) : undefined);
    list.append(name, values);
  };
  if (isMap(v)) for (const [name, value] of v) add(name, value);
  else if (Array.isArray(v)) for (let i = 0; i < v.length; i++) add(String(i), v[i]!);
  return list;
}

export function buildRequest(description: PhpArray, settings: RequestSettings): PreparedRequest {
  let desc: Value[] | PhpArray = description;
  if (isPhpArrayLike(settings.defaultOptions) && !isEmpty(settings.defaultOptions)) {
    desc = replaceRecursive(settings.defaultOptions, description);
  }
  const get = (k: string): Value | undefined => (Array.isArray(desc) ? undefined : desc.get(k));
  const fail = (message: string, name: string): UserError => memberError(message, name, description, settings.defaultOptions);
  const method = methodOf(get('method'), fail);
  const endpoint = get('endpoint');
  if (typeof endpoint !== 'string') throw fail('The "endpoint" property must be specified in request as a string.', 'endpoint');
  const params = get('params');
  if (!isEmpty(params) && !isPhpArrayLike(params) && !isMap(params)) throw fail('The "params" property must be an array.', 'params');
  const headersValue = get('headers');
  if (!isEmpty(headersValue) && !isPhpArrayLike(headersValue) && !isMap(headersValue))
    throw fail('The "headers" property must be an array.', 'headers');

  let target = endpoint;
  let body: Buffer | undefined;
  let contentType: string | undefined;
  if (method === 'GET') {
    if (!isEmpty(params)) target = mergeParamsIntoUrl(endpoint, params!);
  } else if (method === 'POST') {
    body = Buffer.from(isEmpty(params) ? '[]' : jsonBody(params!));
    contentType = 'application/json';
  } else {
    body = Buffer.from(isEmpty(params) ? '' : httpBuildQuery(params!));
    contentType = 'application/x-www-form-urlencoded';
  }

  const resolved = resolveUrl(settings.baseUrl, target);
  // A next-page link such as `file:///etc/passwd` or `gopher://host/` must not be sent as http
  // (curl refuses it, error 1, which is not retried); nor a URL without a host (curl error 3).
  if (resolved.scheme !== 'http' && resolved.scheme !== 'https') {
    throw new CurlError(1, `Protocol "${resolved.scheme}" not supported or disabled in libcurl`);
  }
  if (resolved.host === '') throw new CurlError(3, 'URL rejected: No host part in the URL');
  const url: RequestUrl = {
    scheme: resolved.scheme === 'https' ? 'https' : 'http',
    userinfo: resolved.userinfo,
    host: resolved.host,
    port: resolved.port,
    path: resolved.path,
    query: resolved.query,
  };

  const own = requestHeaders(headersValue, settings.defaultOptions);
  if (contentType !== undefined) own.remove('content-type');
  const headers = new HeaderList();
  if (body !== undefined) headers.append('Content-Length', [String(body.length)]);
  let hostOverride: string | undefined;
  let clientHasAgent = false;
  for (const { name, values } of settings.clientHeaders.entries) {
    const lower = name.toLowerCase();
    if (lower === 'host') {
      hostOverride ??= values.join(', ');
      continue;
    }
    if (lower === 'user-agent') clientHasAgent = true;
    if (!own.has(name)) headers.append(name, values);
  }
  if (!clientHasAgent && !own.has('user-agent')) headers.append('User-Agent', [USER_AGENT]);
  headers.append('Host', [hostOverride ?? (url.port === undefined ? url.host : `${url.host}:${url.port}`)]);
  for (const { name, values } of own.entries) headers.append(name, values);
  if (contentType !== undefined) headers.append('Content-Type', [contentType]);

  return { method: method === 'FORM' ? 'POST' : method, url, headers, body, authHeaders: new Set() };
}

/**
 * The JSON body of a POST request. A number outside the double range (`1e400` decodes to INF)
 * cannot be written as JSON: the reference crashes (Guzzle's `json_encode error`, exit 2); here it
 * is a user error that `withJobPath` points at the job's `params`.
 */
function jsonBody(params: Value): string {
  const text = pjsonOrFalse(params, 'shortest');
  if (text === false)
    throw new UserError(
      'The "params" property cannot be sent as a JSON body: it holds a number outside the range of a double (such as 1e400), which JSON cannot represent. Write that number as a string.',
    );
  return text;
}
