/**
 * The schema of `api.authentication`: one variant per registered type (`x-discriminator:
 * type`), each written by its method's spec in src/auth/*.ts.
 */
import { authMethodTypes, getAuthMethod } from '../auth/registry.ts';
import { schemaVariant } from '../spec/componentSpec.ts';
import type { SchemaNode } from '../spec/schemaNode.ts';
// Importing the methods registers them.
import '../auth/index.ts';

export const authentication = {
  type: 'object',
  description: 'How requests are authenticated. Credentials live in config attributes (e.g. #password) or in the OAuth authorization.',
  'x-discriminator': 'type',
  oneOf: authMethodTypes().map((type) => schemaVariant('type', type, getAuthMethod(type))),
  examples: [{ type: 'basic' }, { type: 'query', query: { apikey: { attr: '#token' } } }],
} satisfies SchemaNode;
