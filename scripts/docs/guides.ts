/**
 * Prose for docs/configuration.md that a schema node cannot carry: a worked example after the
 * option table of a definition. (The descriptions stay one sentence: editors show them on hover.)
 */
import { jsonBlock } from './markdown.ts';

const PARENT_AND_USER_COLUMNS = {
  parameters: {
    config: {
      outputBucket: 'crm',
      userData: { source: 'api' },
      jobs: [
        {
          endpoint: 'customers',
          children: [{ endpoint: 'customers/{customer_id}/orders', dataType: 'orders', placeholders: { customer_id: 'id' } }],
        },
      ],
      mappings: {
        orders: {
          id: { type: 'column', mapping: { destination: 'id', primaryKey: true } },
          total: 'total',
          parent_id: { type: 'user', mapping: { destination: 'customer_id' } },
        },
      },
    },
  },
};

/** Definition name → Markdown lines placed after its option table. */
export const GUIDES: Record<string, string[]> = {
  mappingColumn: [
    '### Parent columns and user columns',
    '',
    "Besides a record's own fields, the rows of a job carry *parent columns*: for a child job one per",
    'placeholder, named `parent_` + the placeholder\'s path in the parent record (`"placeholders":',
    '{"customer_id": "id"}` gives `parent_id`; `{"uid": "user.id"}` gives `parent_user.id`); for a',
    'top-level job the keys of `userData`. The automatic parser adds them as columns by itself. In a',
    'mapping they are not fields of the record, so a plain column entry (`"parent_id": "customer_id"`)',
    'reads nothing and its column is empty in every row (the run says so in a WARNING). Read them with',
    "a `user` column: the key is the parent column's name, written whole (a `.` in it is not a path).",
    '',
    ...jsonBlock(PARENT_AND_USER_COLUMNS),
    '',
    'The table `in.c-crm.orders` gets the columns `id`, `total` and `customer_id` (the parent',
    "customer's `id`), with `id` as its primary key. A user column may be part of the primary key too",
    '(`"primaryKey": true` in its `mapping`). `userData` keys of a top-level job are read the same way:',
    '`"source": {"type": "user", "mapping": {"destination": "source"}}`.',
  ],
};
