/**
 * The schema of `api.authentication`: one variant per type (`x-discriminator: type`).
 * tests/config/schema.test.ts checks that the variants are exactly the registered types
 * (src/auth/*.ts).
 */
import { functionValue, headerMap, MAP, misplaced, type SchemaNode } from '../spec/schemaNode.ts';

function variant(type: string, description: string, options: Record<string, SchemaNode> = {}, required: string[] = []): SchemaNode {
  return {
    description,
    properties: { type: { const: type }, ...options },
    required: ['type', ...required],
    additionalProperties: false,
  };
}

const queryMap: SchemaNode = {
  ...MAP,
  description: `Query parameter name → value. ${functionValue} Evaluated for every request; {"query": name} and {"request": "path"} read the request.`,
  additionalProperties: { description: functionValue },
  examples: [{ apiKey: { attr: '#apiKey' } }],
};

/** How a login (apiRequest) value is read: plain text naming a path of the login response takes its value. */
const LOGIN_VALUE =
  'A path of the login response ("token", "data.token") is replaced by the value there; {"response": "path"} and user functions read it too; other text is sent as written.';

const loginOptions: Record<string, SchemaNode> = {
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
  format: {
    type: 'string',
    enum: ['json', 'text'],
    default: 'json',
    description: 'How to read the login response: JSON, or text (the body as {"data": …}).',
  },
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

export const authentication = {
  type: 'object',
  description: 'How requests are authenticated. Credentials live in config attributes (e.g. #password) or in the OAuth authorization.',
  'x-discriminator': 'type',
  oneOf: [
    variant('basic', "HTTP Basic: 'Authorization: Basic …' from the config attributes username/#username and password/#password.", {
      username: misplaced('parameters.config.username'),
      '#username': misplaced('parameters.config.#username'),
      password: misplaced('parameters.config.password'),
      '#password': misplaced('parameters.config.#password'),
    }),
    variant('query', 'Query parameters added to every request (e.g. an API key).', { query: queryMap }, ['query']),
    variant('url.query', "Deprecated name of 'query'.", { query: queryMap }),
    variant('login', 'A login request whose response supplies headers or query parameters of the API requests.', loginOptions, [
      'loginRequest',
    ]),
    variant(
      'oauth20.login',
      'Like login, with the OAuth client ({"consumer": "client_id"}) and stored tokens ({"user": "refresh_token"}) for the login request.',
      loginOptions,
      ['loginRequest'],
    ),
    variant(
      'oauth20',
      'OAuth 2.0 with the stored token of the OAuth authorization: headers/query from {"authorization": "data.access_token"}.',
      {
        format: {
          type: 'string',
          enum: ['json', 'text'],
          default: 'text',
          description: 'json: #data is parsed and its members read as data.<path>; text: #data is the token.',
        },
        headers: headerMap('Headers for API requests.', {
          Authorization: { function: 'concat', args: ['Bearer ', { authorization: 'data.access_token' }] },
        }),
        query: queryMap,
      },
    ),
    variant('oauth10', 'OAuth 1.0a (HMAC-SHA1 Authorization header) with the tokens of the OAuth authorization.'),
  ],
  examples: [{ type: 'basic' }, { type: 'query', query: { apikey: { attr: '#token' } } }],
} satisfies SchemaNode;
