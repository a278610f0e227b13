/**
 * Building blocks of the configuration schema (src/config/schema.ts).
 *
 * Two kinds of constraint live in the one schema:
 * - hard checks: an `allOf` entry (or a node) carrying `x-error`, the message of a check the
 *   reference makes (spec 01 §2.4). The run-time validator keeps only these
 *   (`runtimeSchema`), so a configuration the reference accepts is accepted here too;
 * - documented shapes: `type`, `enum`, `additionalProperties: false`… They make editors flag a
 *   mistake, and the pre-flight checks (src/config/preflight.ts) report them as WARNINGs naming
 *   the path, because the reference tolerates or ignores such values.
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

/** Keys the run-time validator keeps from a node that is not a hard check (structure only). */
const STRUCTURAL = new Set(['$schema', '$id', 'definitions', 'properties', 'items', 'additionalProperties', 'allOf']);

type Json = Record<string, unknown>;

/**
 * Whether a node holds a hard check below it. `$ref`s of documented shapes are not followed:
 * the hard checks reach the referenced definitions themselves (a job's children are checked
 * by its `allOf`), and following both would check every child twice per level.
 */
function holdsHardCheck(node: unknown): boolean {
  if (Array.isArray(node)) return node.some(holdsHardCheck);
  if (node === null || typeof node !== 'object') return false;
  const source = node as Json;
  if ('x-error' in source || 'x-check' in source) return true;
  return Object.entries(source).some(([k, v]) => {
    if (k === 'properties' || k === 'definitions') return Object.values(v as Json).some(holdsHardCheck);
    return STRUCTURAL.has(k) && holdsHardCheck(v);
  });
}

/**
 * The schema the run-time validator (ajv, src/config/validate.ts) compiles: the hard checks
 * (`x-error` nodes) and the structure that reaches them, nothing else. Documented shapes are
 * left out, so a value the reference tolerates never fails the run (the pre-flight checks
 * warn about it instead).
 */
export function runtimeSchema<T>(root: T): T {
  const hard = holdsHardCheck;
  const project = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.filter(hard).map(project);
    if (node === null || typeof node !== 'object') return node;
    const source = node as Json;
    if ('x-error' in source || 'x-check' in source) return node;
    const out: Json = {};
    for (const [key, value] of Object.entries(source)) {
      if (!STRUCTURAL.has(key)) continue;
      if (key === '$schema' || key === '$id') out[key] = value;
      else if (key === 'properties' || key === 'definitions') {
        const kept = Object.entries(value as Json).filter(([, v]) => hard(v));
        if (kept.length > 0) out[key] = Object.fromEntries(kept.map(([k, v]) => [k, project(v)]));
      } else if (hard(value)) out[key] = project(value);
    }
    return out;
  };
  return project(root) as T;
}
