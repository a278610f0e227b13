/**
 * `login` (spec 02 §6): a login request (lazily, before the first API request attempt of the
 * iteration, and again once the login expires), whose response feeds `apiRequest.query`
 * (Q-rebuild, indexed-list variant) and `apiRequest.headers` on every API request attempt.
 * `oauth20.login` (§7) reuses this class with extra contexts for the login request.
 */
import { childPath } from '../errors/configPath.ts';
import { ApplicationError } from '../errors/ApplicationError.ts';
import { UserError } from '../errors/UserError.ts';
import { bytesToPhpString } from '../functions/convert.ts';
import { evaluate, flattenContext, type FunctionContext } from '../functions/index.ts';
import { pjson } from '../php/jsonEncode.ts';
import { phpString } from '../php/stringConversion.ts';
import { isInt, isMap, JsonObject, member, PhpArray, type Value } from '../php/value.ts';
import type { Authenticator, HttpClient } from '../http/client.ts';
import { checkHeader, HeaderList, headerValues } from '../http/headers.ts';
import type { PreparedRequest } from '../http/prepared.ts';
import { rebuildQuery } from '../php/guzzleQuery.ts';
import { buildRequest, requestErrorMember } from '../http/request.ts';
import { httpErrorFor, interpretResponse } from '../http/response.ts';
import {
  AUTH_PATH,
  evaluatePlace,
  isCredentialKey,
  objectHeaderError,
  objectPath,
  registerCredentialLeaves,
  seconds,
  setAuthHeader,
  textOf,
} from './common.ts';
import { LOGIN_PATH, loginOptionNodes, parseLoginOptions, type LoginOptions } from './loginOptions.ts';
import { registerAuthMethod, type AuthSetup } from './registry.ts';

/** The options of `login`: those of the login request, parsed by `parseLoginOptions`. */
export interface LoginAuthOptions {
  type: 'login';
  login: LoginOptions;
}

// ---------------------------------------------------------------------------------------------
// login response helpers

const NOT_FOUND = Symbol('not found');

/**
 * The backward-compatible path walk of 02 §6.6: an object step needs the property (its value may
 * be null), an array step needs an existing non-null element.
 */
export function walkResponse(path: string, data: Value): Value | typeof NOT_FOUND {
  let cur: Value = data;
  for (const step of path.split('.')) {
    if (cur instanceof Map) {
      if (!cur.has(step)) return NOT_FOUND;
      cur = cur.get(step)!;
    } else if (Array.isArray(cur)) {
      if (!/^(0|-?[1-9][0-9]*)$/.test(step)) return NOT_FOUND;
      const item = cur[Number(step)];
      if (item === undefined || item === null) return NOT_FOUND;
      cur = item;
    } else {
      return NOT_FOUND;
    }
  }
  return cur;
}

/** 02 §6.6 step 3: a value naming an existing path of the login response becomes that value. */
export function lookupInResponse(value: Value, response: Value): Value {
  if (value === null) return response;
  if (isMap(value)) return value;
  const path = phpString(value);
  if (path === '.') return response;
  const found = walkResponse(path, response);
  return found === NOT_FOUND ? value : found;
}

/** The paths of every `{"response": path}` reference (and plain path string) inside an apiRequest place. */
function responseReferences(place: Value | undefined): string[] {
  const paths: string[] = [];
  const walk = (v: Value | undefined, top: boolean): void => {
    if (typeof v === 'string') {
      if (top) paths.push(v);
    } else if (isMap(v)) {
      const ref = v.get('response');
      if (v.size === 1 && typeof ref === 'string') paths.push(ref);
      else for (const x of v.values()) walk(x, false);
    } else if (Array.isArray(v)) for (const x of v) walk(x, false);
  };
  if (isMap(place)) for (const v of place.values()) walk(v, true);
  return paths;
}

/** The login response as an object (02 §6.5). */
function loginResponseObject(decoded: Value): Value {
  if (decoded instanceof Map) return decoded;
  if (Array.isArray(decoded)) {
    throw new UserError('The response to the login request should be an object or a scalar value, given "array".');
  }
  if (decoded === null) {
    throw new UserError('The response to the login request should be an object or a scalar value, given "NULL".');
  }
  return new JsonObject([['data', decoded]]);
}

// ---------------------------------------------------------------------------------------------
// the authenticator

export interface LoginBehaviour {
  /** Name used in messages (`login` / `oauth20.login`). */
  type: string;
  /** Contexts of the login request's params/headers besides `attr`. */
  loginContexts?: FunctionContext;
  /** `login`: an object header value is a user error; `oauth20.login`: an internal error. */
  objectHeaderIsUserError: boolean;
}

type Expiry = { kind: 'none' } | { kind: 'every' } | { kind: 'at'; at: number };

export class LoginAuthenticator implements Authenticator {
  private readonly setup: AuthSetup;
  private readonly settings: LoginOptions;
  private readonly options: LoginBehaviour;
  private readonly attr: Map<string, Value>;
  private loggedIn = false;
  private expiry: Expiry = { kind: 'none' };
  private query = new Map<string, Value>();
  private headers: [string, Value][] = [];
  /** The login in progress: concurrent attempts wait for one login instead of starting their own. */
  private pending: Promise<void> | undefined;

  constructor(setup: AuthSetup, settings: LoginOptions, options: LoginBehaviour) {
    this.setup = setup;
    this.settings = settings;
    this.options = options;
    this.attr = flattenContext(setup.attributes);
  }

  /** Whole seconds of the injected clock. */
  private now(): number {
    return seconds(this.setup.nowMs);
  }

  private needsLogin(): boolean {
    if (!this.loggedIn) return true;
    switch (this.expiry.kind) {
      case 'none':
        return false;
      case 'every':
        return true;
      case 'at':
        return this.expiry.at !== 0 && this.now() > this.expiry.at;
    }
  }

  async authenticate(request: PreparedRequest, client: HttpClient): Promise<void> {
    if (this.pending) await this.pending;
    else if (this.needsLogin()) {
      this.pending = this.login(client).finally(() => (this.pending = undefined));
      await this.pending;
    }
    this.apply(request);
  }

  /** `expires: 0` logs in before every attempt: attempts must not overlap (client.ts). */
  exclusive(): boolean {
    const { expires } = this.settings;
    return expires.kind === 'seconds' && expires.seconds === 0;
  }

  /** 02 §6.7: the computed query (indexed-list merge, always rebuilt) and headers. */
  private apply(request: PreparedRequest): void {
    const query = rebuildQuery(request.url.query ?? '', this.query, 'indexed');
    request.url.query = query === '' ? undefined : query;
    for (const [name, value] of this.headers) {
      if (objectPath(value, name) !== undefined) {
        throw new ApplicationError(`Invalid header value for '${name}': an object cannot be sent as a header.`, {
          context: { path: childPath(`${AUTH_PATH}.apiRequest.headers`, name) },
        });
      }
      setAuthHeader(request, name, value, childPath(`${AUTH_PATH}.apiRequest.headers`, name));
    }
  }

  /** Builds the login request (02 §6.4). */
  private loginRequest(): PreparedRequest {
    const def = this.settings.loginRequest;
    const ctx: FunctionContext = { attr: this.attr, ...(this.options.loginContexts ?? {}) };
    const rawParams = def.params;
    const rawHeaders = def.headers;
    const params = evaluatePlace(rawParams, ctx, this.setup.nowMs, `${LOGIN_PATH}.params`);
    const headers = evaluatePlace(rawHeaders, ctx, this.setup.nowMs, `${LOGIN_PATH}.headers`);
    for (const [name, value] of headers) {
      const path = objectPath(value, name);
      if (path === undefined) {
        checkHeader(name, headerValues(value), childPath(`${LOGIN_PATH}.headers`, name));
        continue;
      }
      if (this.options.objectHeaderIsUserError) throw objectHeaderError(path, childPath(`${LOGIN_PATH}.headers`, name));
      throw new ApplicationError(`Invalid header value for '${name}' in the login request.`, {
        context: { path: childPath(`${LOGIN_PATH}.headers`, name) },
      });
    }
    // Computed login parameters and headers (functions, references) and credential-named ones are
    // secrets: they reach the log as query values or in a body the API may echo back.
    const secrets = this.setup.logger.secrets;
    for (const [k, v] of params) if (isMap(member(rawParams, k)) || isCredentialKey(k)) secrets.addValue(v);
    for (const [k, v] of headers) if (isMap(member(rawHeaders, k)) || isCredentialKey(k)) secrets.addValue(v);

    const description = new PhpArray();
    description.set('endpoint', def.endpoint);
    if (def.method !== undefined) description.set('method', def.method);
    const paramsValue: Value = Array.isArray(rawParams) ? params.map(([, v]) => v) : new PhpArray(params);
    if (params.length > 0) description.set('params', paramsValue);
    if (headers.length > 0) description.set('headers', new PhpArray(headers));

    let prepared: PreparedRequest;
    try {
      prepared = buildRequest(description, {
        baseUrl: this.setup.baseUrl,
        clientHeaders: this.setup.clientHeaders?.() ?? new HeaderList(),
        defaultOptions: undefined,
      });
    } catch (e) {
      const name = requestErrorMember(e);
      if (name !== undefined)
        throw new UserError((e as UserError).message, { configPath: `${LOGIN_PATH}.${name}`, context: (e as UserError).context });
      throw e;
    }
    // Computed login headers (functions, references) usually carry credentials: hidden whole in debug logs.
    for (const [name] of headers) if (isMap(member(rawHeaders, name))) prepared.authHeaders.add(name.toLowerCase());
    // JSON login bodies print floats with 17 significant digits (02 §6.4).
    if (prepared.method === 'POST' && prepared.headers.get('content-type') === 'application/json' && params.length > 0) {
      prepared.body = Buffer.from(pjson(paramsValue, 'p17'));
      const length = prepared.headers.entries.find((e) => e.name.toLowerCase() === 'content-length');
      if (length) length.values = [String(prepared.body.length)];
    }
    return prepared;
  }

  private async login(client: HttpClient): Promise<void> {
    const request = this.loginRequest();
    const response = await client.send(request, false);
    let decoded: Value;
    if (this.settings.format === 'text') {
      if (response.status >= 400) throw httpErrorFor(response, this.setup.logger.secrets);
      decoded = bytesToPhpString(response.body);
    } else {
      try {
        decoded = interpretResponse(response, [], this.setup.logger);
      } catch (e) {
        // A successful login answered with something that is not JSON (a bare token, typically):
        // the body is login-derived, and the error's context would show it.
        if (response.status < 400 && response.body.length <= 64 * 1024) {
          const body = response.body.toString('utf8');
          this.setup.logger.secrets.add(body);
          this.setup.logger.secrets.add(body.trim());
        }
        throw e;
      }
    }
    const loginResponse = loginResponseObject(decoded);
    registerCredentialLeaves(this.setup.logger, loginResponse);
    const ctx: FunctionContext = { response: flattenContext(loginResponse), attr: this.attr };
    const { apiRequest } = this.settings;
    const compute = (key: 'query' | 'headers'): [string, Value][] =>
      evaluatePlace(apiRequest[key], ctx, this.setup.nowMs, `${AUTH_PATH}.apiRequest.${key}`).map(([k, v]) => [
        k,
        lookupInResponse(v, loginResponse),
      ]);
    this.query = new Map(compute('query'));
    this.headers = compute('headers');
    // Every value derived from the login response is a secret from the moment it exists (issue 19 #1):
    // the values sent on and the response leaves they were computed from.
    for (const v of this.query.values()) this.setup.logger.secrets.addValue(v);
    for (const [, v] of this.headers) this.setup.logger.secrets.addValue(v);
    for (const key of ['query', 'headers'] as const) {
      for (const path of responseReferences(apiRequest[key])) {
        const found = walkResponse(path, loginResponse);
        if (found !== NOT_FOUND) this.setup.logger.secrets.addValue(found);
      }
    }
    this.expiry = this.expiryAfterLogin(loginResponse);
    this.loggedIn = true;
  }

  /** 02 §6.8. */
  private expiryAfterLogin(loginResponse: Value): Expiry {
    const { expires } = this.settings;
    const t = this.now();
    if (expires.kind === 'never') return { kind: 'none' };
    if (expires.kind === 'seconds') {
      // Normative rule for zero (02 §6.3): log in before every API request attempt.
      return expires.seconds === 0 ? { kind: 'every' } : { kind: 'at', at: t + expires.seconds };
    }
    const found = walkResponse(expires.path, loginResponse);
    if (found === NOT_FOUND || found === null) return { kind: 'none' };
    let at: number;
    if (isInt(found)) {
      at = Number(found);
    } else {
      const parsed = evaluate(
        new PhpArray([
          ['function', 'strtotime'],
          ['args', [textOf(found), t]],
        ]),
        {},
        { now: this.setup.nowMs },
      );
      at = isInt(parsed) ? Number(parsed) : 0;
    }
    if (expires.relative) at += t;
    if (at < t) {
      // Read as a point in time, a count of seconds ("3600") lies in 1970: `relative` is the fix then.
      const hint = expires.relative
        ? ''
        : ' It is read as a Unix timestamp or a date; if it counts seconds from the login, set "relative": true.';
      throw new UserError(`Login authentication returned expiry time before current time: '${textOf(found)}'${hint}`, {
        configPath: `${AUTH_PATH}.expires${expires.relative ? '' : '.relative'}`,
      });
    }
    return { kind: 'at', at };
  }
}

export function createLoginAuth(setup: AuthSetup, { login }: LoginAuthOptions): Authenticator {
  return new LoginAuthenticator(setup, login, { type: 'login', objectHeaderIsUserError: true });
}

registerAuthMethod({
  type: 'login',
  description: 'A login request whose response supplies headers or query parameters of the API requests.',
  options: loginOptionNodes,
  required: ['loginRequest'],
  example: {
    authentication: {
      type: 'login',
      loginRequest: { endpoint: 'auth/login', method: 'POST', params: { user: { attr: 'username' }, password: { attr: '#password' } } },
      apiRequest: { headers: { Authorization: { function: 'concat', args: ['Bearer ', { response: 'access_token' }] } } },
      expires: { response: 'expires_in', relative: true },
    },
    config: { username: 'JohnDoe', '#password': 'secret' },
    sends:
      '`POST auth/login` with `{"user":"JohnDoe","password":"secret"}` first; then `Authorization: Bearer <access_token of the login response>` on every request, logging in again when `expires_in` seconds have passed.',
  },
  parse: (source): LoginAuthOptions => ({ type: 'login', login: parseLoginOptions(source.authentication) }),
  create: createLoginAuth,
});
