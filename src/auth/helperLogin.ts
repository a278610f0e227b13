/**
 * The sync actions' `login` / `oauth2` (spec 05 §2.5): one login request before the API
 * requests, then `apiRequest.headers` and `apiRequest.params` (not `query`, unlike the
 * extractor's login.ts) with `{"response": path}` taken from the login response. No expiry, no
 * re-login; every computed value is a secret. The user parameters are the action's, evaluated
 * once (the helper evaluates them again here; docs/migration.md).
 */
import { resolveUrl } from '../http/url.ts';
import { decodeJson } from '../php/jsonDecode.ts';
import type { Value } from '../php/value.ts';
import {
  appendHelperQuery,
  type HelperDialect,
  type HelperLoginRequest,
  type HelperLoginResponse,
  objectAt,
  registerHelperAuthMethod,
  replaceAuthHeader,
} from './helperRegistry.ts';

/** The value at a dot path of the login response; only strings can be inserted (step 5). */
function responseValue(body: Value, path: string, dialect: HelperDialect): string {
  let node: Value | undefined = body;
  for (const key of path.split('.')) node = node instanceof Map ? node.get(key) : undefined;
  if (typeof node !== 'string') {
    throw dialect.error('type', `can only concatenate str (not "${node === undefined ? 'NoneType' : typeof node}") to str`);
  }
  return node;
}

function withResponseValues(v: Value, body: Value, dialect: HelperDialect): Value {
  if (Array.isArray(v)) return v.map((e) => withResponseValues(e, body, dialect));
  if (!(v instanceof Map)) return v;
  const path = v.size === 1 ? v.get('response') : undefined;
  if (typeof path === 'string') return responseValue(body, path, dialect);
  return new Map([...v].map(([k, e]) => [k, withResponseValues(e, body, dialect)] as const)) as Value;
}

/** Top-level functions evaluated with empty user parameters (step 5). */
function evaluatedTop(v: Value, dialect: HelperDialect): [string, Value][] {
  if (!(v instanceof Map)) return [];
  return [...v].map(([k, e]) => [k, e instanceof Map ? dialect.evaluate(e, new Map()) : e]);
}

function loginRequestOf(loginRequest: Map<string, Value>, method: string, url: string, dialect: HelperDialect): HelperLoginRequest {
  const params = objectAt(loginRequest, 'params');
  const headers = [...objectAt(loginRequest, 'headers')].map(([n, v]) => [n, dialect.str(v)] as [string, string]);
  if (method === 'GET') {
    const query = dialect.formEncode(params);
    return { method, url: query === '' ? url : `${url}${url.includes('?') ? '&' : '?'}${query}`, headers, body: null };
  }
  const body =
    method === 'POST'
      ? { text: dialect.jsonText(params), contentType: 'application/json' }
      : { text: dialect.formEncode(params), contentType: 'application/x-www-form-urlencoded' };
  return { method: 'POST', url, headers, body };
}

function decodedBody(response: HelperLoginResponse, dialect: HelperDialect): Value {
  if (response.status >= 400) {
    const kind = response.status < 500 ? 'Client Error' : 'Server Error';
    throw dialect.error('httpError', `${response.status} ${kind}: ${response.reason} for url: ${response.url}`);
  }
  try {
    return decodeJson(response.text, 'response');
  } catch {
    throw dialect.error('jsonDecode', 'Expecting value: line 1 column 1 (char 0)');
  }
}

registerHelperAuthMethod({
  types: ['login', 'oauth2'],
  description:
    'One request from `api.authentication.loginRequest`, then the headers and query parameters of `apiRequest` (`{"response": "path"}` read from its answer) on every API request.',
  create({ api, user, dialect }) {
    const authentication = objectAt(api, 'authentication');
    if (!dialect.truthy(authentication.get('loginRequest'))) {
      throw dialect.error('value', 'loginRequest configuration not found in the Login 88Authentication configuration');
    }
    const filled = dialect.fill(authentication.get('loginRequest'), user, true);
    const loginRequest = filled instanceof Map ? filled : new Map<string, Value>();
    const apiRequest = dialect.fill(authentication.get('apiRequest') ?? new Map(), user, false);
    const method = dialect.str(loginRequest.get('method') ?? 'GET');
    if (!['GET', 'POST', 'FORM'].includes(method)) throw dialect.error('value', `Unsupported method: ${method}`);
    let headers: [string, string][] = [];
    let query = '';
    let secrets: string[] = [];
    return {
      secrets: () => secrets,
      async login(baseUrl, send) {
        const url = resolveUrl(baseUrl, dialect.str(loginRequest.get('endpoint') ?? '')).href;
        const body = decodedBody(await send(loginRequestOf(loginRequest, method, url, dialect)), dialect);
        headers = evaluatedTop(withResponseValues(objectAt(apiRequest, 'headers'), body, dialect), dialect).map(([n, v]) => [
          n,
          dialect.str(v),
        ]);
        const params = evaluatedTop(withResponseValues(objectAt(apiRequest, 'params'), body, dialect), dialect);
        query = dialect.formEncode(params);
        secrets = [...headers.map(([, v]) => v), ...params.map(([, v]) => dialect.str(v))];
      },
      async authenticate(request) {
        for (const [name, value] of headers) replaceAuthHeader(request, name, value);
        appendHelperQuery(request, query);
      },
    };
  },
});
