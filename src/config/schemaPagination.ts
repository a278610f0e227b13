/**
 * The schema of `api.pagination`: one variant per method (`x-discriminator: method`), each with
 * the common stop conditions. tests/config/schema.test.ts checks that every variant lists
 * exactly the options its paginator registers (src/pagination/*.ts).
 */
import type { SchemaNode } from '../spec/schemaNode.ts';

const truthy = (description: string, dflt: boolean): SchemaNode => ({ type: 'boolean', default: dflt, description, examples: [!dflt] });

/** Pages fetched ahead (src/jobs/pagePrefetch.ts): offset and pagenum, whose next requests are known in advance. */
export const prefetch: SchemaNode = {
  type: 'integer',
  minimum: 0,
  default: 0,
  description:
    "Opt-in: request up to N next pages at once while the current one is processed (0 = off, the default; at most 64, never more on the wire than api.http.concurrency; off at concurrency 1). The stop conditions still decide: pages past the last one are dropped unparsed and the output is byte-identical to a sequential run, but up to N requests past the last page are sent. A job's own prefetch wins.",
  examples: [10],
};

/** Stop conditions any method (and each scroller of `multiple`) may carry. */
const stopConditions: Record<string, SchemaNode> = {
  nextPageFlag: {
    type: 'object',
    description: 'Stop on a flag in the response: stop when the member `field` equals `stopOn` (missing → `ifNotSet`).',
    properties: {
      field: { type: 'string', description: 'Name of the flag member in the response (no path).', examples: ['hasMore'] },
      stopOn: { type: 'boolean', description: 'Stop when the flag (truthiness) equals this.', examples: [false] },
      ifNotSet: { type: 'boolean', description: 'Flag value when the member is missing or null. Default: stopOn.', examples: [true] },
    },
    required: ['field', 'stopOn'],
    additionalProperties: false,
    examples: [{ field: 'hasMore', stopOn: false }],
  },
  forceStop: {
    type: 'object',
    description: 'Stop after a number of pages, a time or a volume per job instance.',
    properties: {
      pages: { type: 'integer', description: 'At most this many pages (requests).', examples: [10] },
      time: { type: ['integer', 'string'], description: 'Seconds, or a relative time such as "1 hour".', examples: [3600, '30 minutes'] },
      volume: { type: 'integer', description: 'Stop once the re-encoded responses exceed this many bytes.', examples: [1000000] },
    },
    additionalProperties: false,
    examples: [{ pages: 2 }],
  },
  limitStop: {
    type: 'object',
    description: 'Stop once the records fetched reach a count: a fixed `count`, or the number at `field` in the response.',
    properties: {
      field: { type: 'string', description: 'Path of the total in the response.', examples: ['meta.total'] },
      count: { type: 'integer', description: 'Fixed total.', examples: [1000] },
    },
    additionalProperties: false,
    examples: [{ field: 'meta.total' }],
  },
  pages: { type: ['integer', 'string'], description: 'Legacy; must be an integer; no other effect.', examples: [1] },
};

function variant(method: string, description: string, options: Record<string, SchemaNode>, required: string[] = []): SchemaNode {
  return {
    description,
    properties: { method: { const: method }, ...options, ...stopConditions },
    required: ['method', ...required],
    additionalProperties: false,
  };
}

const urlKey: SchemaNode = {
  type: 'string',
  default: 'next_page',
  description: 'Path of the next-page link in the response.',
  examples: ['links.next'],
};
const includeParams = truthy("Send the job's params with the next-page request too.", false);
const paramIsQuery = truthy('Merge the query of the next-page link into the params instead of using the link as it is.', false);

export const pagination = {
  type: 'object',
  description:
    'How to get the next pages. Without `method` every job makes one request. Each method has its options; nextPageFlag, forceStop and limitStop can be added to any.',
  'x-discriminator': 'method',
  oneOf: [
    {
      description: 'No pagination: one request per job (stop conditions have nothing to stop).',
      properties: { method: { enum: [null, ''] }, ...stopConditions },
      additionalProperties: false,
    },
    variant(
      'offset',
      'Sends a page size and an offset; the offset grows by the page size until a page has fewer records than the page size.',
      {
        limit: { type: ['integer', 'string'], description: 'Required. Page size (numeric; integer part used).', examples: [100] },
        limitParam: { type: 'string', default: 'limit', description: 'Name of the page-size parameter.', examples: ['per_page'] },
        offsetParam: { type: 'string', default: 'offset', description: 'Name of the offset parameter.', examples: ['skip'] },
        firstPageParams: truthy('Send limit/offset on the first page too.', true),
        offsetFromJob: truthy("Start from the job's own offsetParam value when it is not empty.", false),
        prefetch,
      },
      ['limit'],
    ),
    variant(
      'pagenum',
      'Sends a page number (and a page size when one is known); stops on an empty page, or on a page shorter than the page size.',
      {
        pageParam: { type: 'string', default: 'page', description: 'Name of the page-number parameter.', examples: ['p'] },
        limit: { type: ['integer', 'string'], description: 'Page size; none by default.', examples: [100] },
        limitParam: { type: 'string', default: 'limit', description: 'Name of the page-size parameter.', examples: ['per_page'] },
        firstPage: { type: 'integer', default: 1, description: 'Number of the first page (0 allowed).', examples: [0] },
        firstPageParams: truthy('Send the page parameters on the first page too.', true),
        prefetch,
      },
    ),
    variant('response.url', 'Follows a next-page link found in the response until it is missing or empty.', {
      urlKey,
      delimiter: { type: 'string', default: '.', description: 'Path delimiter of urlKey.', examples: ['/'] },
      includeParams,
      paramIsQuery,
    }),
    variant(
      'response.param',
      'Sends a value found in the response (a token) as a parameter of the next request.',
      {
        responseParam: { type: 'string', description: 'Required. Path of the value in the response.', examples: ['meta.next_token'] },
        queryParam: { type: 'string', description: 'Required. Name of the parameter that carries it.', examples: ['token'] },
        includeParams,
        scrollRequest: {
          type: 'object',
          description: 'Job-like request (endpoint, method, params) used for the next pages.',
          examples: [{ endpoint: 'scroll', method: 'POST' }],
        },
      },
      ['responseParam', 'queryParam'],
    ),
    variant(
      'cursor',
      "Sends the highest (or lowest) id of the page's records as a parameter of the next request.",
      {
        idKey: { type: 'string', description: 'Required. Path of the id inside each record.', examples: ['id'] },
        param: { type: 'string', description: 'Required. Name of the parameter.', examples: ['since_id'] },
        reverse: truthy('Use the lowest id instead of the highest.', false),
        increment: { type: 'integer', default: 0, description: 'Added to the id (may be negative).', examples: [1] },
      },
      ['idKey', 'param'],
    ),
    variant(
      'multiple',
      'Several pagination methods by name; each job picks one with its `scroller` member.',
      {
        scrollers: {
          type: 'object',
          description: 'Scroller name → a complete pagination configuration.',
          additionalProperties: { $ref: '#/definitions/pagination' },
          examples: [{ cursor: { method: 'cursor', idKey: 'id', param: 'since' } }],
        },
        default: { type: 'string', description: 'Scroller of jobs without a `scroller` member.', examples: ['cursor'] },
      },
      ['scrollers'],
    ),
    variant(
      'zendesk.response.url',
      'Like response.url (delimiter always "."), and stops when the link\'s start_time is less than 6 minutes ago.',
      {
        urlKey,
        includeParams,
        paramIsQuery,
      },
    ),
  ],
  examples: [
    { method: 'offset', limit: 100 },
    { method: 'response.url', urlKey: 'links.next' },
  ],
} satisfies SchemaNode;
