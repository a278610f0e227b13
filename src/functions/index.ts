/**
 * User functions (spec 02 §11): the evaluation algorithm of §11.1, the top-level rule of §11.2
 * and context flattening of §11.3.1. Importing this module registers every function group.
 *
 * Errors:
 * - `UserError` with the raw spec texts, WITHOUT the `User script error: ` prefix (callers add it
 *   where §11.10 says so; placeholder callers turn them into internal errors instead):
 *   `Illegal function '<name>'!`, `Error evaluating user function - <ctx> '<key>' not found!`,
 *   `Error evaluating user function - <ctx> '<json>' is not a string!`,
 *   `Bad argument count for function 'ifempty'!`.
 * - `ApplicationError` for PHP fatals (an object converted to a string, e.g. inside `concat`;
 *   a hash algorithm that is known but not implemented).
 * Misused native functions do not throw: they yield `null`/`false` like PHP (§11.4).
 */
import { UserError } from '../errors/UserError.ts';
import type { SecretRegistry } from '../logging/redact.ts';
import { pjsonOrFalse } from '../php/jsonEncode.ts';
import { phpFloatString } from '../php/stringConversion.ts';
import { PhpFloat, type Value } from '../php/value.ts';
import './hash.ts';
import './string.ts';
import './time.ts';
import { functionNames, getFunction, invokeFunction, type FunctionEnv } from './registry.ts';

export { functionNames, getFunction, listFunctions, registerFunction, type FunctionEnv, type FunctionSpec } from './registry.ts';

/** Context name (`attr`, `time`, `response`, `placeholder`, …) → flattened map (§11.3). */
export type FunctionContext = Record<string, Map<string, Value>>;

export interface EvaluateOptions {
  /** Allow `urlencode` (placeholder functions only). */
  allowUrlencode?: boolean;
  /** Clock in MILLISECONDS since the epoch (default `Date.now`); `time()` etc. floor it to seconds. */
  now?: () => number;
  /** Float style of JSON-encoded names in error messages (PHP `json_encode`; default `shortest`). */
  jsonFloats?: 'p17' | 'shortest';
  /**
   * The run's secrets: a function result computed from one (an HMAC keyed with a `#` key, a hash
   * or a concatenation of a token) is a secret too, registered as soon as it exists.
   */
  secrets?: SecretRegistry;
}

interface State {
  ctx: FunctionContext;
  options: EvaluateOptions;
  env: FunctionEnv;
}

function json(v: Value, state: State): string {
  // PHP's json_encode gives false for INF/NaN, which reads as "" in a message.
  return pjsonOrFalse(v, state.options.jsonFloats ?? 'shortest') || '';
}

/** How PHP interpolates a scalar into a message (`"$x"`). */
function scalarText(v: Value): string {
  if (v === null || v === false) return '';
  if (v === true) return '1';
  if (v instanceof PhpFloat) return phpFloatString(v.value);
  return String(v);
}

function isScalarValue(v: Value): boolean {
  return v !== null && !Array.isArray(v) && !(v instanceof Map);
}

/** The array key PHP uses for a scalar index (floats truncate, booleans are 0/1, null is ""). */
function arrayKey(v: Value): string {
  if (v === null || v === false) return v === false ? '0' : '';
  if (v === true) return '1';
  if (v instanceof PhpFloat) return Number.isFinite(v.value) ? String(Math.trunc(v.value)) : '0';
  return String(v);
}

function contextValue(name: string, key: Value, map: Map<string, Value>, state: State): Value {
  if (key instanceof Map || Array.isArray(key)) {
    throw new UserError(`Error evaluating user function - ${name} '${json(key, state)}' is not a string!`);
  }
  const found = map.get(arrayKey(key));
  if (found === undefined || found === null) {
    throw new UserError(`Error evaluating user function - ${name} '${scalarText(key)}' not found!`);
  }
  return found;
}

function callFunction(call: Map<string, Value>, state: State): Value {
  const name = call.get('function')!;
  const spec = typeof name === 'string' ? getFunction(name) : undefined;
  if (!spec || (spec.placeholderOnly && !state.options.allowUrlencode)) {
    const shown = isScalarValue(name) ? scalarText(name) : json(name, state);
    // The reference's message; the names it knows go in the context (an unknown name lists the known ones).
    const known = functionNames({ allowUrlencode: state.options.allowUrlencode === true });
    throw new UserError(`Illegal function '${shown}'!`, { context: { knownFunctions: known } });
  }
  const rawArgs = call.get('args');
  const args: Value[] = [];
  if (Array.isArray(rawArgs)) for (const a of rawArgs) args.push(evalValue(a, state));
  else if (rawArgs instanceof Map) for (const a of rawArgs.values()) args.push(evalValue(a, state));
  const result = invokeFunction(spec, args, state.env);
  const { secrets } = state.options;
  if (secrets && args.some((a) => holdsSecret(a, secrets))) secrets.addDerived(result);
  return result;
}

/** Whether a value (lists and objects walked) holds a registered secret. */
function holdsSecret(v: Value, secrets: SecretRegistry): boolean {
  if (Array.isArray(v)) return v.some((x) => holdsSecret(x, secrets));
  if (v instanceof Map) return [...v.values()].some((x) => holdsSecret(x, secrets));
  return v !== null && typeof v !== 'boolean' && secrets.hides(scalarText(v));
}

function evalValue(x: Value, state: State): Value {
  if (Array.isArray(x)) return x.map((e) => evalValue(e, state));
  if (x instanceof Map) {
    if (x.has('function')) return callFunction(x, state);
    if (x.size === 1) {
      const [name, key] = x.entries().next().value as [string, Value];
      if (Object.hasOwn(state.ctx, name) && state.ctx[name] instanceof Map) return contextValue(name, key, state.ctx[name], state);
    }
    const out = new (x.constructor as new () => Map<string, Value>)();
    for (const [k, v] of x) out.set(k, evalValue(v, state));
    return out as Value;
  }
  return x;
}

function stateOf(ctx: FunctionContext, options: EvaluateOptions): State {
  return { ctx, options, env: { nowMs: options.now ?? Date.now } };
}

/**
 * §11.1 `eval(x, ctx)`: lists element-wise; `{function, args}` calls; single-key references to a
 * context present in `ctx`; other objects → a new object (same map class) of evaluated members;
 * scalars as they are.
 */
export function evaluate(x: Value, ctx: FunctionContext, options: EvaluateOptions = {}): Value {
  return evalValue(x, stateOf(ctx, options));
}

/**
 * §11.2 top-level rule for a "place" (an object of name → value): only members that are objects
 * are evaluated; strings, numbers, booleans, null and lists are kept verbatim. A list place is
 * treated the same way element by element; a scalar place is returned as it is.
 */
export function evaluateTopLevel(map: Value, ctx: FunctionContext, options: EvaluateOptions = {}): Value {
  const state = stateOf(ctx, options);
  if (Array.isArray(map)) return map.map((v) => (v instanceof Map ? evalValue(v, state) : v));
  if (!(map instanceof Map)) return map;
  const out = new (map.constructor as new () => Map<string, Value>)();
  for (const [k, v] of map) out.set(k, v instanceof Map ? evalValue(v, state) : v);
  return out as Value;
}

/**
 * §11.3.1 flattening: nested objects and lists become dot-joined keys (`a.b`, `ids.0`); only
 * leaves are kept (so empty objects/lists disappear; `null` leaves stay). A scalar yields an
 * empty map.
 */
export function flattenContext(v: Value): Map<string, Value> {
  const out = new Map<string, Value>();
  const walk = (node: Value, prefix: string): void => {
    const entries: Iterable<[string, Value]> = Array.isArray(node)
      ? node.map((e, i) => [String(i), e] as [string, Value])
      : (node as Map<string, Value>);
    for (const [k, child] of entries) {
      if (Array.isArray(child) || child instanceof Map) walk(child, prefix + k + '.');
      else out.set(prefix + k, child);
    }
  };
  if (Array.isArray(v) || v instanceof Map) walk(v, '');
  return out;
}
