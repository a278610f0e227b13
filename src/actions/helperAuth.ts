/**
 * The helper's authentication (spec 05 §2.5): the method is `config.__AUTH_METHOD` (else
 * `api.authentication.type`) with the UI builder's credential keys. Built for every action, so
 * a bad setup fails even `perform_function`, as in the reference. Differences from the
 * extractor's auth/ methods (they read other keys and log in differently): `login` has no expiry
 * and its apiRequest uses `params`; `oauth20`, `oauth10` and `url.query` are refused.
 */
import type { FunctionEnv } from '../functions/index.ts';
import { decodeJson } from '../php/jsonDecode.ts';
import { PhpArray, type Value } from '../php/value.ts';
import { HelperError, PY, valueError } from './envelope.ts';
import { evaluateExpression, fill, userParameters } from './dialect.ts';
import { formEncode, LIBRARY_HEADERS, setHeader, type HelperHttp, type HelperRequest } from './helperHttp.ts';
import { objectAt } from './dialect.ts';
import { pythonJson, pythonStr, pythonTruthy } from './pythonValues.ts';
import { resolveUrl } from '../http/url.ts';

export interface HelperAuth {
  method: string;
  /** Values masked in the answer (§5.3), after the login for `login`. */
  secrets: string[];
  login(http: HelperHttp, baseUrl: string): Promise<void>;
  /** Applied last to every API request (§4.2 step 8). */
  apply(request: HelperRequest): void;
}

function text(v: Value | undefined): string {
  return v === undefined ? '' : pythonStr(v);
}

function none(method: string): HelperAuth {
  return { method, secrets: [], login: async () => {}, apply: () => {} };
}

/** The entry of `params` or `headers` whose value is exactly `{"attr": "#__AUTH_TOKEN"}`. */
function apiKeyName(entries: Map<string, Value>): string | undefined {
  for (const [name, v] of entries) {
    if (v instanceof Map && v.size === 1 && v.get('attr') === '#__AUTH_TOKEN') return name;
  }
  return undefined;
}

function appendQuery(request: HelperRequest, params: Iterable<readonly [string, Value]>): void {
  const encoded = formEncode(params);
  // Always `?`, even after an existing query: the reference's behaviour (§2.5).
  if (encoded !== '') request.url += `?${encoded}`;
}

/** The value at a dot path of the login response; only strings can be inserted (§2.5 step 5). */
function responseValue(body: Value, path: string): string {
  let node: Value | undefined = body;
  for (const key of path.split('.')) node = node instanceof Map ? node.get(key) : undefined;
  if (typeof node !== 'string') {
    throw new HelperError(PY.type, `can only concatenate str (not "${node === undefined ? 'NoneType' : typeof node}") to str`);
  }
  return node;
}

function replaceResponseReferences(v: Value, body: Value): Value {
  if (Array.isArray(v)) return v.map((e) => replaceResponseReferences(e, body));
  if (!(v instanceof Map)) return v;
  const path = v.size === 1 ? v.get('response') : undefined;
  if (typeof path === 'string') return responseValue(body, path);
  return new PhpArray([...v].map(([k, e]) => [k, replaceResponseReferences(e, body)] as const));
}

function evaluatedTop(v: Value, env: FunctionEnv): Map<string, Value> {
  const out = new PhpArray();
  if (!(v instanceof Map)) return out;
  for (const [k, e] of v) out.set(k, e instanceof Map ? evaluateExpression(e, new Map(), env) : e);
  return out;
}

function loginAuth(method: string, authentication: Map<string, Value>, config: Map<string, Value>, env: FunctionEnv): HelperAuth {
  if (!pythonTruthy(authentication.get('loginRequest'))) {
    throw valueError('loginRequest configuration not found in the Login 88Authentication configuration');
  }
  const user = userParameters(config, env);
  const loginRequest = objectAt(new PhpArray([['l', fill(authentication.get('loginRequest'), user, env, true)]]), 'l');
  const apiRequest = fill(authentication.get('apiRequest') ?? new PhpArray(), user, env, false);
  const loginMethod = text(loginRequest.get('method') ?? 'GET');
  if (!['GET', 'POST', 'FORM'].includes(loginMethod)) throw valueError(`Unsupported method: ${loginMethod}`);
  let headers = new PhpArray() as Map<string, Value>;
  let params = new PhpArray() as Map<string, Value>;
  const auth: HelperAuth = {
    method,
    secrets: [],
    async login(http, baseUrl) {
      const url = resolveUrl(baseUrl, text(loginRequest.get('endpoint'))).href;
      const loginParams = objectAt(loginRequest, 'params');
      const request: HelperRequest = {
        method: loginMethod === 'GET' ? 'GET' : 'POST',
        url,
        headers: LIBRARY_HEADERS.map(([n, v]) => [n, v]),
        body: null,
      };
      for (const [name, value] of objectAt(loginRequest, 'headers')) setHeader(request.headers, name, text(value));
      if (loginMethod === 'GET') {
        const query = formEncode(loginParams);
        if (query !== '') request.url += `${url.includes('?') ? '&' : '?'}${query}`;
      } else if (loginMethod === 'POST') {
        request.body = pythonJson(loginParams);
        setHeader(request.headers, 'Content-Length', String(Buffer.byteLength(request.body)));
        if (!request.headers.some(([n]) => n.toLowerCase() === 'content-type')) request.headers.push(['Content-Type', 'application/json']);
      } else {
        request.body = formEncode(loginParams);
        setHeader(request.headers, 'Content-Length', String(Buffer.byteLength(request.body)));
        if (!request.headers.some(([n]) => n.toLowerCase() === 'content-type'))
          request.headers.push(['Content-Type', 'application/x-www-form-urlencoded']);
      }
      const response = await http.send(request, false);
      if (response.status >= 400) {
        const kind = response.status < 500 ? 'Client Error' : 'Server Error';
        throw new HelperError(PY.httpError, `${response.status} ${kind}: ${response.reason} for url: ${response.request.url}`);
      }
      let body: Value;
      try {
        body = decodeJson(response.text, 'response');
      } catch {
        throw new HelperError(PY.jsonDecode, 'Expecting value: line 1 column 1 (char 0)');
      }
      headers = evaluatedTop(replaceResponseReferences(objectAt(apiRequest, 'headers'), body), env);
      params = evaluatedTop(replaceResponseReferences(objectAt(apiRequest, 'params'), body), env);
      auth.secrets = [...[...headers.values()].map(text), ...[...params.values()].map(text)];
    },
    apply(request) {
      for (const [name, value] of headers) setHeader(request.headers, name, text(value));
      appendQuery(request, params);
    },
  };
  return auth;
}

/** §2.5: the authentication method of the configuration; construction errors are raised here. */
export function buildHelperAuth(api: Map<string, Value>, config: Map<string, Value>, env: FunctionEnv): HelperAuth {
  const authentication = objectAt(api, 'authentication');
  const chosen = pythonTruthy(config.get('__AUTH_METHOD')) ? config.get('__AUTH_METHOD') : authentication.get('type');
  const method = chosen === undefined || chosen === null ? '' : text(chosen);
  switch (method) {
    case '':
    case 'custom':
      return none(method);
    case 'basic': {
      const username = config.get('username');
      const password = config.get('#password');
      if (!pythonTruthy(username) || !pythonTruthy(password))
        throw valueError('Username or password not found in the BasicAuth configuration');
      const header = `Basic ${Buffer.from(`${text(username)}:${text(password)}`, 'utf8').toString('base64')}`;
      return { method, secrets: [header], login: async () => {}, apply: (r) => setHeader(r.headers, 'Authorization', header) };
    }
    case 'bearer': {
      const token = config.get('#__BEARER_TOKEN');
      if (!pythonTruthy(token)) throw valueError('Bearer token not found in the Bearer Token Authentication configuration');
      const value = text(token);
      return { method, secrets: [value], login: async () => {}, apply: (r) => setHeader(r.headers, 'authorization', `Bearer ${value}`) };
    }
    case 'api-key': {
      const token = text(config.get('#__AUTH_TOKEN'));
      const http = objectAt(api, 'http');
      const header = apiKeyName(objectAt(http, 'headers'));
      const query = apiKeyName(objectAt(objectAt(http, 'defaultOptions'), 'params'));
      return {
        method,
        secrets: [token],
        login: async () => {},
        apply(r) {
          if (header !== undefined) return setHeader(r.headers, header, token);
          if (query === undefined) throw valueError('Unsupported position None for API Key auth method');
          r.url = withQueryParameter(r.url, query, token);
        },
      };
    }
    case 'query': {
      const params = fill(authentication.get('query'), config, env, true);
      const entries = params instanceof Map ? [...params] : [];
      return { method, secrets: entries.map(([, v]) => text(v)), login: async () => {}, apply: (r) => appendQuery(r, entries) };
    }
    case 'login':
    case 'oauth2':
      return loginAuth(method, authentication, config, env);
    default:
      throw valueError(`Unsupported auth method: ${method}`);
  }
}

/** Sets or replaces one query parameter; the query is re-encoded (§2.5 api-key). */
function withQueryParameter(url: string, name: string, value: string): string {
  const q = url.indexOf('?');
  const base = q < 0 ? url : url.slice(0, q);
  const pairs: [string, Value][] = [];
  if (q >= 0) {
    for (const part of url.slice(q + 1).split('&')) {
      if (part === '') continue;
      const eq = part.indexOf('=');
      const decode = (s: string): string => decodeURIComponent(s.replace(/\+/g, ' '));
      pairs.push(eq < 0 ? [decode(part), ''] : [decode(part.slice(0, eq)), decode(part.slice(eq + 1))]);
    }
  }
  const at = pairs.findIndex(([k]) => k === name);
  if (at >= 0) pairs[at] = [name, value];
  else pairs.push([name, value]);
  return `${base}?${formEncode(pairs)}`;
}
