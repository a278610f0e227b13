/** Shared helpers for the user-function tests. */
import { evaluate, type FunctionContext } from '../../src/functions/index.ts';
import { PhpArray, PhpFloat, type Value } from '../../src/php/value.ts';

/** A `{"function": name, "args": [...]}` configuration object. */
export function fn(name: Value, ...args: Value[]): PhpArray {
  return new PhpArray([
    ['function', name],
    ['args', args],
  ]);
}

/** A configuration object from plain entries. */
export function obj(entries: Record<string, Value>): PhpArray {
  return new PhpArray(Object.entries(entries));
}

export const f = (x: number): PhpFloat => new PhpFloat(x);

/** Fixed clock: 2017-10-21 21:16:00 UTC (spec 02 §11.7 base). */
export const NOW_MS = 1508620560_000;

/** Evaluates `name(args…)` with the fixed clock. */
export function call(name: string, ...args: Value[]): Value {
  return evaluate(fn(name, ...args), {}, { now: () => NOW_MS, allowUrlencode: true });
}

export function run(x: Value, ctx: FunctionContext = {}, allowUrlencode = false): Value {
  return evaluate(x, ctx, { now: () => NOW_MS, allowUrlencode });
}
