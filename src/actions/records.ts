/**
 * The helper's record selector and placeholders (spec 05 §4.4, §4.5). Both differ from the
 * extractor's (03 §3, §4.4): `dataField` `""` is the whole body, auto-detection adds the
 * elements of a nested find, "not found" becomes a message record, and placeholder levels count
 * from the top of the chain with only the first combination of list values used.
 */
import type { Value } from '../php/value.ts';
import { HelperError, PY } from './envelope.ts';
import { pythonRepr, pythonStr, pythonTypeName } from './pythonValues.ts';

export const NO_ARRAY_FOUND = 'No suitable array element found in the response data, please define the Data Selector path.';

/** Auto-detection: the single list found, or undefined (zero or several candidates). */
function findList(body: Map<string, Value>): Value | undefined {
  const candidates: Value[] = [];
  for (const member of body.values()) {
    if (Array.isArray(member)) candidates.push(member);
    else if (member instanceof Map) {
      const found = findList(member);
      // The reference adds the elements of a nested find, not the list itself.
      if (found !== undefined) candidates.push(...(Array.isArray(found) ? found : [found]));
    }
  }
  return candidates.length === 1 ? candidates[0] : undefined;
}

function notAnObject(v: Value, what: string): HelperError {
  return new HelperError(PY.attribute, `'${pythonTypeName(v)}' object has no attribute '${what}'`);
}

/** §4.4: the records of a decoded body. */
export function selectRecords(body: Value, dataField: Value | undefined): Value {
  let path: string | undefined;
  let delimiter = '.';
  if (dataField === undefined || dataField === null) {
    if (Array.isArray(body)) return body;
    if (!(body instanceof Map)) throw notAnObject(body, 'items');
    return findList(body) ?? [NO_ARRAY_FOUND];
  }
  if (dataField instanceof Map) {
    if (!dataField.has('path')) throw new HelperError(PY.attribute, "'NoneType' object has no attribute 'split'");
    path = pythonStr(dataField.get('path'));
    const d = dataField.get('delimiter');
    if (typeof d === 'string' && d !== '') delimiter = d;
  } else path = pythonStr(dataField);
  if (path === '' || path === '.') return body ?? [NO_ARRAY_FOUND];
  if (!(body instanceof Map)) {
    if (Array.isArray(body)) throw new HelperError(PY.type, 'list indices must be integers or slices, not str');
    throw notAnObject(body, 'get');
  }
  let node: Value = body;
  for (const key of path.split(delimiter)) {
    if (!(node instanceof Map)) {
      throw new HelperError(PY.type, `'${pythonTypeName(node)}' object is not subscriptable`);
    }
    if (!node.has(key)) return [`Path ${path} not found in the response data`];
    node = node.get(key)!;
  }
  return node === null ? [NO_ARRAY_FOUND] : node;
}

/** `{"k:name": path}` → level k (default 1). */
function levelOf(name: string): number {
  const m = /^(\d+):/.exec(name);
  return m ? Number(m[1]) : 1;
}

/**
 * §4.5 step 5: the placeholder values of one job from the parent slots (slot k−1 = the record
 * at chain position k−1, counted from the top).
 */
export function placeholderValues(placeholders: Value | undefined, slots: readonly Value[]): Map<string, Value> {
  const values = new Map<string, Value>();
  if (!(placeholders instanceof Map)) return values;
  for (const [name, spec] of placeholders) {
    let path: string;
    if (spec instanceof Map) {
      if (!spec.has('path')) {
        throw new HelperError(
          PY.placeholder,
          `The path for placeholder '${name}' must be a string valueor an object containing 'path' and 'function'.`,
        );
      }
      path = pythonStr(spec.get('path'));
    } else path = pythonStr(spec);
    const level = levelOf(name);
    if (level > slots.length)
      throw new HelperError(PY.placeholder, `Level ${level} not found in parent results! Maximum level: ${slots.length}`);
    let node: Value | undefined = slots[level - 1];
    for (const key of path.split('.')) {
      if (node instanceof Map) node = node.get(key);
      else if (typeof node === 'string' || node === undefined) node = undefined;
      else throw new HelperError(PY.type, `'${pythonTypeName(node)}' object is not subscriptable`);
      if (node === undefined) break;
    }
    if (node === undefined) {
      throw new HelperError(
        PY.placeholder,
        `(${pythonRepr(`No value found for placeholder ${name} in parent result. (level: ${level})`)}, None, None, {'parents': ${pythonStr([...slots])}})`,
      );
    }
    // Of list values only the first combination is used (§4.5).
    values.set(name, Array.isArray(node) ? (node[0] ?? null) : node);
  }
  return values;
}
