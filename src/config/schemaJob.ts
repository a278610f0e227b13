/** The schema of a job (`parameters.config.jobs[]`, and `children[]` at any depth). */
import { functionValue, headerMap, MAP, misplaced, phpEmpty, type SchemaNode } from '../spec/schemaNode.ts';
import { isEmpty, type Value } from '../php/value.ts';
import { prefetchOption } from '../pagination/index.ts';

const dataPath: SchemaNode = {
  type: ['string', 'object'],
  description:
    'Where the records are in the response: a path such as "data.items" (delimiter "."), or {"path": …, "delimiter": …}. When absent, the only array in the response is used (an error names them when there are several). "." (or the delimiter) is the whole response.',
  properties: {
    path: { type: 'string', description: 'Path of the records in the response.', examples: ['data/items'] },
    delimiter: { type: 'string', default: '.', description: 'Path delimiter of `path`.', examples: ['/'] },
  },
  additionalProperties: false,
  examples: ['data.items', { path: 'data/items', delimiter: '/' }],
};

const placeholder: SchemaNode = {
  type: ['string', 'object'],
  description:
    'A placeholder of the child endpoint: the path of the value in the parent record (prefix "2:" for the grandparent, …), or {"path": …, "function": …, "args": […]} whose function gets the value as {"placeholder": "value"}.',
  properties: {
    path: { type: 'string', description: 'Path of the value in the parent record.', examples: ['id'] },
    function: { type: 'string', description: 'User function applied to the value (urlencode allowed here).', examples: ['urlencode'] },
    args: {
      type: 'array',
      description: 'Arguments of the function; {"placeholder": "value"} is the value found at path.',
      examples: [[{ placeholder: 'value' }]],
    },
    placeholder: {
      type: 'string',
      enum: ['value'],
      description: 'Instead of a function: {"path": …, "placeholder": "value"} is the value found at path.',
    },
  },
  additionalProperties: false,
  examples: ['id', { path: 'id', function: 'urlencode', args: [{ placeholder: 'value' }] }],
};

export const job = {
  description: 'A job: one resource of the API, its pages and its child jobs.',
  type: 'object',
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
            { 'x-check': true, items: { $ref: '#/definitions/job' }, additionalProperties: { $ref: '#/definitions/job' } },
          ],
        },
      },
    },
  ],
  properties: {
    endpoint: {
      type: 'string',
      description:
        'The resource: a path resolved against api.baseUrl (RFC 3986: "users" under "https://api.example.com/v1/" is "https://api.example.com/v1/users"), or an absolute URL. In a child job, {name} is replaced by the placeholder of that name.',
      examples: ['users', 'users/{id}/orders', 'https://eu.example.com/v2/items'],
    },
    method: {
      type: 'string',
      pattern: '^([Gg][Ee][Tt]|[Pp][Oo][Ss][Tt]|[Ff][Oo][Rr][Mm])$',
      default: 'GET',
      description: 'GET sends params in the query string, POST as a JSON body, FORM as a form body (case-insensitive).',
      examples: ['POST'],
    },
    params: {
      ...MAP,
      default: {},
      description: `Request parameters: name → value. ${functionValue} Evaluated once per job instance.`,
      additionalProperties: { description: functionValue },
      examples: [{ status: 'active', since: { time: 'previousStart' } }],
      'x-hint': 'A list is sent as parameters named 0, 1, … (and 0 is dropped from a query string). Write an object: {"name": "value"}.',
    },
    dataType: {
      type: 'string',
      description: 'Record type: names the output table and selects a mapping. Defaults to the endpoint as configured.',
      examples: ['users'],
    },
    dataField: dataPath,
    responseFilter: {
      type: ['string', 'array'],
      items: { type: 'string' },
      description: 'Members of each record kept as JSON text in one column instead of being flattened into tables.',
      examples: ['address', ['address', 'tags']],
    },
    responseFilterDelimiter: { type: 'string', default: '.', description: 'Path delimiter of responseFilter.', examples: ['/'] },
    children: {
      type: 'array',
      items: { $ref: '#/definitions/job' },
      description: 'Child jobs, run for every record of each page of this job (after the page is written).',
      examples: [[{ endpoint: 'users/{id}/orders', placeholders: { id: 'id' } }]],
    },
    placeholders: {
      ...MAP,
      description: 'Child jobs: placeholder name → where its value comes from in the parent record.',
      additionalProperties: placeholder,
      examples: [{ id: 'id' }, { '2:user-id': 'id' }],
    },
    recursionFilter: {
      type: 'string',
      description: 'Child jobs: run only for parent records matching this condition (==, !=, <, >, <=, >=, ~~ like, !~; & and | combine).',
      examples: ['type!=admin', 'id>10&status==active'],
    },
    scroller: {
      type: 'string',
      description: 'With "multiple" pagination: the name of the scroller (api.pagination.scrollers) this job uses.',
      examples: ['cursor'],
    },
    userData: {
      type: ['object', 'string', 'number', 'boolean'],
      description: 'Extra columns added to the rows of this job (overrides config.userData). Values may be user functions.',
      examples: [{ source: 'api' }],
    },
    id: {
      type: 'string',
      description: 'Job identity; jobs with the same identity collapse into one.',
      examples: ['users'],
      // A set id of another type is the reference's type error (03 §1.3).
      'x-stops': (v) => !isEmpty(v as Value),
    },
    headers: headerMap('Request headers of this job; they override client headers of the same name.', { 'X-Page-Size': '100' }),
    prefetch: {
      ...prefetchOption,
      description: `Pages fetched ahead for this job (offset and pagenum pagination); wins over api.pagination.prefetch. ${prefetchOption.description}`,
    },
    pagination: misplaced('parameters.api.pagination (per job: a "scroller" name with the "multiple" method)'),
    mappings: misplaced('parameters.config.mappings'),
    http: misplaced('the job\'s own "headers" (or parameters.config.http.headers for every request)'),
  },
  patternProperties: { '^__': { description: 'UI labels (e.g. __NAME); ignored.' } },
  additionalProperties: false,
} satisfies SchemaNode;
