/** Job params and userData evaluated once per job instance (spec 03 §2.1, 02 §12.1). */
import { UserError } from '../errors/UserError.ts';
import { evaluateTopLevel, type EvaluateOptions, type FunctionContext } from '../functions/index.ts';
import type { SecretRegistry } from '../logging/redact.ts';
import { arrayMerge } from '../php/arrayMerge.ts';
import { isEmpty, isMap, JsonObject, PhpArray, type Value } from '../php/value.ts';

/**
 * Evaluated params: object values become objects (they replace defaults wholesale, 03 §2.2),
 * and every empty object or list anywhere becomes an empty list.
 */
export function normalizeEvaluated(v: Value, top: boolean): Value {
  if (Array.isArray(v)) return v.map((x) => normalizeEvaluated(x, false));
  if (isMap(v)) {
    if (v.size === 0) return [];
    const out = top ? new PhpArray() : new JsonObject();
    for (const [k, x] of v) out.set(k, normalizeEvaluated(x, false));
    return out;
  }
  return v;
}

/** Evaluation options: the clock, and the run's secrets (a value computed from one is a secret). */
function optionsOf(now: (() => number) | undefined, secrets: SecretRegistry | undefined): EvaluateOptions {
  return { ...(now ? { now } : {}), ...(secrets ? { secrets } : {}) };
}

export function evaluateParams(
  params: Value | undefined,
  ctx: FunctionContext,
  now?: () => number,
  path?: string,
  secrets?: SecretRegistry,
): Value {
  if (isEmpty(params) || !(isMap(params) || Array.isArray(params))) return isEmpty(params) ? [] : params!;
  let evaluated: Value;
  try {
    evaluated = evaluateTopLevel(params!, ctx, optionsOf(now, secrets));
  } catch (e) {
    if (e instanceof UserError)
      throw new UserError(`User script error: ${e.message}`, { configPath: e.configPath ?? path, context: e.context });
    throw e;
  }
  if (Array.isArray(evaluated)) return evaluated.map((x) => (isMap(x) || Array.isArray(x) ? normalizeEvaluated(x, false) : x));
  if (!isMap(evaluated)) return evaluated;
  const out = new PhpArray();
  // Top-level lists are used verbatim (not evaluated); their nested objects, like evaluated
  // ones, become objects and every empty object/list becomes an empty list (§2.1 rule 3).
  for (const [k, x] of evaluated) out.set(k, normalizeEvaluated(x, false));
  return out;
}

function userDataMap(v: Value | undefined, scalarKey: string): PhpArray {
  if (isEmpty(v)) return new PhpArray();
  if (v instanceof PhpArray) return new PhpArray(v);
  if (Array.isArray(v)) return new PhpArray(v.map((x, i) => [String(i), x] as const));
  return new PhpArray([[scalarKey, v!]]);
}

/** The effective userData of a job instance, evaluated (02 §12.1). */
export function evaluateUserData(
  configUserData: Value | undefined,
  jobUserData: Value | undefined,
  root: boolean,
  ctx: FunctionContext,
  now?: () => number,
  path?: string,
  secrets?: SecretRegistry,
): Map<string, Value> {
  // The reference merges the two with `array_merge`, which renumbers integer-like keys from 0
  // ({"12": …} becomes column `0`; its link hashes include the renumbered key, issue 22).
  const merged = arrayMerge(root ? userDataMap(configUserData, 'userData') : new PhpArray(), userDataMap(jobUserData, 'job_parent_id'));
  if (merged.size === 0) return new Map();
  let evaluated: Value;
  try {
    evaluated = evaluateTopLevel(merged, ctx, optionsOf(now, secrets));
  } catch (e) {
    if (e instanceof UserError)
      throw new UserError(`User script error: ${e.message}`, { configPath: e.configPath ?? path, context: e.context });
    throw e;
  }
  return new Map(isMap(evaluated) ? evaluated : []);
}
