/**
 * The schema of `api.pagination`, assembled from the registered methods (src/pagination/): one
 * variant per method in registration order (`x-discriminator: method`), each with its own options
 * and the stop conditions, after the variant without a method. A new method brings its variant
 * with its registration; nothing here names one.
 */
import { paginationMethodSpecs, STOP_CONDITION_OPTIONS } from '../pagination/index.ts';
import { schemaVariant } from '../spec/componentSpec.ts';
import type { SchemaNode } from '../spec/schemaNode.ts';

const noMethod: SchemaNode = {
  description: 'No pagination: one request per job (stop conditions have nothing to stop).',
  properties: { method: { enum: [null, ''] }, ...STOP_CONDITION_OPTIONS },
  additionalProperties: false,
};

export const pagination = {
  type: 'object',
  description:
    'How to get the next pages. Without `method` every job makes one request. Each method has its options; nextPageFlag, forceStop and limitStop can be added to any.',
  'x-discriminator': 'method',
  oneOf: [noMethod, ...paginationMethodSpecs().map((spec) => schemaVariant('method', spec.method, spec, STOP_CONDITION_OPTIONS))],
  examples: [
    { method: 'offset', limit: 100 },
    { method: 'response.url', urlKey: 'links.next' },
  ],
} satisfies SchemaNode;
