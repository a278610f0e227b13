/**
 * Schema nodes that several pagination methods share: the truthiness flag and `prefetch`. Each
 * method declares its other option nodes in its own file.
 */
import { isEmpty, type Value } from '../php/value.ts';
import type { SchemaNode } from '../spec/schemaNode.ts';

/**
 * An option read strictly (OptionReader.strictString, wrongType): a set value of another type is
 * the reference's type error, so the pre-flight warning says the run fails on it.
 */
export const strictType = { 'x-stops': (v: unknown) => !isEmpty(v as Value) } as const satisfies SchemaNode;

/**
 * A flag read with truthiness (OptionReader.flag). The default stays a literal type so a parser
 * can pass `NODES.flag.default` to `flag()`.
 */
export function flagOption<const Default extends boolean>(description: string, dflt: Default) {
  return { type: 'boolean', default: dflt, description, examples: [!dflt] } as const satisfies SchemaNode;
}

/**
 * Pages fetched ahead (src/jobs/pagePrefetch.ts reads it): an option of offset and pagenum,
 * whose next requests are known in advance. A job's own `prefetch` (config/schemaJob.ts) reuses
 * this node.
 */
export const prefetchOption = {
  type: 'integer',
  minimum: 0,
  default: 0,
  description:
    "Opt-in: request up to N next pages at once while the current one is processed (0 = off, the default; at most 64, never more on the wire than api.http.concurrency; off at concurrency 1). The stop conditions still decide: pages past the last one are dropped unparsed and the output is byte-identical to a sequential run, but up to N requests past the last page are sent. A job's own prefetch wins.",
  examples: [10],
} as const satisfies SchemaNode;
