import { PhpArray, PhpFloat, type Value } from '../../src/php/value.ts';

/** Configuration-style map from a plain object (JS order: integer-like keys come first). */
export function m(o: Record<string, Value>): PhpArray {
  return new PhpArray(Object.entries(o));
}
export const f = (x: number) => new PhpFloat(x);

/** Ordered plain form of a map, for comparisons. */
export function entries(map: ReadonlyMap<string, unknown>): [string, unknown][] {
  return [...map];
}
