/** The schema of parameters.api.retryConfig and parameters.api.http (a part of schema.ts). */
import { readMaxRetries, readStatusCode } from '../http/retryOptions.ts';
import { readTimeout } from '../http/timeoutOptions.ts';
import type { Value } from '../php/value.ts';
import { headerMap, MAP, misplaced, type SchemaNode } from '../spec/schemaNode.ts';

/** A number written as text ("30", " 1.5e2"), as PHP 7.4's is_numeric reads it (no trailing space). */
const NUMERIC_TEXT = '^\\s*[+-]?(\\d+\\.?\\d*|\\.\\d+)([eE][+-]?\\d+)?$';

/** A status code of a retry list; what another value counts as comes from the run's own reader. */
const statusCode: SchemaNode = {
  type: 'integer',
  minimum: 100,
  maximum: 599,
  'x-reading': (v) => readStatusCode(v as Value).note,
};

const httpStatusList: SchemaNode = { type: 'array', items: statusCode };

/** The warning of a timeout not used as written: the reader's own note. */
const timeoutReading =
  (defaultSeconds: number) =>
  (v: unknown): string | undefined =>
    readTimeout(v as Value, defaultSeconds).note;

export const retryConfig: SchemaNode = {
  type: 'object',
  description:
    "Retries of failed requests (used when a non-empty object). After each attempt: stop once maxRetries retries were made; retry when the response status is listed in http.codes (before any other handling, so a listed 2xx is retried too) or the network error's curl number in curl.codes; else stop. Waits follow the retry header, else 1 s, 2 s, 4 s, …",
  properties: {
    maxRetries: {
      type: 'integer',
      minimum: 0,
      default: 10,
      description:
        'Retries after the first attempt: a request that keeps failing is sent at most maxRetries + 1 times. Read as PHP reads an integer: 2.9 → 2, "3" → 3, "1e1" → 10, text that does not start with a number ("three") → 0, true → 1; 0 or a negative number: never retried; absent or null: 10.',
      examples: [3],
      'x-reading': (v) => readMaxRetries(v as Value).note,
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
          description:
            'Status codes retried, compared exactly with the response status: only JSON integers match ("503" as text or 503.0 never does). Any listed status is retried, 2xx included; null: the default list.',
          examples: [[429, 503]],
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
          items: { type: 'integer', minimum: 1 },
          default: [28, 6, 7, 35, 52, 56],
          description: 'curl error numbers retried (28 timeout, 6 DNS, 7 connect, 35 TLS, 52 empty reply, 56 receive).',
        },
      },
      additionalProperties: false,
    },
    headerName: {
      type: 'string',
      description: 'Legacy: http.retryHeader. When headerName or httpCodes is present, the two replace the whole http object.',
      examples: ['Retry-After'],
    },
    httpCodes: {
      ...httpStatusList,
      description:
        'Legacy: http.codes, compared the same way. When headerName or httpCodes is present, the two replace the whole http object.',
      examples: [[503]],
    },
    curlCodes: { type: 'array', items: { type: 'integer', minimum: 1 }, description: 'Legacy: curl.codes.', examples: [[7, 28]] },
    codes: misplaced('parameters.api.retryConfig.http.codes (or curl.codes for network errors)'),
    retryHeader: misplaced('parameters.api.retryConfig.http.retryHeader'),
  },
  additionalProperties: false,
  examples: [{ maxRetries: 3, http: { codes: [429, 503] } }],
};

export const apiHttp: SchemaNode = {
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
      items: { type: ['integer', 'string'], minimum: 100 },
      description: 'Error statuses treated as data (a WARNING each; a non-JSON body becomes {"errorData": …}).',
      default: [],
      examples: [[404]],
    },
    connectTimeout: {
      type: ['number', 'string'],
      // Text is read as a number (PHP); what is not a number, 0 or less, falls back to the default.
      pattern: NUMERIC_TEXT,
      minimum: 0,
      // The longest timer (2^31-1 ms): the editor flags more, a run uses that timer with a WARNING (readTimeout).
      maximum: 2147483,
      default: 30,
      description:
        'Seconds to connect. 0, a negative number, empty, or text PHP does not read as a number ("abc", "45 " with a trailing space): the default. More than 2147483 (a "no timeout" some write): 2147483, with a warning.',
      'x-reading': timeoutReading(30),
      examples: [10],
    },
    requestTimeout: {
      type: ['number', 'string'],
      // Text is read as a number (PHP); what is not a number, 0 or less, falls back to the default.
      pattern: NUMERIC_TEXT,
      minimum: 0,
      // The longest timer (2^31-1 ms): the editor flags more, a run uses that timer with a WARNING (readTimeout).
      maximum: 2147483,
      default: 300,
      description:
        'Seconds for a whole request. 0, a negative number, empty, or text PHP does not read as a number ("abc", "45 " with a trailing space): the default. More than 2147483 (a "no timeout" some write): 2147483, with a warning.',
      'x-reading': timeoutReading(300),
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
