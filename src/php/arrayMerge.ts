/**
 * PHP `array_merge` of associative arrays: string keys keep the position of their first
 * occurrence and take the last value; integer keys (canonical decimal strings such as `"12"`,
 * which PHP stores as integers) are renumbered 0, 1, 2 … in order and never override.
 */
import { isCanonicalIntKey } from './serialize.ts';
import { PhpArray, type Value } from './value.ts';

export function arrayMerge(...arrays: readonly ReadonlyMap<string, Value>[]): PhpArray {
  const out = new PhpArray();
  let next = 0;
  for (const a of arrays) {
    for (const [k, v] of a) {
      if (isCanonicalIntKey(k)) out.set(String(next++), v);
      else out.set(k, v);
    }
  }
  return out;
}
