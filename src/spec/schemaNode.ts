/**
 * The JSON Schema node every registered component describes its options with (auth types,
 * pagination methods, stop conditions, …). One node per option is the option's schema, its
 * documentation (description, default, examples) and the default its parser falls back to, so
 * they cannot disagree. src/config/ assembles the nodes into the configuration schema.
 *
 * Two kinds of constraint live in the one schema:
 * - hard checks: an `allOf` entry (or a node) carrying `x-error`, the message of a check the
 *   reference makes (spec 01 §2.4). The run-time validator keeps only these, so a configuration
 *   the reference accepts is accepted here too;
 * - documented shapes: `type`, `enum`, `additionalProperties: false`… They make editors flag a
 *   mistake, and the pre-flight checks report them as WARNINGs naming the path, because the
 *   reference tolerates or ignores such values.
 */

/** A JSON Schema node as written here (draft-07 plus `x-error`, `x-discriminator`). */
export type SchemaNode = {
  [keyword: string]: unknown;
  description?: string;
  type?: string | readonly string[];
  properties?: Readonly<Record<string, SchemaNode>>;
  patternProperties?: Readonly<Record<string, SchemaNode>>;
  additionalProperties?: boolean | SchemaNode;
  items?: SchemaNode;
  allOf?: readonly SchemaNode[];
  anyOf?: readonly SchemaNode[];
  oneOf?: readonly SchemaNode[];
  enum?: readonly unknown[];
  const?: unknown;
  $ref?: string;
  default?: unknown;
  examples?: readonly unknown[];
  'x-error'?: string;
  /** A node without a message that belongs to the hard checks (their recursion into child jobs). */
  'x-check'?: boolean;
  /** With `oneOf`: the member whose `const` picks the variant (pagination `method`, auth `type`). */
  'x-discriminator'?: string;
  /**
   * For a value the documented shape does not admit but the run still reads: what it counts as, in
   * words, from the reader the run itself uses (so the warning and the behaviour cannot disagree).
   * Undefined: no note for that value. Not part of the JSON Schema (functions are not serialised).
   */
  'x-reading'?: (value: unknown) => string | undefined;
  /**
   * For a value of a type the node does not admit: whether the run fails on it (the reference's
   * type error, or a user error where its reader refuses it) rather than reading it loosely, so
   * the warning says so. Not serialised.
   */
  'x-stops'?: (value: unknown) => boolean;
};

/** PHP `empty()` as a schema: null, false, 0, "", "0", [] or {}. */
export const phpEmpty = {
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

/**
 * A map (object). The reference decodes `{}` and `[]` to the same empty array, so an empty list
 * is an empty map too.
 */
export const MAP = { type: ['object', 'array'], maxItems: 0 } as const;

/** A value that may be a user function (`{"function": …}`, `{"attr": …}`, …), evaluated at run time. */
export const functionValue = 'Literal value or user function ({"function": "concat", "args": […]}, {"attr": "name"}, …).';

/** A map of header name → value (values may be user functions or lists). */
export function headerMap(description: string, example: Record<string, unknown>): SchemaNode {
  return {
    description,
    ...MAP,
    additionalProperties: { description: functionValue },
    examples: [example],
  };
}

/**
 * A key that belongs elsewhere: editors reject it (`not: {}`), the pre-flight checks name the
 * right place.
 */
export function misplaced(target: string): SchemaNode {
  return { description: `Not read here: it belongs in ${target}.`, not: {}, 'x-misplaced': target };
}
