/** A job's `dataField`, parsed once from the configuration as the reference reads it (spec 03 §3.2). */
import { phpString } from '../php/stringConversion.ts';
import { isEmpty, isMap, member, type Value } from '../php/value.ts';

/** `dataField` as the reference reads it when a response arrives (03 §3.2). */
export type DataField =
  /**
   * PHP-empty (absent, "", "0", 0, false, null, []): the records are found in the response's shape.
   * `written` is a PHP-empty value other than absent, null or "" in the text the 0-rows hint quotes
   * ("0", 0 → "0"; false → ""; [] → "Array"; {} → ""): the hint says `dataField is "0"`, not "no
   * dataField is set".
   */
  | { kind: 'auto'; written?: string }
  /**
   * A scalar is a path in its PHP string form (`1` → "1", `true` → "1"), delimiter ".". An object
   * (or a list, read the same way) gives `path` and `delimiter` (PHP-empty delimiter → ".").
   */
  | { kind: 'path'; path: string; delimiter: string }
  /** An object without a PHP-non-empty `path`: the reference fails at the first response ("'dataField.path' must be set!"). */
  | { kind: 'missingPath' };

export function dataFieldOf(v: Value | undefined): DataField {
  if (v === undefined || v === null || v === '') return { kind: 'auto' };
  if (isEmpty(v)) return { kind: 'auto', written: isMap(v) ? '' : phpString(v) };
  if (!isMap(v) && !Array.isArray(v)) return { kind: 'path', path: phpString(v!), delimiter: '.' };
  const path = member(v, 'path');
  if (isEmpty(path)) return { kind: 'missingPath' };
  const delimiter = member(v, 'delimiter');
  return { kind: 'path', path: phpString(path!), delimiter: isEmpty(delimiter) ? '.' : phpString(delimiter!) };
}
