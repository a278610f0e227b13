/**
 * The user-function registry (spec 02 §11.4). Each function group file registers its functions
 * with a spec that is both documentation and the arity rule the engine enforces.
 */
import { UserError } from '../errors/UserError.ts';
import type { Value } from '../php/value.ts';

/** What the engine hands to every function call. */
export interface FunctionEnv {
  /** Current time in milliseconds since the Unix epoch (injectable for tests). */
  nowMs(): number;
}

/**
 * How a call with an argument count outside `[minArgs, maxArgs]` ends. PHP's native functions
 * emit a warning and yield `null` (most) or `false` (`date`, `strtotime`, `sprintf`); the engine's
 * own functions raise an error instead.
 */
export type ArityFailure = { yields: null | false } | { error: (name: string) => string };

export interface FunctionSpec {
  name: string;
  group: string;
  description: string;
  minArgs: number;
  /** Omitted = variadic. */
  maxArgs?: number;
  /** Default: the function yields `null`. */
  onBadArity?: ArityFailure;
  /** Only allowed where the caller opts in (`urlencode`: placeholder functions). */
  placeholderOnly?: boolean;
  /**
   * Arguments of a documented call (docs/functions.md evaluates it, so the result shown is the
   * real one); `attr` holds configuration attributes the arguments read with {"attr": …}.
   */
  example: { args: unknown[]; attr?: Record<string, unknown> };
  call(args: Value[], env: FunctionEnv): Value;
}

const registry = new Map<string, FunctionSpec>();

export function registerFunction(spec: FunctionSpec): void {
  if (registry.has(spec.name)) throw new Error(`User function '${spec.name}' registered twice`);
  registry.set(spec.name, spec);
}

/** The spec of a registered function; names are case-sensitive. */
export function getFunction(name: string): FunctionSpec | undefined {
  return registry.get(name);
}

/** All registered names in registration order (including placeholder-only ones). */
export function functionNames(options: { allowUrlencode?: boolean } = {}): string[] {
  const out: string[] = [];
  for (const spec of registry.values()) {
    if (spec.placeholderOnly && !options.allowUrlencode) continue;
    out.push(spec.name);
  }
  return out;
}

/** Every registered spec in registration order (e.g. to render documentation). */
export function listFunctions(): FunctionSpec[] {
  return [...registry.values()];
}

/** Calls `spec` applying its arity rule. */
export function invokeFunction(spec: FunctionSpec, args: Value[], env: FunctionEnv): Value {
  const max = spec.maxArgs ?? Infinity;
  if (args.length < spec.minArgs || args.length > max) {
    const rule = spec.onBadArity ?? { yields: null };
    if ('error' in rule) throw new UserError(rule.error(spec.name));
    return rule.yields;
  }
  return spec.call(args, env);
}
