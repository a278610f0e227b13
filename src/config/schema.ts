/**
 * The JSON Schema of the configuration: the one source for validation (ajv, validate.ts), the
 * pre-flight warnings (preflight.ts), the component descriptor (component.json), the editor
 * schema (schema/config.schema.json) and the documentation.
 *
 * The reference accepts almost anything (it ignores its own schema) and rejects only the cases
 * of spec 01 §2.4. Those hard checks are the `allOf` entries carrying `x-error` (the message,
 * byte-exact, typos included); the run-time validator compiles only them (`runtimeSchema` in
 * schemaParts.ts), so a configuration that works there works here. Everything else — types,
 * enums, closed key sets — documents the intended shape: editors flag deviations, and the
 * pre-flight checks report them as WARNINGs (errors with --strict).
 */
import { authentication } from './schemaAuth.ts';
import { job } from './schemaJob.ts';
import { pagination } from './schemaPagination.ts';
import { functionValue, headerMap, MAP, misplaced, phpEmpty, runtimeSchema, type SchemaNode } from './schemaParts.ts';

/** A number written as text ("30", " 1.5e2"), as PHP reads it. */
const NUMERIC_TEXT = '^\\s*[+-]?(\\d+\\.?\\d*|\\.\\d+)([eE][+-]?\\d+)?\\s*$';

const httpStatusList: SchemaNode = { type: 'array', items: { type: 'integer', minimum: 100, maximum: 599 } };

const retryConfig: SchemaNode = {
  type: 'object',
  description: 'Retries of failed requests (used when a non-empty object). Waits follow the retry header, else 1 s, 2 s, 4 s, …',
  properties: {
    maxRetries: {
      type: 'integer',
      minimum: 0,
      default: 10,
      description: 'Retries after the first attempt.',
      examples: [3],
      'x-hint': 'The reference reads it as an integer: text such as "three" counts as 0, so no request is retried. Write a number, e.g. 3.',
    },
    http: {
      type: 'object',
      description: 'Which HTTP responses are retried.',
      properties: {
        retryHeader: {
          type: 'string',
          default: 'Retry-After',
          description: 'Header with the wait (seconds, timestamp or date).',
          examples: ['X-RateLimit-Reset'],
        },
        codes: {
          ...httpStatusList,
          default: [500, 502, 503, 504, 408, 420, 429],
          description: 'Status codes retried (JSON integers).',
          examples: [[429, 503]],
          items: {
            type: 'integer',
            minimum: 100,
            maximum: 599,
            'x-hint': 'Codes are compared exactly: "503" as a string never matches a status. Write numbers: [429, 503].',
          },
        },
        maxRetries: misplaced(
          "parameters.api.retryConfig.maxRetries (at the root of retryConfig; the reference's documentation nests it wrongly)",
        ),
      },
      additionalProperties: false,
    },
    curl: {
      type: 'object',
      description: 'Which network errors are retried.',
      properties: {
        codes: {
          type: 'array',
          items: { type: 'integer' },
          default: [28, 6, 7, 35, 52, 56],
          description: 'curl error numbers retried (28 timeout, 6 DNS, 7 connect, 35 TLS, 52 empty reply, 56 receive).',
        },
      },
      additionalProperties: false,
    },
    headerName: { type: 'string', description: 'Legacy: http.retryHeader.', examples: ['Retry-After'] },
    httpCodes: { ...httpStatusList, description: 'Legacy: http.codes.', examples: [[503]] },
    curlCodes: { type: 'array', items: { type: 'integer' }, description: 'Legacy: curl.codes.', examples: [[7, 28]] },
    codes: misplaced('parameters.api.retryConfig.http.codes (or curl.codes for network errors)'),
    retryHeader: misplaced('parameters.api.retryConfig.http.retryHeader'),
  },
  additionalProperties: false,
  examples: [{ maxRetries: 3, http: { codes: [429, 503] } }],
};

const apiHttp: SchemaNode = {
  type: 'object',
  description: 'HTTP settings of every request.',
  properties: {
    headers: headerMap('Headers of every request (login included). config.http.headers override them.', { Accept: 'application/json' }),
    requiredHeaders: {
      type: 'array',
      items: { type: 'string' },
      description: 'Header names that config.http.headers must give a value.',
      examples: [['X-AppKey']],
    },
    defaultOptions: {
      type: 'object',
      description: 'Merged under every job request (recursively, lists by index); values are not evaluated as functions.',
      properties: {
        params: { ...MAP, description: 'Parameters of every job request.', additionalProperties: true, examples: [{ account: 123 }] },
        headers: headerMap('Headers of every job request (override client headers).', { 'X-Trace': 'on' }),
      },
      additionalProperties: true,
      examples: [{ params: { account: 123 } }],
    },
    ignoreErrors: {
      type: 'array',
      items: { type: ['integer', 'string'] },
      description: 'Error statuses treated as data (a WARNING each; a non-JSON body becomes {"errorData": …}).',
      default: [],
      examples: [[404]],
    },
    connectTimeout: {
      type: ['number', 'string'],
      // Text is read as a number (PHP); what is not a number, 0 or less, falls back to the default.
      pattern: NUMERIC_TEXT,
      minimum: 0,
      // The longest timer (2^31-1 ms); more is a user error before any request (api.ts).
      maximum: 2147483,
      default: 30,
      description: 'Seconds to connect (0, empty or not a number: the default).',
      'x-hint': 'Zero, a negative number or text that is not a number means the default of 30 seconds. Write a number of seconds, e.g. 10.',
      examples: [10],
    },
    requestTimeout: {
      type: ['number', 'string'],
      // Text is read as a number (PHP); what is not a number, 0 or less, falls back to the default.
      pattern: NUMERIC_TEXT,
      minimum: 0,
      // The longest timer (2^31-1 ms); more is a user error before any request (api.ts).
      maximum: 2147483,
      default: 300,
      description: 'Seconds for a whole request (0, empty or not a number: the default).',
      'x-hint':
        'Zero, a negative number or text that is not a number means the default of 300 seconds. Write a number of seconds, e.g. 60.',
      examples: [60],
    },
    concurrency: {
      type: 'integer',
      minimum: 1,
      default: 10,
      description:
        'Requests on the wire at once per host (env EX_GENERIC_CONCURRENCY wins; 1 = strictly sequential; the output is the same for any value).',
      examples: [1],
    },
    rateLimit: {
      type: 'object',
      description:
        "Request budget per host (scheme, host, port), honoured by every request: pages, child jobs, logins, retries. Without it, requests are still paced by the API's RateLimit-*/X-RateLimit-* headers and Retry-After, and a 429 halves the requests on the wire for that host (growing back by one per round of successful answers).",
      properties: {
        requestsPerSecond: {
          type: 'number',
          exclusiveMinimum: 0,
          description: 'Most requests to one host in any 1-second window (fractions allowed).',
          examples: [10],
        },
        requestsPerMinute: {
          type: 'number',
          exclusiveMinimum: 0,
          description: 'Most requests to one host in any 60-second window.',
          examples: [600],
        },
        followHeaders: {
          type: 'boolean',
          default: true,
          description: "Also pace by the API's rate-limit headers and Retry-After.",
          examples: [false],
        },
      },
      additionalProperties: false,
      examples: [{ requestsPerSecond: 10 }, { requestsPerMinute: 600, followHeaders: false }],
    },
  },
  additionalProperties: false,
};

const apiSection = {
  description: 'How to talk to the API.',
  type: 'object',
  properties: {
    baseUrl: {
      type: ['string', 'object'],
      description:
        'Base URL of every endpoint (http or https; end it with "/" so endpoints are appended), or a user function that returns one.',
      examples: ['https://api.example.com/v1/', { function: 'concat', args: ['https://', { attr: 'domain' }, '/v1/'] }],
    },
    name: {
      type: 'string',
      default: 'generic',
      description: 'API name used in the default bucket name ex-api-<name>-<config.id>.',
      examples: ['crm'],
    },
    caCertificate: {
      type: ['string', 'null'],
      'x-error': "The 'caCertificate' must be string.",
      description: 'PEM CA bundle trusted instead of the system CAs.',
      examples: ['-----BEGIN CERTIFICATE-----\nMIIB…\n-----END CERTIFICATE-----\n'],
    },
    clientCertificate: {
      type: ['string', 'null'],
      'x-error': "The 'clientCertificate' must be string.",
      description: 'Not used: see #clientCertificate.',
      examples: [null],
    },
    '#clientCertificate': {
      type: 'string',
      description: 'PEM client certificate followed by its private key (mutual TLS).',
      examples: [
        '-----BEGIN CERTIFICATE-----\nMIIB…\n-----END CERTIFICATE-----\n-----BEGIN PRIVATE KEY-----\nMIIE…\n-----END PRIVATE KEY-----\n',
      ],
    },
    retryConfig,
    http: apiHttp,
    authentication: { $ref: '#/definitions/authentication' },
    pagination: { $ref: '#/definitions/pagination' },
    credentialOrigins: {
      type: 'array',
      items: { type: 'string', pattern: '^[Hh][Tt][Tt][Pp][Ss]?://' },
      description:
        'Origins (scheme://host[:port]) that may receive credentials besides those of baseUrl, the login endpoint and job endpoints written as absolute URLs. Credentials — authentication, Authorization/Cookie headers, headers and query values holding a # value or a login token — are withheld from any other origin a redirect or next-page link leads to, with one WARNING. image_parameters.allowed_hosts entries count too.',
      examples: [['https://eu.api.example.com', 'https://files.example.com:8443']],
    },
    query: {
      ...MAP,
      description: "Legacy: use authentication type 'query'.",
      additionalProperties: { description: functionValue },
      examples: [{ apikey: { attr: '#apiKey' } }],
    },
    headers: misplaced('parameters.api.http.headers'),
    ignoreErrors: misplaced('parameters.api.http.ignoreErrors'),
    defaultOptions: misplaced('parameters.api.http.defaultOptions'),
    maxRetries: misplaced('parameters.api.retryConfig.maxRetries'),
    jobs: misplaced('parameters.config.jobs'),
  },
  additionalProperties: false,
} as const satisfies SchemaNode;

/** Keys of `parameters.config` the extractor reads; every other key is a free attribute for {"attr": …}. */
const configAttributes: Record<string, SchemaNode> = {
  outputBucket: { type: 'string', description: 'Output bucket; tables go to in.c-<outputBucket>.<table>.', examples: ['my-api'] },
  id: { type: 'string', description: 'Used for the bucket name ex-api-<api.name>-<id> when outputBucket is empty.', examples: ['users'] },
  debug: { type: 'boolean', default: false, description: 'Log every HTTP request (secrets hidden).', examples: [true] },
  incrementalOutput: {
    type: ['boolean', 'null'],
    default: false,
    description:
      'Load the tables incrementally (manifest "incremental"). Must be a JSON boolean; set a primary key (mappings) so rows are updated, not appended.',
    examples: [true],
  },
  http: {
    type: 'object',
    description: 'Headers of every request; they override api.http.headers.',
    properties: { headers: headerMap('Header name → value.', { 'X-AppKey': { attr: '#appKey' } }) },
    additionalProperties: false,
  },
  mappings: {
    ...MAP,
    description: 'User-defined mappings: dataType → {record path → column or table definition}.',
    additionalProperties: { $ref: '#/definitions/mapping' },
    examples: [{ users: { id: { type: 'column', mapping: { destination: 'id', primaryKey: true } }, name: 'name' } }],
  },
  userData: {
    type: ['object', 'string', 'number', 'boolean'],
    description: 'Extra columns for the rows of root jobs. Values may be user functions.',
    examples: [{ source: 'api' }],
  },
  compatLevel: { type: 'integer', default: 3, description: 'Parser compatibility level (1 = legacy parser).', examples: [1] },
  username: { type: 'string', description: "Basic authentication: user name (or '#username').", examples: ['john.doe'] },
  '#username': { type: 'string', description: 'Basic authentication: user name, encrypted.', examples: ['john.doe'] },
  password: { type: 'string', description: "Basic authentication: password (or '#password').", examples: ['s3cret'] },
  '#password': { type: 'string', description: 'Basic authentication: password, encrypted.', examples: ['s3cret'] },
  baseUrl: misplaced('parameters.api.baseUrl'),
  pagination: misplaced('parameters.api.pagination'),
  authentication: misplaced('parameters.api.authentication'),
  retryConfig: misplaced('parameters.api.retryConfig'),
  headers: misplaced('parameters.config.http.headers'),
  endpoint: misplaced('a job: parameters.config.jobs[].endpoint'),
  params: misplaced('a job: parameters.config.jobs[].params'),
  dataField: misplaced('a job: parameters.config.jobs[].dataField'),
  children: misplaced('a job: parameters.config.jobs[].children'),
};

const configSection = {
  description: 'What to extract: jobs and output settings. Any other key is an attribute that user functions read with {"attr": "key"}.',
  type: 'object',
  allOf: [
    { not: phpEmpty, 'x-error': "The 'config' section is required in the configuration." },
    {
      required: ['jobs'],
      'x-error': "The 'jobs' section is required in the configuration.",
      properties: {
        jobs: {
          description: 'The jobs, run in order.',
          allOf: [
            { type: ['array', 'object'], not: phpEmpty, 'x-error': "The 'jobs' section is required in the configuration." },
            { 'x-check': true, items: { $ref: '#/definitions/job' }, additionalProperties: { $ref: '#/definitions/job' } },
          ],
        },
      },
    },
  ],
  properties: {
    jobs: {
      type: 'array',
      minItems: 1,
      items: { $ref: '#/definitions/job' },
      description: 'The jobs, run in order.',
      examples: [[{ endpoint: 'users' }]],
    },
    ...configAttributes,
  },
  additionalProperties: true,
} as const satisfies SchemaNode;

const mappingColumn: SchemaNode = {
  type: ['string', 'object'],
  description:
    'A column ("name" or {"type": "column", "mapping": {"destination": …, "primaryKey": …}}), a user column ({"type": "user", …}) or a nested table ({"type": "table", "destination": …, "tableMapping": {…}}).',
  properties: {
    type: { type: 'string', enum: ['column', 'user', 'table'], default: 'column', description: 'Kind of definition.' },
    mapping: {
      type: 'object',
      description: 'type column or user: the column the value goes to.',
      properties: {
        destination: { type: 'string', description: 'Column name.', examples: ['customer_id'] },
        primaryKey: { type: 'boolean', default: false, description: 'Part of the primary key (manifest primary_key).', examples: [true] },
      },
      additionalProperties: false,
      examples: [{ destination: 'id', primaryKey: true }],
    },
    forceType: {
      type: 'boolean',
      default: false,
      description: 'Keep the value as JSON text (at this level, not inside mapping).',
      examples: [true],
    },
    delimiter: { type: 'string', default: '.', description: 'Path delimiter of the key.', examples: ['/'] },
    destination: { type: 'string', description: 'type table: the table name.', examples: ['orders'] },
    tableMapping: {
      type: 'object',
      description: 'type table: the mapping of the nested table (record path → column definition).',
      additionalProperties: { $ref: '#/definitions/mappingColumn' },
      examples: [{ id: 'order_id', total: 'total' }],
    },
    parentKey: {
      type: 'object',
      description: 'type table: the link column to the parent row (by default a hash named after the parent).',
      properties: {
        destination: { type: 'string', description: 'Name of the link column.', examples: ['customer_id'] },
        primaryKey: { type: 'boolean', default: false, description: 'The link column is part of the primary key.' },
        disable: { type: 'boolean', default: false, description: 'No link column.' },
      },
      additionalProperties: false,
      examples: [{ destination: 'customer_id' }],
    },
  },
  additionalProperties: false,
  examples: ['user_name', { type: 'column', mapping: { destination: 'id', primaryKey: true } }],
};

export const configSchema = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  $id: 'https://keboola.com/schemas/ex-generic-ts/config.json',
  title: 'Generic extractor configuration',
  description:
    'config.json of the Generic Extractor (TypeScript). Unknown keys are flagged; the extractor runs on with a WARNING naming them (an error with --strict).',
  type: 'object',
  definitions: {
    job,
    pagination,
    authentication,
    mapping: {
      type: 'object',
      description: 'Record path → column or table definition.',
      additionalProperties: { $ref: '#/definitions/mappingColumn' },
    },
    mappingColumn,
  },
  properties: {
    parameters: {
      type: 'object',
      description: 'The extractor configuration.',
      properties: {
        api: apiSection,
        config: configSection,
        iterations: {
          type: 'array',
          items: {
            type: 'object',
            description: 'Keys replacing the same top-level keys of config for this run.',
            // An item's jobs replace config.jobs: checked as jobs are.
            properties: { jobs: configSection.properties.jobs, ...configAttributes },
            additionalProperties: true,
          },
          description: 'Run the whole configuration once per item; each item replaces top-level keys of config (shallowly).',
          examples: [
            [
              { userData: { region: 'eu' }, region: 'eu' },
              { userData: { region: 'us' }, region: 'us' },
            ],
          ],
        },
        sshProxy: {
          type: 'object',
          description: 'Send all requests through an SSH tunnel.',
          properties: {
            host: { type: 'string', description: 'SSH server.', examples: ['bastion.example.com'] },
            port: { type: ['integer', 'string'], description: 'SSH port.', examples: [22] },
            user: { type: 'string', description: 'SSH user.', examples: ['tunnel'] },
            '#privateKey': {
              type: 'string',
              description: 'Unencrypted private key (PEM/OpenSSH).',
              examples: ['-----BEGIN OPENSSH PRIVATE KEY-----\n…'],
            },
          },
          required: ['host', 'port', 'user', '#privateKey'],
          additionalProperties: false,
          examples: [{ host: 'bastion.example.com', port: 22, user: 'tunnel', '#privateKey': '-----BEGIN OPENSSH PRIVATE KEY-----\n…' }],
        },
        aws: {
          type: 'object',
          description: 'AWS Signature V4 signing of every request.',
          examples: [
            {
              signature: {
                credentials: { accessKeyId: 'AKIA…', '#secretKey': '…', serviceName: 'execute-api', regionName: 'eu-central-1' },
              },
            },
          ],
          properties: {
            signature: {
              type: 'object',
              description: 'Signature V4 settings.',
              properties: {
                credentials: {
                  type: 'object',
                  description: 'The AWS credentials and scope; every key must be non-empty.',
                  properties: {
                    accessKeyId: { type: 'string', description: 'Access key id.', examples: ['AKIAIOSFODNN7EXAMPLE'] },
                    '#secretKey': {
                      type: 'string',
                      description: 'Secret access key.',
                      examples: ['wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY'],
                    },
                    serviceName: { type: 'string', description: 'Service of the signature scope.', examples: ['execute-api'] },
                    regionName: { type: 'string', description: 'Region of the signature scope.', examples: ['eu-central-1'] },
                  },
                  additionalProperties: false,
                },
              },
              additionalProperties: false,
            },
          },
          additionalProperties: false,
        },
        jobs: misplaced('parameters.config.jobs'),
        outputBucket: misplaced('parameters.config.outputBucket'),
        incrementalOutput: misplaced('parameters.config.incrementalOutput'),
        debug: misplaced('parameters.config.debug'),
        mappings: misplaced('parameters.config.mappings'),
        baseUrl: misplaced('parameters.api.baseUrl'),
        pagination: misplaced('parameters.api.pagination'),
        authentication: misplaced('parameters.api.authentication'),
        http: misplaced('parameters.api.http (or parameters.config.http for headers)'),
        cache: {
          type: ['boolean', 'object'],
          description: 'Response cache for GET requests (accepted; see README).',
          properties: {
            ttl: { type: 'integer', default: 604800, description: 'Seconds a cached response stays fresh.', examples: [3600] },
          },
          examples: [true, { ttl: 3600 }],
        },
      },
      patternProperties: {
        '^__': {
          description:
            'Keys of the platform UI builder read by the sync actions (__SELECTED_JOB, __CURL_COMMAND, __FUNCTION_CFG, …; README "Sync actions"); an extraction ignores them.',
        },
      },
      additionalProperties: false,
    },
    authorization: {
      type: 'object',
      description: 'OAuth credentials injected by the platform (authorization.oauth_api.credentials: #data, appKey, #appSecret).',
      examples: [{ oauth_api: { credentials: { '#data': '{"access_token":"…"}', appKey: 'client-id', '#appSecret': 'client-secret' } } }],
    },
    action: {
      type: 'string',
      default: 'run',
      description:
        'Platform action: "run" extracts; test_request, infer_mapping, load_from_curl and perform_function are the UI builder\'s sync actions (README "Sync actions"; any other value: exit 2).',
    },
    image_parameters: {
      type: 'object',
      description: 'Component-wide settings injected by the platform (allowed_hosts).',
      examples: [{ allowed_hosts: [{ host: 'api.example.com', scheme: 'https' }] }],
    },
    storage: { type: 'object', description: 'Input/output mapping of the platform; ignored.', examples: [{ input: {}, output: {} }] },
    $schema: {
      type: 'string',
      description: 'The editor schema this file follows (schema/config.schema.json); ignored by the extractor.',
      examples: ['./schema/config.schema.json'],
    },
    sshProxy: misplaced('parameters.sshProxy'),
    api: misplaced('parameters.api'),
    config: misplaced('parameters.config'),
  },
  additionalProperties: true,
} as const satisfies SchemaNode;

/** The schema the run-time validator compiles: the hard checks only. */
export const runtimeConfigSchema = runtimeSchema(configSchema);

/** The sub-schemas validated at the lifecycle steps where the reference checks them. */
export const CONFIG_SECTION_POINTER = '#/properties/parameters/properties/config';
export const API_SECTION_POINTER = '#/properties/parameters/properties/api';
