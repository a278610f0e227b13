/**
 * Invalid configurations (spec 01 §2.4, 02 §2–§11, 03 §8, 04 §7): each one fails with its
 * exact one-line message, the config path in the context, no stack trace and nothing written.
 * Configurations that pass validation and fail later (at request building, pagination,
 * placeholders, mappings) run against a local API that answers every request.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { assertFailed, cleanup, runWith, sendJson, startFaultServer, type FaultServer } from './helpers.ts';

let api: FaultServer;
let B = '';

before(async () => {
  api = await startFaultServer((q, res) => {
    if (q.target.startsWith('/two-arrays')) return sendJson(res, 200, { a: [1], b: [2] });
    sendJson(res, 200, [{ id: 1, name: 'a', items: [{ x: 1 }] }]);
  });
  B = `${api.url}/`;
});
after(() => api.close());

type Cfg = Record<string, unknown>;
const J = [{ endpoint: 'users' }];
/** `{parameters: {api, config}}` plus root-level extras. */
const P = (config: unknown, apiSection: unknown = { baseUrl: '$B' }, parameters: Cfg = {}, root: Cfg = {}): Cfg => ({
  ...root,
  parameters: { api: apiSection, config, ...parameters },
});
const A = (extra: Cfg): Cfg => ({ baseUrl: '$B', ...extra });
const OAUTH = (credentials: Cfg): Cfg => ({ authorization: { oauth_api: { credentials } } });
const GOOD_OAUTH = {
  '#data': '{"access_token":"abcd-1234","oauth_token":"tok","oauth_token_secret":"tsec"}',
  appKey: 'client-id',
  '#appSecret': 'app-secret-9876',
};

interface Case {
  name: string;
  config: Cfg;
  message: string;
  /** The config path, `"configPath":"…"` in the ERROR line's context. */
  path: string;
  code?: 1 | 2;
}

const CASES: Case[] = [
  // Group B (01 §2.4): configuration and jobs, validated before any request.
  { name: 'no parameters', config: {}, message: "The 'config' section is required in the configuration.", path: 'parameters.config' },
  {
    name: 'config is an empty object',
    config: P({}),
    message: "The 'config' section is required in the configuration.",
    path: 'parameters.config',
  },
  { name: 'config is "0"', config: P('0'), message: "The 'config' section is required in the configuration.", path: 'parameters.config' },
  {
    name: 'iterations without config',
    config: { parameters: { api: { baseUrl: '$B' }, iterations: [{ jobs: J }] } },
    message: "The 'config' section is required in the configuration.",
    path: 'parameters.config',
  },
  {
    name: 'jobs missing',
    config: P({ debug: true }),
    message: "The 'jobs' section is required in the configuration.",
    path: 'parameters.config.jobs',
  },
  {
    name: 'jobs is a string',
    config: P({ jobs: 'users' }),
    message: "The 'jobs' section is required in the configuration.",
    path: 'parameters.config.jobs',
  },
  {
    name: 'jobs is an empty object',
    config: P({ jobs: {} }),
    message: "The 'jobs' section is required in the configuration.",
    path: 'parameters.config.jobs',
  },
  {
    name: 'jobs is an empty list',
    config: P({ jobs: [] }),
    message: "The 'jobs' section is required in the configuration.",
    path: 'parameters.config.jobs',
  },
  {
    name: 'an iteration replaces jobs with junk',
    config: P({ jobs: J }, undefined, { iterations: [{ outputBucket: 'x' }, { jobs: 5 }] }),
    message: "The 'jobs' section is required in the configuration.",
    path: 'parameters.iterations[1].jobs',
  },
  {
    name: 'a job is a number',
    config: P({ jobs: [123] }),
    message: 'Job configuration must be an array: 123',
    path: 'parameters.config.jobs[0]',
  },
  {
    name: 'a job is a string',
    config: P({ jobs: [{ endpoint: 'a' }, 'abc'] }),
    message: "Job configuration must be an array: 'abc'",
    path: 'parameters.config.jobs[1]',
  },
  {
    name: 'a job is null',
    config: P({ jobs: [null] }),
    message: 'Job configuration must be an array: NULL',
    path: 'parameters.config.jobs[0]',
  },
  {
    name: 'params is a string',
    config: P({ jobs: [{ endpoint: 'a', params: 'x=1' }] }),
    message: "The 'params' property must be an array.",
    path: 'parameters.config.jobs[0].params',
  },
  {
    name: 'params is a number',
    config: P({ jobs: [{ endpoint: 'a', params: 42 }] }),
    message: "The 'params' property must be an array.",
    path: 'parameters.config.jobs[0].params',
  },
  {
    name: 'endpoint missing',
    config: P({ jobs: [{ params: { a: 1 } }] }),
    message: "The 'endpoint' property must be set in job.",
    path: 'parameters.config.jobs[0].endpoint',
  },
  {
    name: 'endpoint null',
    config: P({ jobs: [{ endpoint: null }] }),
    message: "The 'endpoint' property must be set in job.",
    path: 'parameters.config.jobs[0].endpoint',
  },
  {
    name: 'endpoint empty',
    config: P({ jobs: [{ endpoint: '' }] }),
    message: "The 'endpoint' property must be set in job.",
    path: 'parameters.config.jobs[0].endpoint',
  },
  {
    name: 'children is a string',
    config: P({ jobs: [{ endpoint: 'a', children: 'b' }] }),
    message: "The 'children' property must an array of jobs.",
    path: 'parameters.config.jobs[0].children',
  },
  {
    name: 'a child is a number',
    config: P({ jobs: [{ endpoint: 'a', children: [5] }] }),
    message: 'Job configuration must be an array: 5',
    path: 'parameters.config.jobs[0].children[0]',
  },
  {
    name: 'a grandchild has no endpoint',
    config: P({ jobs: [{ endpoint: 'a', children: [{ endpoint: 'b', children: [{ endpoint: '' }] }] }] }),
    message: "The 'endpoint' property must be set in job.",
    path: 'parameters.config.jobs[0].children[0].children[0].endpoint',
  },
  // Group S: SSH and AWS.
  {
    name: 'sshProxy without keys',
    config: P({ jobs: J }, undefined, { sshProxy: { user: 'u' } }),
    message: "Missing parameters 'host,port,#privateKey' in SSH config.",
    path: 'parameters.sshProxy',
  },
  {
    name: 'aws secret key empty',
    config: P({ jobs: J }, undefined, {
      aws: { signature: { credentials: { accessKeyId: 'AKID', '#secretKey': '', serviceName: 's', regionName: 'r' } } },
    }),
    message: 'Option "#secretKey" under "parameters.aws.signature.credentials" cannot be empty.',
    path: 'parameters.aws.signature.credentials.#secretKey',
  },
  {
    name: 'aws region missing',
    config: P({ jobs: J }, undefined, {
      aws: { signature: { credentials: { accessKeyId: 'AKID', '#secretKey': 'k', serviceName: 's' } } },
    }),
    message: 'Option "regionName" under "parameters.aws.signature.credentials" cannot be empty.',
    path: 'parameters.aws.signature.credentials.regionName',
  },
  // Group C: the api section.
  {
    name: 'api missing',
    config: { parameters: { config: { jobs: J } } },
    message: "The 'api' section is required in configuration.",
    path: 'parameters.api',
  },
  { name: 'api null', config: P({ jobs: J }, null), message: "The 'api' section is required in configuration.", path: 'parameters.api' },
  {
    name: 'api empty',
    config: P({ jobs: J }, {}),
    message: "The 'baseUrl' attribute must be set in API configuration",
    path: 'parameters.api.baseUrl',
  },
  {
    name: 'baseUrl with a space',
    config: P({ jobs: J }, { baseUrl: 'http://x.com/a b' }),
    message: "The 'baseUrl' attribute in API configuration is not a valid URL",
    path: 'parameters.api.baseUrl',
  },
  {
    name: 'baseUrl ftp',
    config: P({ jobs: J }, { baseUrl: 'ftp://x.com/' }),
    message: "The 'baseUrl' attribute in API configuration is not a valid URL",
    path: 'parameters.api.baseUrl',
  },
  {
    name: 'baseUrl javascript:',
    config: P({ jobs: J }, { baseUrl: 'javascript:alert(1)' }),
    message: "The 'baseUrl' attribute in API configuration is not a valid URL",
    path: 'parameters.api.baseUrl',
  },
  {
    name: 'baseUrl function gives junk',
    config: P({ jobs: J }, { baseUrl: { function: 'concat', args: ['not', ' a url'] } }),
    message: 'The "baseUrl" attribute in API configuration resulted in an invalid URL (not a url)',
    path: 'parameters.api.baseUrl',
  },
  {
    name: 'baseUrl illegal function',
    config: P({ jobs: J }, { baseUrl: { function: 'system', args: ['id'] } }),
    message: "User script error: Illegal function 'system'!",
    path: 'parameters.api.baseUrl',
  },
  {
    name: 'baseUrl unknown attr',
    config: P({ jobs: J }, { baseUrl: { attr: 'server' } }),
    message: "User script error: Error evaluating user function - attr 'server' not found!",
    path: 'parameters.api.baseUrl',
  },
  {
    name: 'caCertificate number',
    config: P({ jobs: J }, A({ caCertificate: 5 })),
    message: "The 'caCertificate' must be string.",
    path: 'parameters.api.caCertificate',
  },
  {
    name: 'clientCertificate object',
    config: P({ jobs: J }, A({ clientCertificate: { a: 1 } })),
    message: "The 'clientCertificate' must be string.",
    path: 'parameters.api.clientCertificate',
  },
  {
    name: 'required header missing',
    config: P({ jobs: J }, A({ http: { requiredHeaders: ['X-AppKey'] } })),
    message: "Missing required header X-AppKey in 'config.http.headers'.",
    path: 'parameters.config.http.headers.X-AppKey',
  },
  {
    name: 'pages not an int',
    config: P({ jobs: J }, A({ pagination: { method: 'pagenum', pages: 'ten' } })),
    message: 'Value "pages" in "api.pagination" has to be int, string given.',
    path: 'parameters.api.pagination.pages',
  },
  {
    name: 'header value is an object',
    config: P({ jobs: J }, A({ http: { headers: { 'X-A': { nested: 1 } } } })),
    message: 'Invalid configuration: invalid type "object" in headers at path: X-A',
    path: 'parameters.api.http.headers.X-A',
  },
  {
    name: 'header function with unknown attr',
    config: P({ jobs: J }, A({ http: { headers: { 'X-Key': { attr: '#missing' } } } })),
    message: "User script error: Error evaluating user function - attr '#missing' not found!",
    path: 'parameters.api.http.headers.X-Key',
  },
  // Actions other than run are sync actions now (spec 05): tests/actions/.
  // Authentication (02 §2–§10).
  {
    name: 'unknown auth type',
    config: P({ jobs: J }, A({ authentication: { type: 'kerberos' } })),
    message: "Unknown authorization type 'kerberos'.",
    path: 'parameters.api.authentication.type',
  },
  {
    name: 'basic without user',
    config: P({ jobs: J }, A({ authentication: { type: 'basic' } })),
    message: "Missing the required '#username' (or 'username') attribute in config.",
    path: 'parameters.config.#username',
  },
  {
    name: 'basic without password',
    config: P({ jobs: J, username: 'u' }, A({ authentication: { type: 'basic' } })),
    message: "Missing the required '#password' attribute in config.",
    path: 'parameters.config.#password',
  },
  {
    name: 'query auth without query',
    config: P({ jobs: J }, A({ authentication: { type: 'query' } })),
    message: "The query authentication method requires 'query' configuration in 'authentication' section.",
    path: 'parameters.api.authentication.query',
  },
  {
    name: 'login format xml',
    config: P({ jobs: J }, A({ authentication: { type: 'login', format: 'xml', loginRequest: { endpoint: 'l' } } })),
    message: "'format' must be either 'json' or 'text'.",
    path: 'parameters.api.authentication.format',
  },
  {
    name: 'login without loginRequest',
    config: P({ jobs: J }, A({ authentication: { type: 'login' } })),
    message: "'loginRequest' is not configured for Login authentication",
    path: 'parameters.api.authentication.loginRequest',
  },
  {
    name: 'login without endpoint',
    config: P({ jobs: J }, A({ authentication: { type: 'login', loginRequest: { method: 'POST' } } })),
    message: 'Request endpoint must be set for the Login authentication method.',
    path: 'parameters.api.authentication.loginRequest.endpoint',
  },
  {
    name: 'login expires "never"',
    config: P({ jobs: J }, A({ authentication: { type: 'login', loginRequest: { endpoint: 'l' }, expires: 'never' } })),
    message: "The 'expires' attribute must be either an integer or an array with 'response' key containing a path in the response",
    path: 'parameters.api.authentication.expires',
  },
  {
    name: 'login expires 3.5',
    config: P({ jobs: J }, A({ authentication: { type: 'login', loginRequest: { endpoint: 'l' }, expires: 3.5 } })),
    message: "The 'expires' attribute must be either an integer or an array with 'response' key containing a path in the response",
    path: 'parameters.api.authentication.expires',
  },
  {
    name: 'oauth20 without credentials',
    config: P({ jobs: J }, A({ authentication: { type: 'oauth20' } })),
    message: 'OAuth API credentials not supplied in configuration.',
    path: 'authorization.oauth_api.credentials',
  },
  {
    name: 'oauth20 without appKey',
    config: P({ jobs: J }, A({ authentication: { type: 'oauth20' } }), {}, OAUTH({ ...GOOD_OAUTH, appKey: '' })),
    message: "Missing 'appKey' for OAuth 2.0 authorization.",
    path: 'authorization.oauth_api.credentials.appKey',
  },
  {
    name: 'oauth20 unknown format',
    config: P({ jobs: J }, A({ authentication: { type: 'oauth20', format: 'yaml' } }), {}, OAUTH(GOOD_OAUTH)),
    message: "Unknown OAuth data format 'yaml'.",
    path: 'parameters.api.authentication.format',
  },
  {
    name: 'oauth20.login without credentials',
    config: P({ jobs: J }, A({ authentication: { type: 'oauth20.login', loginRequest: { endpoint: 't' } } })),
    message: 'OAuth API credentials not supplied in config',
    path: 'authorization.oauth_api.credentials',
  },
  {
    name: 'oauth20.login #data not JSON',
    config: P(
      { jobs: J },
      A({ authentication: { type: 'oauth20.login', loginRequest: { endpoint: 't' } } }),
      {},
      OAUTH({ ...GOOD_OAUTH, '#data': '{not json' }),
    ),
    message: 'The OAuth data is not a valid JSON',
    path: 'authorization.oauth_api.credentials.#data',
  },
  {
    name: 'oauth10 #data not JSON',
    config: P({ jobs: J }, A({ authentication: { type: 'oauth10' } }), {}, OAUTH({ ...GOOD_OAUTH, '#data': '{not json' })),
    message: 'The OAuth #data is not a valid JSON.',
    path: 'authorization.oauth_api.credentials.#data',
  },
  {
    name: 'oauth10 #data is a list',
    config: P({ jobs: J }, A({ authentication: { type: 'oauth10' } }), {}, OAUTH({ ...GOOD_OAUTH, '#data': '[1,2]' })),
    message: "Key 'oauth_api.credentials'.#data must be object, given 'array'.",
    path: 'authorization.oauth_api.credentials.#data',
  },
  {
    name: 'oauth10 without oauth_token',
    config: P(
      { jobs: J },
      A({ authentication: { type: 'oauth10' } }),
      {},
      OAUTH({ ...GOOD_OAUTH, '#data': '{"oauth_token_secret":"tsec-5678"}' }),
    ),
    message: "Missing 'oauth_api.credentials.#data.oauth_token' for OAuth 1.0 authorization.",
    path: 'authorization.oauth_api.credentials.#data',
  },
  // Allowed hosts (01 §1.12).
  {
    name: 'job outside allowed hosts',
    config: P({ jobs: J }, undefined, {}, { image_parameters: { allowed_hosts: [{ host: 'api.example.com' }] } }),
    message: 'URL "$Busers" is not in the allowed hosts whitelist.',
    path: 'image_parameters.allowed_hosts',
  },
  // Pagination (03 §5).
  {
    name: 'unknown pagination method',
    config: P({ jobs: J }, A({ pagination: { method: 'infinite' } })),
    message: "Unknown pagination method 'infinite'",
    path: 'parameters.api.pagination.method',
  },
  {
    name: 'offset without limit',
    config: P({ jobs: J }, A({ pagination: { method: 'offset' } })),
    message: "Missing 'pagination.limit' attribute required for offset pagination",
    path: 'parameters.api.pagination.limit',
  },
  {
    name: 'offset limit not numeric',
    config: P({ jobs: J }, A({ pagination: { method: 'offset', limit: 'ten' } })),
    message: "Parameter 'pagination.limit' is not numeric. Value '\"ten\"'.",
    path: 'parameters.api.pagination.limit',
  },
  {
    name: 'response.param without responseParam',
    config: P({ jobs: J }, A({ pagination: { method: 'response.param' } })),
    message: "Missing required 'pagination.responseParam' parameter.",
    path: 'parameters.api.pagination.responseParam',
  },
  {
    name: 'response.param without queryParam',
    config: P({ jobs: J }, A({ pagination: { method: 'response.param', responseParam: 'next' } })),
    message: "Missing required 'pagination.queryParam' parameter.",
    path: 'parameters.api.pagination.queryParam',
  },
  {
    name: 'cursor without idKey',
    config: P({ jobs: J }, A({ pagination: { method: 'cursor' } })),
    message: "Missing 'pagination.idKey' attribute required for cursor pagination",
    path: 'parameters.api.pagination.idKey',
  },
  {
    name: 'multiple without scrollers',
    config: P({ jobs: J }, A({ pagination: { method: 'multiple' } })),
    message: 'At least one scroller must be configured for "multiple" scroller.',
    path: 'parameters.api.pagination.scrollers',
  },
  {
    name: 'multiple: unknown default',
    config: P({ jobs: J }, A({ pagination: { method: 'multiple', scrollers: { p: { method: 'pagenum' } }, default: 'zz' } })),
    message: "Default scroller 'zz' does not exist",
    path: 'parameters.api.pagination.default',
  },
  {
    name: 'multiple: job names an unknown scroller',
    config: P(
      { jobs: [{ endpoint: 'users', scroller: 'qq' }] },
      A({ pagination: { method: 'multiple', scrollers: { p: { method: 'pagenum' } } } }),
    ),
    message: "Scroller 'qq' not set in API definitions. Scrollers defined: p",
    path: 'parameters.config.jobs[0].scroller',
  },
  {
    name: 'nextPageFlag without field',
    config: P({ jobs: J }, A({ pagination: { method: 'pagenum', nextPageFlag: { stopOn: true } } })),
    message: "'field' has to be specified for 'nextPageFlag'",
    path: 'parameters.api.pagination.nextPageFlag.field',
  },
  {
    name: 'nextPageFlag stopOn not boolean',
    config: P({ jobs: J }, A({ pagination: { method: 'pagenum', nextPageFlag: { field: 'more', stopOn: 'no' } } })),
    message: "'stopOn' value must be set to a boolean value for 'nextPageFlag', given 'string' type.",
    path: 'parameters.api.pagination.nextPageFlag.stopOn',
  },
  {
    name: 'limitStop with both',
    config: P({ jobs: J }, A({ pagination: { method: 'pagenum', limitStop: { field: 'total', count: 5 } } })),
    message: "Specify only one of 'limitStop.field' or 'limitStop.count'.",
    path: 'parameters.api.pagination.limitStop',
  },
  // Request building (01 §2.4 group D) and responses (03 §3).
  {
    name: 'method DELETE',
    config: P({ jobs: [{ endpoint: 'users', method: 'DELETE' }] }),
    message: 'The "method" property must be on of "GET", "POST", "FORM".',
    path: 'parameters.config.jobs[0].method',
  },
  {
    name: 'job headers a string',
    config: P({ jobs: [{ endpoint: 'users', headers: 'X-A: 1' }] }),
    message: 'The "headers" property must be an array.',
    path: 'parameters.config.jobs[0].headers',
  },
  {
    name: 'dataField.path empty',
    config: P({ jobs: [{ endpoint: 'users', dataField: { path: '' } }] }),
    message: "'dataField.path' must be set!",
    path: 'parameters.config.jobs[0].dataField.path',
  },
  {
    name: 'two arrays and no dataField',
    config: P({ jobs: [{ endpoint: 'two-arrays' }] }),
    message:
      "More than one array found in response! Use 'dataField' parameter to specify a key to the data array. (endpoint: two-arrays, arrays in response root: a, b)",
    path: 'parameters.config.jobs[0].dataField',
  },
  // Children and placeholders (03 §4).
  {
    name: 'recursionFilter without operator',
    config: P({ jobs: [{ endpoint: 'users', children: [{ endpoint: 'u/{id}', placeholders: { id: 'id' }, recursionFilter: 'id' }] }] }),
    message: "Error creating a filter from id: Operator couldn't be determined. Please use one of [==, !=, >=, <=, >, <, ~~, !~, >, <]",
    path: 'parameters.config.jobs[0].children[0].recursionFilter',
  },
  {
    name: 'placeholder level too deep',
    config: P({ jobs: [{ endpoint: 'users', children: [{ endpoint: 'u/{3:id}', placeholders: { '3:id': 'id' } }] }] }),
    message: 'Level 3 not found in parent results! Maximum level: 1',
    path: 'parameters.config.jobs[0].children[0].placeholders.3:id',
  },
  {
    name: 'placeholder path not found',
    config: P({ jobs: [{ endpoint: 'users', children: [{ endpoint: 'u/{uid}', placeholders: { uid: 'user.id' } }] }] }),
    message: 'No value found for uid in parent result. (level: 1)',
    path: 'parameters.config.jobs[0].children[0].placeholders.uid',
  },
  {
    name: 'placeholder object without path',
    config: P({ jobs: [{ endpoint: 'users', children: [{ endpoint: 'u/{id}', placeholders: { id: { function: 'md5' } } }] }] }),
    message: "The path for placeholder 'id' must be a string value or an object containing 'path' and 'function'.",
    path: 'parameters.config.jobs[0].children[0].placeholders.id',
  },
  // Mappings (04 §7).
  {
    name: 'mapping empty',
    config: P({ jobs: J, mappings: { users: {} } }),
    message: "Empty mapping for 'users' data type in 'mappings' config.",
    path: 'parameters.config.mappings.users',
  },
  {
    name: 'mapping is a string',
    config: P({ jobs: J, mappings: { users: 'id' } }),
    message: "Mapping must be 'array' type, 'string' type given, for 'users' data type in 'mappings' config.",
    path: 'parameters.config.mappings.users',
  },
  {
    name: 'mapping column without destination',
    config: P({ jobs: J, mappings: { users: { id: { type: 'column', mapping: {} } } } }),
    message: "Bad Json to CSV Mapping configuration: Key 'mapping.destination' is not set for column 'id'.",
    path: 'parameters.config.mappings.users.id.mapping.destination',
  },
  // Output names (our addition: they become file names in out/tables), before any request.
  {
    name: 'outputBucket escaping out/tables',
    config: P({ outputBucket: '../../etc', jobs: J }),
    message:
      'parameters.config.outputBucket: the bucket "../../etc" contains "/", so its tables cannot be written to out/tables (as <bucket>.<table>). Use "etc" instead (letters, digits, "-" and "_").',
    path: 'parameters.config.outputBucket',
  },
  {
    name: 'outputBucket with a slash',
    config: P({ outputBucket: 'in/c', jobs: J }),
    message:
      'parameters.config.outputBucket: the bucket "in/c" contains "/", so its tables cannot be written to out/tables (as <bucket>.<table>). Use "in_c" instead (letters, digits, "-" and "_").',
    path: 'parameters.config.outputBucket',
  },
  {
    name: 'mapped table name escaping out/tables',
    config: P({
      outputBucket: 'b',
      jobs: J,
      mappings: { users: { id: 'id', items: { type: 'table', destination: '../x', tableMapping: { x: 'x' } } } },
    }),
    message:
      'parameters.config.mappings.users.items.destination: the table name "../x" contains "/", so the table cannot be written to out/tables. Use "x" instead (letters, digits, "-" and "_").',
    path: 'parameters.config.mappings.users.items.destination',
  },
  {
    name: 'outputBucket too long for a file name',
    config: P({ outputBucket: 'b'.repeat(250), jobs: J }),
    message: `parameters.config.outputBucket: the bucket "${'b'.repeat(250)}" is too long for a file name (its manifest's name would be 259 bytes; at most 255), so its tables cannot be written to out/tables (as <bucket>.<table>). Use a shorter name instead (letters, digits, "-" and "_").`,
    path: 'parameters.config.outputBucket',
  },
  {
    name: 'mapped table name too long for a file name',
    config: P({
      outputBucket: 'b',
      jobs: J,
      mappings: { users: { id: 'id', items: { type: 'table', destination: 't'.repeat(250), tableMapping: { x: 'x' } } } },
    }),
    message: `parameters.config.mappings.users.items.destination: the table name "${'t'.repeat(250)}" is too long for a file name (its manifest's name would be 261 bytes; at most 255), so the table cannot be written to out/tables. Use a shorter name instead (letters, digits, "-" and "_").`,
    path: 'parameters.config.mappings.users.items.destination',
  },
  {
    name: 'mapped table name keyed by an endpoint with a slash',
    config: P({ jobs: [{ endpoint: 'v1/things' }], mappings: { 'v1/things': { id: 'id' } } }),
    message:
      'parameters.config.mappings.v1/things: the table name "v1/things" contains "/", so the table cannot be written to out/tables. Key the mapping by "v1_things" instead (letters, digits, "-" and "_") and set "dataType" to the same on the jobs it maps.',
    path: 'parameters.config.mappings.v1/things',
  },
  {
    name: 'outputBucket of an iteration with a slash',
    config: P({ jobs: J }, undefined, { iterations: [{ outputBucket: 'ok' }, { outputBucket: 'a/b' }] }),
    message:
      'parameters.iterations[1].outputBucket: the bucket "a/b" contains "/", so its tables cannot be written to out/tables (as <bucket>.<table>). Use "a_b" instead (letters, digits, "-" and "_").',
    path: 'parameters.iterations[1].outputBucket',
  },
  {
    name: 'outputBucket made of an api name with a slash',
    config: P({ id: 'users', jobs: J }, A({ name: 'my/api' })),
    message:
      'parameters.api.name: the bucket "ex-api-my/api-users" (ex-api-<api.name>-<id>) contains "/", so its tables cannot be written to out/tables (as <bucket>.<table>). Use "my_api" instead (letters, digits, "-" and "_").',
    path: 'parameters.api.name',
  },
  // Wrong shapes of `iterations` (the reference crashes on them): a user error, before any request.
  ...(['x', 5, true] as const).map((value) => ({
    name: `iterations is ${JSON.stringify(value)}`,
    config: P({ jobs: J }, undefined, { iterations: value }),
    message: `The 'iterations' parameter must be a list of objects (one set of configuration attributes per run), ${typeof value === 'number' ? 'integer' : typeof value} given. Fix or remove "parameters.iterations".`,
    path: 'parameters.iterations',
  })),
  // A base URL the URI parser cannot take (the reference: "Unable to parse URI", exit 2).
  {
    name: 'baseUrl with port 99999',
    config: P({ jobs: J }, { baseUrl: 'http://127.0.0.1:99999/api/' }),
    message:
      'The \'baseUrl\' attribute in API configuration is not a valid URL: port 99999 is out of range (1-65535). Fix "parameters.api.baseUrl" (http://127.0.0.1:99999/api/).',
    path: 'parameters.api.baseUrl',
  },
  {
    name: 'baseUrl function giving port 70000',
    config: P({ jobs: J, port: '70000' }, { baseUrl: { function: 'concat', args: ['http://127.0.0.1:', { attr: 'port' }, '/'] } }),
    message:
      'The \'baseUrl\' attribute in API configuration is not a valid URL: port 70000 is out of range (1-65535). Fix "parameters.api.baseUrl" (http://127.0.0.1:70000/).',
    path: 'parameters.api.baseUrl',
  },
  // Application errors (exit 2), still one line with the path and no trace.
  {
    name: 'iteration item not an object',
    config: P({ jobs: J }, undefined, { iterations: [{ id: 'a' }, 7] }),
    message: 'Iteration 1 must be an object.',
    path: 'parameters.iterations[1]',
    code: 2,
  },
  {
    name: 'incrementalOutput "yes"',
    config: P({ jobs: J, incrementalOutput: 'yes' }),
    message: 'incrementalOutput must be a boolean.',
    path: 'parameters.config.incrementalOutput',
    code: 2,
  },
  {
    name: 'cursor increment not an int',
    config: P({ jobs: J }, A({ pagination: { method: 'cursor', idKey: 'id', param: 'since', increment: 'one' } })),
    message: "Option 'parameters.api.pagination.increment' must be an integer, string given.",
    path: 'parameters.api.pagination.increment',
    code: 2,
  },
];

function withBase(v: unknown): unknown {
  return JSON.parse(JSON.stringify(v).replaceAll('$B', B));
}

test(`corpus of ${CASES.length} invalid configurations: exact message, config path, no trace, nothing written`, async () => {
  assert.ok(CASES.length >= 50);
  const names = new Set<string>();
  for (const c of CASES) {
    assert.ok(!names.has(c.name), `duplicate case ${c.name}`);
    names.add(c.name);
    const before = api.requests.length;
    const r = await runWith(withBase(c.config));
    const line = assertFailed(r, c.code ?? 1, c.name);
    const message = c.message.replaceAll('$B', B);
    assert.ok(line.startsWith(`logger.ERROR: ${message} {`), `${c.name}:\n  got      ${line}\n  expected logger.ERROR: ${message} {…`);
    const key = (c.code ?? 1) === 1 ? 'configPath' : '(configPath|path)';
    assert.match(line, new RegExp(`"${key}":${JSON.stringify(c.path).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`), `${c.name}: ${line}`);
    // Group B/S/C checks run before any request.
    if (
      /^(no parameters|config|jobs|a job|params|endpoint|children|a child|a grandchild|sshProxy|aws|api|baseUrl|caCert|clientCert|iteration|outputBucket|mapped table)/.test(
        c.name,
      )
    ) {
      assert.equal(api.requests.length, before, `${c.name}: no request before validation`);
    }
    cleanup(r);
  }
});

test('errors raised while evaluating job params and request endpoints: exit 1, exact message, no trace', async () => {
  // These carry no configPath today (set in src/jobs/, see the reliability report).
  const cases: [Cfg, string][] = [
    [
      P({ jobs: [{ endpoint: 'users', params: { since: { attr: 'nope' } } }] }),
      "User script error: Error evaluating user function - attr 'nope' not found!",
    ],
    [
      P({ jobs: [{ endpoint: 'users', params: { since: { function: 'exec', args: ['ls'] } } }] }),
      "User script error: Illegal function 'exec'!",
    ],
    [P({ jobs: [{ endpoint: 7 }] }), 'The "endpoint" property must be specified in request as a string.'],
  ];
  for (const [config, message] of cases) {
    const r = await runWith(withBase(config));
    const line = assertFailed(r, 1, message);
    assert.ok(line.startsWith(`logger.ERROR: ${message} `), line);
    if (message.includes('Illegal function')) assert.match(line, /"knownFunctions":\["md5",.*"concat"/);
    cleanup(r);
  }
});

test('config.json that is not JSON, or not an object: application errors (exit 2) without a trace', async () => {
  for (const [text, message] of [
    ['{"parameters": ', 'Configuration file is not a valid JSON: Syntax error'],
    ['', 'Configuration file is not a valid JSON: Syntax error'],
    ['\uFEFF{"parameters":{}}', 'Configuration file is not a valid JSON: Syntax error'],
    ['['.repeat(600) + ']'.repeat(600), 'Configuration file is not a valid JSON: Maximum stack depth exceeded'],
  ] as const) {
    const r = await runWith(text);
    const line = assertFailed(r, 2, message);
    assert.ok(line.startsWith(`logger.ERROR: ${message}`), line);
    cleanup(r);
  }
});

test('hostile in/state.json: a warning and an empty state, or a clean error — never a trace', async () => {
  const cases: [string, 0 | 1 | 2, string][] = [
    [
      '['.repeat(10_000) + ']'.repeat(10_000),
      0,
      'logger.WARNING: State file not found Configuration file is not a valid JSON: Maximum stack depth exceeded',
    ],
    ['{"time":', 0, 'logger.WARNING: State file not found Configuration file is not a valid JSON: Syntax error'],
    ['\uFEFF{}', 0, 'logger.WARNING: State file not found Configuration file is not a valid JSON: Syntax error'],
    ['{"time":"x","json_parser.struct":"x","json_parser.structVersion":3}', 0, ''],
    ['null', 2, "logger.ERROR: State file '$DIR/in/state.json' must contain a JSON object."],
    [
      '{"json_parser.struct":{"data":{"_users":{"id":"object"}}},"json_parser.structVersion":3}',
      1,
      "logger.ERROR: Invalid JSON parser structure in the state: unknown attribute 'id' of node 'users'.",
    ],
  ];
  for (const [state, code, expected] of cases) {
    const r = await runWith(withBase(P({ outputBucket: 'b', jobs: J })), { state });
    const what = `state ${state.slice(0, 40)}`;
    if (code === 0) {
      assert.equal(r.code, 0, what);
      if (expected)
        assert.ok(
          r.lines.some((l) => l.includes(expected)),
          what,
        );
    } else {
      const line = assertFailed(r, code, what);
      assert.ok(line.startsWith(expected.replace('$DIR', r.dir)), `${what}: ${line}`);
    }
    cleanup(r);
  }
});
