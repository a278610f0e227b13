/**
 * The options `login` and `oauth20.login` share (spec 02 §6): the login request, how its
 * response is read and used, and when it expires. Their schema nodes and their parser, with the
 * reference's constructor checks in its order.
 */
import { UserError } from '../errors/UserError.ts';
import { phpIntval } from '../php/intval.ts';
import { INT64_MAX, INT64_MIN, isNumeric } from '../php/isNumeric.ts';
import { phpString } from '../php/stringConversion.ts';
import { isEmpty, isMap, member, PhpFloat, truthy, type Value } from '../php/value.ts';
import { functionValue, headerMap, MAP, type SchemaNode } from '../spec/schemaNode.ts';
import { AUTH_PATH } from './common.ts';

export const LOGIN_PATH = `${AUTH_PATH}.loginRequest`;

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

/** How a login (apiRequest) value is read: plain text naming a path of the login response takes its value. */
const LOGIN_VALUE =
  'A path of the login response ("token", "data.token") is replaced by the value there; {"response": "path"} and user functions read it too; other text is sent as written.';

const format = {
  type: 'string',
  enum: ['json', 'text'],
  default: 'json',
  description: 'How to read the login response: JSON, or text (the body as {"data": …}).',
} as const satisfies SchemaNode;

export const loginOptionNodes: Record<string, SchemaNode> = {
  loginRequest: {
    type: 'object',
    description:
      'The login request: a job-like description (endpoint, method, params, headers), sent before the first API request and again when the login expires.',
    properties: {
      endpoint: { type: 'string', description: 'Required. Resolved against api.baseUrl like a job endpoint.', examples: ['auth/login'] },
      method: {
        type: 'string',
        pattern: '^([Gg][Ee][Tt]|[Pp][Oo][Ss][Tt]|[Ff][Oo][Rr][Mm])$',
        default: 'GET',
        description: 'GET, POST (JSON body) or FORM.',
      },
      params: {
        ...MAP,
        description: `Parameters. ${functionValue}`,
        additionalProperties: { description: functionValue },
        examples: [{ user: { attr: 'username' }, password: { attr: '#password' } }],
      },
      headers: headerMap('Headers of the login request.', { Accept: 'application/json' }),
    },
    required: ['endpoint'],
    additionalProperties: false,
    examples: [{ endpoint: 'auth/login', method: 'POST', params: { user: { attr: 'username' }, password: { attr: '#password' } } }],
  },
  format,
  apiRequest: {
    type: 'object',
    description: 'How the login response is used on API requests: {"response": "path"} reads it.',
    properties: {
      headers: headerMap(`Headers for API requests. ${LOGIN_VALUE}`, {
        Authorization: { function: 'concat', args: ['Bearer ', { response: 'access_token' }] },
      }),
      query: {
        ...MAP,
        description: `Query parameters added to API requests. ${LOGIN_VALUE}`,
        additionalProperties: { description: functionValue },
        examples: [{ token: 'access_token' }],
      },
    },
    additionalProperties: false,
    examples: [{ headers: { Authorization: { function: 'concat', args: ['Bearer ', { response: 'access_token' }] } } }],
  },
  expires: {
    type: ['integer', 'string', 'object'],
    minimum: 0,
    description:
      'When to log in again: seconds after the login, or {"response": "path", "relative": true|false} read from the login response. Never by default.',
    properties: {
      response: { type: 'string', description: 'Path of the expiry in the login response.', examples: ['expires_in'] },
      relative: { type: 'boolean', default: false, description: 'The value is seconds from now (else a timestamp or date).' },
    },
    additionalProperties: false,
    examples: [3600, { response: 'expires_in', relative: true }],
  },
};

/** PHP `filter_var($v, FILTER_VALIDATE_INT) !== false`. */
function isFilterValidInt(v: Value | undefined): boolean {
  if (typeof v === 'number' || typeof v === 'bigint' || v === true) return true;
  let text: string;
  if (v instanceof PhpFloat) text = phpString(v);
  else if (typeof v === 'string') text = v;
  else return false;
  const m = /^[ \t\r\n\v\0]*([+-]?)(0|[1-9][0-9]*)[ \t\r\n\v\0]*$/.exec(text);
  if (!m) return false;
  const n = BigInt(m[1] + m[2]!);
  return n >= INT64_MIN && n <= INT64_MAX;
}

/**
 * `expires` as the reference uses it after a login (02 §6.8). The check before (filter_var) and
 * the use after (is_numeric) differ: `"5 "` passes the check but is not numeric, so such a login
 * never expires; `true` passes too and never expires. A numeric value is cast with PHP `(int)`.
 * `relative` is PHP truthiness, not the node's plain default: `"1"` counts as true.
 */
function expiryOf(expires: Value | undefined): LoginExpiry {
  if (expires === undefined || expires === null) return { kind: 'never' };
  if (isNumeric(expires)) return { kind: 'seconds', seconds: phpIntval(expires) };
  if (!isMap(expires) || isEmpty(member(expires, 'response'))) return { kind: 'never' };
  return { kind: 'response', path: phpString(member(expires, 'response')!), relative: truthy(member(expires, 'relative')) };
}

/** The constructor checks of `login` (and first checks of `oauth20.login`), in the reference's order. */
export function parseLoginOptions(auth: Value | undefined): LoginOptions {
  const chosenFormat = member(auth, 'format');
  if (!isEmpty(chosenFormat) && chosenFormat !== 'json' && chosenFormat !== 'text') {
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
      // An object without a usable `response`: that member is the one to fix.
      { configPath: isMap(expires) ? `${AUTH_PATH}.expires.response` : `${AUTH_PATH}.expires` },
    );
  }
  const apiRequest = member(auth, 'apiRequest');
  return {
    // Past the check, the format is json, text or PHP-empty: the default.
    format: chosenFormat === 'json' || chosenFormat === 'text' ? chosenFormat : format.default,
    // The method's default (GET) is the job request's own, applied when the request is built.
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
