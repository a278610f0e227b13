/** Path lookup used by dataField, placeholders, filters and scrollers (spec 03 §0.5). */
import type { Value } from './value.ts';

export const NOT_FOUND = Symbol('not found');

/** Walks `path` split on `delim`; returns NOT_FOUND when a segment does not resolve. */
export function lookupStrict(path: string, value: Value, delim = '.'): Value | typeof NOT_FOUND {
  if (path === delim) return value;
  let cur: Value = value;
  for (const seg of delim === '' ? [path] : path.split(delim)) {
    if (cur instanceof Map) {
      if (!cur.has(seg)) return NOT_FOUND;
      cur = cur.get(seg)!;
    } else if (Array.isArray(cur)) {
      if (!/^(0|[1-9]\d*)$/.test(seg)) return NOT_FOUND;
      const item = cur[Number(seg)];
      if (item === undefined || item === null) return NOT_FOUND;
      cur = item;
    } else {
      return NOT_FOUND;
    }
  }
  return cur;
}

/** Lenient mode: not found → null. */
export function lookup(path: string, value: Value, delim = '.'): Value {
  const v = lookupStrict(path, value, delim);
  return v === NOT_FOUND ? null : v;
}
