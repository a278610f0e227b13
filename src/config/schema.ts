/**
 * The JSON Schema of the configuration: the one source for validation (ajv, validate.ts),
 * the component descriptor (component.json) and the documentation.
 *
 * The reference accepts almost anything (it ignores its own schema) and rejects only the
 * cases of spec 01 §2.4. A configuration that works there must work here, so the schema is
 * exactly as strict as those checks. `x-error` carries the user-facing message of a check
 * (byte-exact, typos included); `description` documents each key.
 */

/** PHP `empty()` as a schema: null, false, 0, "", "0", [] or {}. */
const phpEmpty = {
  anyOf: [
    { type: 'null' },
    { const: false },
    { const: 0 },
    { const: '' },
    { const: '0' },
    { type: 'array', maxItems: 0 },
    { type: 'object', maxProperties: 0 },
  ],
} as const;

/** Our own options (not in the reference, which ignores unknown keys): numbers or nothing. */
const positiveNumber = { type: 'number', exclusiveMinimum: 0 } as const;

const rateLimit = {
  description:
    'Request budget per host (scheme, host, port), honoured by every request: pages, child jobs, logins, retries. ' +
    '{"requestsPerSecond": N, "requestsPerMinute": M}: never more than N requests in any second and M in any minute (either or both; fractions allowed). ' +
    "followHeaders (default true): also pace by the API's RateLimit-*/X-RateLimit-* headers and Retry-After, as without this option. " +
    'A 429 always halves the requests on the wire for that host (growing back by one per round of successful answers).',
  anyOf: [
    phpEmpty,
    {
      type: 'object',
      additionalProperties: false,
      properties: {
        requestsPerSecond: { description: 'Most requests sent to one host in any 1-second window.', ...positiveNumber },
        requestsPerMinute: { description: 'Most requests sent to one host in any 60-second window.', ...positiveNumber },
        followHeaders: { description: "Pace by the API's rate-limit headers and Retry-After (default true).", type: 'boolean' },
      },
    },
  ],
  'x-error':
    "The 'rateLimit' option must be an object with 'requestsPerSecond' and/or 'requestsPerMinute' (numbers greater than 0) and optionally 'followHeaders' (true or false).",
} as const;

const prefetch = {
  description:
    'offset and pagenum pagination only, opt-in: request up to N next pages at once while the current one is processed (0 = off, the default; at most 64, and never more on the wire than api.http.concurrency). ' +
    'The stop conditions still decide: pages past the last one are discarded unparsed, the output is byte-identical to a sequential run; ' +
    'up to N requests past the last page are sent. A job\'s own "prefetch" wins over this one.',
  anyOf: [{ type: 'null' }, { type: 'integer', minimum: 0 }],
  'x-error': "The 'prefetch' option must be a whole number of pages, 0 or more.",
} as const;

const job = {
  description: 'A job: one resource of the API, its pages and its child jobs (spec 03 §1.2).',
  allOf: [
    { type: ['object', 'array'], 'x-error': 'Job configuration must be an array: {value}' },
    {
      properties: {
        params: {
          description: 'Request parameters; object values may be user functions.',
          anyOf: [phpEmpty, { type: ['object', 'array'] }],
          'x-error': "The 'params' property must be an array.",
        },
      },
    },
    {
      required: ['endpoint'],
      'x-error': "The 'endpoint' property must be set in job.",
      properties: {
        endpoint: {
          description: 'URL or URL fragment, resolved against api.baseUrl; {placeholders} in child jobs.',
          not: { enum: [null, ''] },
          'x-error': "The 'endpoint' property must be set in job.",
        },
      },
    },
    {
      properties: {
        children: {
          description: 'Child jobs, run for every record of each page.',
          allOf: [
            { anyOf: [phpEmpty, { type: ['object', 'array'] }], 'x-error': "The 'children' property must an array of jobs." },
            { items: { $ref: '#/definitions/job' }, additionalProperties: { $ref: '#/definitions/job' } },
          ],
        },
      },
    },
  ],
  properties: {
    method: { description: 'GET (default), POST or FORM, case-insensitive.' },
    dataType: { description: 'Record type: names the output table and selects a mapping. Defaults to the endpoint.' },
    dataField: { description: 'Where the records are: a path string or {path, delimiter}. Auto-detected when absent.' },
    responseFilter: { description: 'Members kept as JSON text instead of being flattened.' },
    responseFilterDelimiter: { description: 'Path delimiter of responseFilter (default ".").' },
    placeholders: { description: 'Child jobs: placeholder name → path in the parent record, or {path, function, args}.' },
    recursionFilter: { description: 'Child jobs: condition on the parent record, e.g. "type!=admin&id>10".' },
    scroller: { description: 'Scroller name with "multiple" pagination.' },
    userData: { description: 'Extra columns added to the rows of this job.' },
    id: { description: 'Job identity; jobs with the same identity collapse into one.' },
    headers: { description: 'Request headers of this job.' },
    prefetch,
  },
} as const;

const configSection = {
  description: 'What to extract (spec 01 §2.2).',
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
            { items: { $ref: '#/definitions/job' }, additionalProperties: { $ref: '#/definitions/job' } },
          ],
        },
      },
    },
  ],
  properties: {
    outputBucket: { description: 'Output bucket; tables go to in.c-<outputBucket>.<table>.' },
    id: { description: 'Used for the bucket name ex-api-<api.name>-<id> when outputBucket is empty.' },
    debug: { description: 'Log every HTTP request (secrets hidden).' },
    incrementalOutput: {
      type: ['boolean', 'null', 'string', 'integer', 'number', 'array', 'object'],
      description: 'Load tables incrementally (JSON boolean).',
    },
    http: { description: '{headers: {...}}: headers of every request; they override api.http.headers.' },
    mappings: { description: 'User-defined mappings by dataType.' },
    userData: { description: 'Extra columns for the rows of root jobs.' },
    compatLevel: { description: 'Parser compatibility level (default 3; 1 = legacy parser).' },
  },
} as const;

const apiSection = {
  description: 'How to talk to the API (spec 01 §3).',
  properties: {
    baseUrl: { description: 'Base URL (string or user function).' },
    name: { description: 'API name used in the default bucket name (default "generic").' },
    caCertificate: {
      type: ['string', 'null'],
      'x-error': "The 'caCertificate' must be string.",
      description: 'PEM CA bundle trusted instead of the system CAs.',
    },
    clientCertificate: {
      type: ['string', 'null'],
      'x-error': "The 'clientCertificate' must be string.",
      description: 'Not used: see #clientCertificate.',
    },
    '#clientCertificate': { description: 'PEM client certificate followed by its private key (mutual TLS).' },
    retryConfig: {
      description: 'Retries: maxRetries (10), http.retryHeader (Retry-After), http.codes, curl.codes.',
    },
    http: {
      description:
        'headers, requiredHeaders, defaultOptions {params, headers}, ignoreErrors, connectTimeout (30 s), requestTimeout (300 s), concurrency (10; requests on the wire at once per host; env EX_GENERIC_CONCURRENCY wins; 1 = strictly sequential; any value gives the same output), rateLimit.',
      properties: { rateLimit },
    },
    authentication: { description: 'Authentication: type basic, query, login, oauth10, oauth20, oauth20.login.' },
    pagination: {
      description: 'Pagination: method offset, pagenum, response.url, response.param, cursor, multiple, zendesk.response.url.',
      properties: { prefetch },
    },
  },
} as const;

export const configSchema = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  $id: 'https://keboola.com/schemas/ex-generic-ts/config.json',
  title: 'Generic extractor configuration',
  type: 'object',
  definitions: { job },
  properties: {
    parameters: {
      type: 'object',
      properties: {
        api: apiSection,
        config: configSection,
        iterations: { description: 'Run the configuration once per item; each item replaces top-level keys of config.' },
        sshProxy: { description: 'SSH tunnel: host, port, user, #privateKey.' },
        aws: { description: 'aws.signature.credentials: accessKeyId, #secretKey, serviceName, regionName.' },
        cache: { description: 'Response cache for GET requests (accepted; see README).' },
      },
    },
    authorization: { description: 'OAuth credentials injected by the platform (authorization.oauth_api.credentials).' },
    action: { description: 'Platform action; only "run" extracts.' },
    image_parameters: { description: 'Component-wide settings injected by the platform (allowed_hosts).' },
  },
} as const;

/** The sub-schemas validated at the lifecycle steps where the reference checks them. */
export const CONFIG_SECTION_POINTER = '#/properties/parameters/properties/config';
export const API_SECTION_POINTER = '#/properties/parameters/properties/api';
