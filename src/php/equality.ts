/** Equality of PHP values as the value model represents them (value.ts). */
import { PhpFloat, type Value } from './value.ts';

/** Decoded values identical in structure, order, values and types (03 §3.1.1). */
export function sameValue(a: Value, b: Value): boolean {
  if (a === b) return true;
  if (a instanceof PhpFloat) return b instanceof PhpFloat && (a.value === b.value || (Number.isNaN(a.value) && Number.isNaN(b.value)));
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((x, i) => sameValue(x, b[i]!));
  if (a instanceof Map) {
    if (!(b instanceof Map) || a.constructor !== b.constructor || a.size !== b.size) return false;
    const bi = b.entries();
    for (const [k, v] of a) {
      const next = bi.next().value as [string, Value];
      if (next[0] !== k || !sameValue(v, next[1])) return false;
    }
    return true;
  }
  return false;
}
