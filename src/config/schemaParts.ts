/**
 * The run-time projection of the configuration schema (src/config/schema.ts); the building
 * blocks every component's spec uses live in src/spec/schemaNode.ts.
 *
 * Two kinds of constraint live in the one schema:
 * - hard checks: an `allOf` entry (or a node) carrying `x-error`, the message of a check the
 *   reference makes (spec 01 §2.4). The run-time validator keeps only these
 *   (`runtimeSchema`), so a configuration the reference accepts is accepted here too;
 * - documented shapes: `type`, `enum`, `additionalProperties: false`… They make editors flag a
 *   mistake, and the pre-flight checks (src/config/preflight.ts) report them as WARNINGs naming
 *   the path, because the reference tolerates or ignores such values.
 */
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
