/**
 * A child job's placeholder, parsed once from the configuration (spec 03 §4.4–§4.6); resolved
 * against the parent records by placeholders.ts.
 */
import { phpIntval } from '../php/intval.ts';
import { phpString } from '../php/stringConversion.ts';
import { isEmpty, isMap, member, PhpArray, type Value } from '../php/value.ts';

/** One placeholder of a child job (03 §4.4–§4.6). */
export interface PlaceholderSpec {
  name: string;
  /** The record level: 1 = the parent, 2 = the grandparent (`2:` prefix); 0 for a prefix that is not a number. */
  level: number;
  /** The path in the record, PHP string form. */
  path: string;
  /**
   * The object form (a list is read the same way and has no `path`): the user function applied to
   * the value, the object without its `path`. `pathMissing` when its `path` is PHP-empty: the
   * reference fails at the first record, after the level check.
   */
  expression?: PhpArray;
  pathMissing?: boolean;
}

/** PHP `(int)` of the text before the first `:` (03 §4.4): "2:id" → 2, "id" → 1, "x:id" → 0 (the level check fails at the first record). */
function levelOf(name: string): number {
  const colon = name.indexOf(':');
  return colon < 0 ? 1 : phpIntval(name.slice(0, colon));
}

/** The placeholder `name` (its key in `placeholders`) written as `spec`: a path, or an object with `path` and a function. */
export function placeholderSpecOf(name: string, spec: Value): PlaceholderSpec {
  const level = levelOf(name);
  if (!isMap(spec) && !Array.isArray(spec)) return { name, level, path: phpString(spec ?? null) };
  const pathValue = member(spec, 'path');
  const expression = new PhpArray(isMap(spec) ? (spec as PhpArray) : []);
  expression.delete('path');
  return { name, level, path: phpString(pathValue ?? null), expression, ...(isEmpty(pathValue) ? { pathMissing: true } : {}) };
}
