/**
 * The JSON Schema of the configuration: the one source for validation (ajv, validate.ts), the
 * pre-flight warnings (preflight.ts), the editor schema (schema/config.schema.json) and the
 * documentation.
 *
 * The reference accepts almost anything (it ignores its own schema) and rejects only the cases
 * of spec 01 §2.4. Those hard checks are the `allOf` entries carrying `x-error` (the message,
 * byte-exact, typos included); the run-time validator compiles only them (`runtimeSchema` in
 * schemaParts.ts), so a configuration that works there works here. Everything else — types,
 * enums, closed key sets — documents the intended shape: editors flag deviations, and the
 * pre-flight checks report them as WARNINGs (errors with --strict).
 */
import { truthy, type Value } from '../php/value.ts';
import { authentication } from './schemaAuth.ts';
import { job } from './schemaJob.ts';
import { apiHttp, retryConfig } from './schemaHttp.ts';
import { pagination } from './schemaPagination.ts';
import { functionValue, headerMap, MAP, misplaced, phpEmpty, type SchemaNode } from '../spec/schemaNode.ts';

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
    // A truthy non-boolean is the reference's type error when the manifests are written (01 §1.4).
    'x-stops': (v) => truthy(v as Value),
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
  compatLevel: {
    type: 'integer',
    // Levels below 1 read as the legacy parser (1): worth a WARNING, not a failure.
    minimum: 1,
    default: 3,
    description: 'Parser compatibility level (1 = legacy parser).',
    examples: [1],
  },
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
            // An item of another type is the reference's type error (01 §2.3).
            'x-stops': (v) => v !== null,
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
          description: 'Response cache for GET requests: accepted and ignored.',
          properties: {
            ttl: { type: 'integer', default: 604800, description: 'Seconds a cached response stays fresh.', examples: [3600] },
          },
          examples: [true, { ttl: 3600 }],
        },
      },
      patternProperties: {
        '^__': {
          description:
            'Keys of the platform UI builder read by the sync actions (__SELECTED_JOB, __CURL_COMMAND, __FUNCTION_CFG, …; docs/sync-actions.md); an extraction ignores them.',
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
        'Platform action: "run" extracts; test_request, infer_mapping, load_from_curl and perform_function are the UI builder\'s sync actions (docs/sync-actions.md; any other value: exit 2).',
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

/** The sub-schemas validated at the lifecycle steps where the reference checks them. */
export const CONFIG_SECTION_POINTER = '#/properties/parameters/properties/config';
export const API_SECTION_POINTER = '#/properties/parameters/properties/api';
