/**
 * `api.authentication` parsed once into a typed object per authentication type (spec 02 §2–§9),
 * with the reference's checks in its order and its ways of reading values. The methods in
 * `src/auth/` receive the result and read no configuration key themselves.
 */
import { ApplicationError } from '../errors/ApplicationError.ts';
import { JsonDecodeError } from '../errors/JsonDecodeError.ts';
import { UserError } from '../errors/UserError.ts';
import { valueLong } from '../functions/convert.ts';
import { decodeJson } from '../php/jsonDecode.ts';
import { phpString } from '../php/stringConversion.ts';
import { isEmpty, isMap, JsonObject, member, PhpArray, PhpFloat, phpType, truthy, type Value } from '../php/value.ts';
import type { Logger } from '../logging/logger.ts';
// Importing the methods registers them: an unknown type lists the known ones.
import { noAuthenticationLine } from '../auth/index.ts';
import { getAuthMethod } from '../auth/registry.ts';
import { oauthDataText, textOf } from '../auth/common.ts';
import type { ApiDescription } from './api.ts';
import { attributesOf } from './configurations.ts';

const AUTH_PATH = 'parameters.api.authentication';
const LOGIN_PATH = `${AUTH_PATH}.loginRequest`;
const CREDENTIALS_PATH = 'authorization.oauth_api.credentials';
const DATA_PATH = `${CREDENTIALS_PATH}.#data`;

/** When a login expires (02 §6.3, §6.8). */
export type LoginExpiry =
  /** Absent, or a value that is neither numeric nor `{response: path}`: the login is kept. */
  | { kind: 'never' }
  /** Numeric: seconds after the login; 0 = log in before every API request attempt. */
  | { kind: 'seconds'; seconds: number }
  /** `{response: path, relative}`: the expiry is read from the login response. */
  | { kind: 'response'; path: string; relative: boolean };

export interface LoginOptions {
  format: 'json' | 'text';
  /** `loginRequest` parts as configured (evaluated per login). */
  loginRequest: { endpoint: Value; method: Value | undefined; params: Value | undefined; headers: Value | undefined };
  /** `apiRequest.query` and `apiRequest.headers`, evaluated after each login. */
  apiRequest: { query: Value | undefined; headers: Value | undefined };
  expires: LoginExpiry;
}

export interface OAuth1Keys {
  consumerKey: string;
  consumerSecret: string;
  token: string;
  tokenSecret: string;
}

export type AuthOptions =
  | { type: 'none' }
  /** The credentials as configured (converted to text by the method: an object there is an internal error). */
  | { type: 'basic'; username: Value; password: Value }
  /** The query place (a map or list) and where it was configured (`authentication.query` or legacy `api.query`). */
  | { type: 'query' | 'url.query'; query: PhpArray | Value[]; configPath: string }
  | { type: 'login'; login: LoginOptions }
  | { type: 'oauth20.login'; login: LoginOptions; clientId: string; clientSecret: string; user: Value }
  | { type: 'oauth20'; clientId: string; data: Value; query: Value | undefined; headers: Value | undefined }
  | { type: 'oauth10'; keys: OAuth1Keys };

export type AuthType = AuthOptions['type'];

export interface AuthSource {
  /** `api.authentication` (may be absent). */
  authentication: Value | undefined;
  /** Legacy `api.query`. */
  legacyQuery: Value | undefined;
  /** Configuration attributes (`parameters.config` after the iteration merge, without jobs). */
  attributes: Value;
  /** `authorization.oauth_api.credentials` from the root of config.json. */
  oauthCredentials: Value | undefined;
  /** Receives the set-up lines (`Using 'x' authentication.`, deprecations). */
  logger: Logger;
  /**
   * Where request headers are configured (config path → header names), so the set-up line can say
   * that credentials come from headers when no authentication type is set.
   */
  headerSources?: ReadonlyMap<string, readonly string[]>;
}

/**
 * The authentication of one configuration (`api` already checked by `buildApiDescription`):
 * `api.authentication`, legacy `api.query`, the attributes and `authorization.oauth_api.credentials`
 * of config.json's root.
 */
export function authenticationOf(
  api: ApiDescription,
  config: PhpArray,
  root: Value,
  logger: Logger,
  headerSources?: ReadonlyMap<string, readonly string[]>,
): AuthOptions {
  return parseAuthentication({
    authentication: api.authentication,
    legacyQuery: api.api.get('query'),
    attributes: attributesOf(config),
    oauthCredentials: member(member(member(root, 'authorization'), 'oauth_api'), 'credentials'),
    logger,
    ...(headerSources ? { headerSources } : {}),
  });
}

/** Where request headers are configured, for the authentication set-up line. */
export function headerSourcesOf(api: ApiDescription, config: PhpArray): Map<string, string[]> {
  const names = (v: Value | undefined): string[] => (v instanceof Map ? [...v.keys()] : []);
  return new Map([
    ['parameters.api.http.headers', names(member(member(api.api, 'http'), 'headers'))],
    ['parameters.config.http.headers', names(member(config.get('http'), 'headers'))],
    ['parameters.api.http.defaultOptions.headers', names(member(api.defaultOptions, 'headers'))],
  ]);
}

/**
 * Parses the authentication of one configuration. Throws the error the reference throws when it
 * constructs the authentication, in the same order: the type (unknown names list the known ones),
 * then the method's own checks.
 */
export function parseAuthentication(source: AuthSource): AuthOptions {
  const type = member(source.authentication, 'type');
  // PHP-empty type ("", "0", 0, null …) means no authentication.
  if (isEmpty(type)) {
    source.logger.debug(noAuthenticationLine(source.headerSources));
    return { type: 'none' };
  }
  const name = typeof type === 'string' ? type : phpString(type ?? null);
  getAuthMethod(name);
  source.logger.debug(`Using '${name}' authentication.`);
  switch (name) {
    case 'basic':
      return basicOptions(source.attributes);
    case 'query':
    case 'url.query':
      return queryOptions(source, name);
    case 'login':
      return { type: 'login', login: loginOptions(source.authentication) };
    case 'oauth20.login':
      return oauth20LoginOptions(source);
    case 'oauth20':
      return oauth20Options(source);
    case 'oauth10':
      return oauth10Options(source.oauthCredentials);
  }
  throw new ApplicationError(`Authentication type '${name}' is registered but has no options parser.`);
}

/** The plain key wins when PHP-non-empty, else the `#` key (02 §3). */
function pick(attributes: Value, plain: string, secret: string): Value | undefined {
  const value = member(attributes, plain);
  return isEmpty(value) ? member(attributes, secret) : value;
}

function basicOptions(attributes: Value): AuthOptions {
  const username = pick(attributes, 'username', '#username');
  if (isEmpty(username)) {
    throw new UserError("Missing the required '#username' (or 'username') attribute in config.", {
      configPath: 'parameters.config.#username',
    });
  }
  const password = pick(attributes, 'password', '#password');
  if (isEmpty(password)) {
    throw new UserError("Missing the required '#password' attribute in config.", { configPath: 'parameters.config.#password' });
  }
  return { type: 'basic', username: username!, password: password! };
}

function queryOptions(source: AuthSource, type: 'query' | 'url.query'): AuthOptions {
  if (type === 'url.query') source.logger.warning("Method 'url.query' auth is deprecated, use 'query'.");
  let definition = member(source.authentication, 'query');
  let configPath = `${AUTH_PATH}.query`;
  // Legacy `api.query` is used only when `authentication.query` is PHP-empty (02 §4).
  if (isEmpty(definition) && !isEmpty(source.legacyQuery)) {
    // Sic: the reference's message lacks the closing quote.
    source.logger.warning("Using 'api.query' is deprecated, use 'api.authentication.query");
    definition = source.legacyQuery;
    configPath = 'parameters.api.query';
  }
  if (isEmpty(definition)) {
    throw new UserError("The query authentication method requires 'query' configuration in 'authentication' section.", { configPath });
  }
  if (!isMap(definition) && !Array.isArray(definition)) {
    // The reference's constructor takes an array: anything else is a type error there.
    throw new ApplicationError(`Argument 1 passed to Query::__construct() must be of the type array, ${typeof definition} given`, {
      context: { path: configPath },
    });
  }
  return { type, query: definition as PhpArray | Value[], configPath };
}

/** PHP `filter_var($v, FILTER_VALIDATE_INT) !== false`. */
export function isFilterValidInt(v: Value | undefined): boolean {
  if (typeof v === 'number' || typeof v === 'bigint' || v === true) return true;
  let text: string;
  if (v instanceof PhpFloat) text = phpString(v);
  else if (typeof v === 'string') text = v;
  else return false;
  const m = /^[ \t\r\n\v\0]*([+-]?)(0|[1-9][0-9]*)[ \t\r\n\v\0]*$/.exec(text);
  if (!m) return false;
  const n = BigInt(m[1] + m[2]!);
  return n >= -(2n ** 63n) && n <= 2n ** 63n - 1n;
}

/** PHP 7.4 `is_numeric` (leading whitespace allowed, trailing not). */
export function isPhpNumeric(v: Value | undefined): boolean {
  if (typeof v === 'number' || typeof v === 'bigint' || v instanceof PhpFloat) return true;
  return typeof v === 'string' && /^[ \t\n\r\v\f]*[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/.test(v);
}

/**
 * `expires` as the reference uses it after a login (02 §6.8). The check before (filter_var) and
 * the use after (is_numeric) differ: `"5 "` passes the check but is not numeric, so such a login
 * never expires; `true` passes too and never expires. A numeric value is cast with PHP `(int)`.
 */
function expiryOf(expires: Value | undefined): LoginExpiry {
  if (expires === undefined || expires === null) return { kind: 'never' };
  if (isPhpNumeric(expires)) return { kind: 'seconds', seconds: Number(valueLong(expires)) };
  if (!isMap(expires) || isEmpty(member(expires, 'response'))) return { kind: 'never' };
  return { kind: 'response', path: phpString(member(expires, 'response')!), relative: truthy(member(expires, 'relative')) };
}

/** The constructor checks of `login` (and first checks of `oauth20.login`), in the reference's order. */
export function loginOptions(auth: Value | undefined): LoginOptions {
  const format = member(auth, 'format');
  if (!isEmpty(format) && format !== 'json' && format !== 'text') {
    throw new UserError("'format' must be either 'json' or 'text'.", { configPath: `${AUTH_PATH}.format` });
  }
  const loginRequest = member(auth, 'loginRequest');
  if (isEmpty(loginRequest)) {
    throw new UserError("'loginRequest' is not configured for Login authentication", { configPath: LOGIN_PATH });
  }
  const endpoint = member(loginRequest, 'endpoint');
  if (isEmpty(endpoint)) {
    throw new UserError('Request endpoint must be set for the Login authentication method.', { configPath: `${LOGIN_PATH}.endpoint` });
  }
  const expires = member(auth, 'expires');
  if (!isEmpty(expires) && !isFilterValidInt(expires) && !(isMap(expires) && !isEmpty(member(expires, 'response')))) {
    throw new UserError(
      "The 'expires' attribute must be either an integer or an array with 'response' key containing a path in the response",
      { configPath: `${AUTH_PATH}.expires` },
    );
  }
  const apiRequest = member(auth, 'apiRequest');
  return {
    // PHP-empty format means json.
    format: format === 'text' ? 'text' : 'json',
    loginRequest: {
      endpoint: endpoint!,
      method: member(loginRequest, 'method'),
      params: member(loginRequest, 'params'),
      headers: member(loginRequest, 'headers'),
    },
    apiRequest: { query: member(apiRequest, 'query'), headers: member(apiRequest, 'headers') },
    expires: expiryOf(expires),
  };
}

interface OAuthCredentials {
  data: Value;
  appKey: Value;
  appSecret: Value;
}

/**
 * The three credential keys, checked in the order `#data`, `appKey`, `#appSecret` (02 §7–§9).
 * `missing(key)` builds the per-method message.
 */
function oauthCredentials(credentials: Value | undefined, notSupplied: string, missing: (key: string) => string): OAuthCredentials {
  if (isEmpty(credentials)) throw new UserError(notSupplied, { configPath: CREDENTIALS_PATH });
  const get = (k: string): Value | undefined => (isMap(credentials) ? credentials.get(k) : undefined);
  for (const key of ['#data', 'appKey', '#appSecret']) {
    if (isEmpty(get(key))) throw new UserError(missing(key), { configPath: `${CREDENTIALS_PATH}.${key}` });
  }
  return { data: get('#data')!, appKey: get('appKey')!, appSecret: get('#appSecret')! };
}

function oauth20LoginOptions(source: AuthSource): AuthOptions {
  const login = loginOptions(source.authentication);
  const credentials = oauthCredentials(
    source.oauthCredentials,
    'OAuth API credentials not supplied in config',
    (key) => `Missing '${key}' for OAuth 2.0 authorization`,
  );
  let user: Value;
  try {
    user = decodeJson(oauthDataText(credentials.data), 'config');
  } catch (e) {
    if (!(e instanceof JsonDecodeError)) throw e;
    throw new UserError('The OAuth data is not a valid JSON', { configPath: DATA_PATH });
  }
  if (!isMap(user) && !Array.isArray(user)) {
    throw new ApplicationError('The OAuth data must be a JSON object.', { context: { path: DATA_PATH } });
  }
  return { type: 'oauth20.login', login, clientId: textOf(credentials.appKey), clientSecret: textOf(credentials.appSecret), user };
}

function oauth20Options(source: AuthSource): AuthOptions {
  const credentials = oauthCredentials(
    source.oauthCredentials,
    'OAuth API credentials not supplied in configuration.',
    (key) => `Missing '${key}' for OAuth 2.0 authorization.`,
  );
  const format = member(source.authentication, 'format');
  if (!isEmpty(format) && format !== 'json' && format !== 'text') {
    throw new UserError(`Unknown OAuth data format '${phpString(format)}'.`, { configPath: `${AUTH_PATH}.format` });
  }
  const text = oauthDataText(credentials.data);
  // Only an explicit 'json' decodes `#data`; PHP-empty and 'text' keep the text.
  let data: Value = text;
  if (format === 'json') {
    try {
      data = decodeJson(text, 'config');
    } catch (e) {
      if (!(e instanceof JsonDecodeError)) throw e;
      throw new ApplicationError(`JSON decode error: ${e.apiReason}`, { context: { path: DATA_PATH } });
    }
  }
  return {
    type: 'oauth20',
    clientId: textOf(credentials.appKey),
    data,
    query: member(source.authentication, 'query'),
    headers: member(source.authentication, 'headers'),
  };
}

/** A credential as text: scalars in PHP string form; containers crash the reference (internal error). */
function credentialText(v: Value, path: string): string {
  if (Array.isArray(v) || v instanceof Map)
    throw new ApplicationError(`The OAuth 1.0 credential '${path}' must be a string.`, { context: { path } });
  return textOf(v);
}

function oauth10Options(source: Value | undefined): AuthOptions {
  const credentials = oauthCredentials(
    source,
    'OAuth API credentials not supplied in configuration.',
    (key) => `Missing '${key}' for OAuth 1.0 authorization.`,
  );
  let data: Value;
  try {
    // Decoded as a response: the reference requires a JSON object here, not a PHP array.
    data = decodeJson(oauthDataText(credentials.data), 'response');
  } catch (e) {
    if (!(e instanceof JsonDecodeError)) throw e;
    throw new UserError('The OAuth #data is not a valid JSON.', { configPath: DATA_PATH });
  }
  if (!(data instanceof JsonObject)) {
    throw new UserError(
      `Key 'oauth_api.credentials'.#data must be object, given '${data instanceof PhpArray ? 'array' : phpType(data)}'.`,
      { configPath: DATA_PATH },
    );
  }
  const token = data.get('oauth_token');
  if (token === undefined || token === null) {
    throw new UserError("Missing 'oauth_api.credentials.#data.oauth_token' for OAuth 1.0 authorization.", { configPath: DATA_PATH });
  }
  const tokenSecret = data.get('oauth_token_secret');
  if (tokenSecret === undefined || tokenSecret === null) {
    throw new UserError("Missing 'oauth_api.credentials.#data.oauth_token_secret' for OAuth 1.0 authorization.", { configPath: DATA_PATH });
  }
  return {
    type: 'oauth10',
    keys: {
      consumerKey: credentialText(credentials.appKey, `${CREDENTIALS_PATH}.appKey`),
      consumerSecret: credentialText(credentials.appSecret, `${CREDENTIALS_PATH}.#appSecret`),
      token: credentialText(token, `${DATA_PATH}.oauth_token`),
      tokenSecret: credentialText(tokenSecret, `${DATA_PATH}.oauth_token_secret`),
    },
  };
}

// ---------------------------------------------------------------------------------------------
// parameters.aws.signature.credentials (01 §6.2, 02 §10)

export interface AwsCredentials {
  accessKeyId: string;
  secretKey: string;
  serviceName: string;
  regionName: string;
}

const AWS_PATH = 'parameters.aws.signature.credentials';

/** Reads and checks the four keys (user error `Option "<key>" under "…" cannot be empty.`). */
export function awsCredentialsFrom(credentials: Value | undefined): AwsCredentials {
  const get = (key: string): string => {
    const v = member(credentials, key);
    if (isEmpty(v)) throw new UserError(`Option "${key}" under "${AWS_PATH}" cannot be empty.`, { configPath: `${AWS_PATH}.${key}` });
    return textOf(v);
  };
  return { accessKeyId: get('accessKeyId'), secretKey: get('#secretKey'), serviceName: get('serviceName'), regionName: get('regionName') };
}

/** `parameters.aws.signature.credentials`, or `undefined` when PHP-empty (requests are not signed). */
export function awsCredentialsOf(parameters: Value | undefined): AwsCredentials | undefined {
  const credentials = member(member(member(parameters, 'aws'), 'signature'), 'credentials');
  return isEmpty(credentials) ? undefined : awsCredentialsFrom(credentials);
}
