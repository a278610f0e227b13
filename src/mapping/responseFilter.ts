/**
 * `responseFilter` (spec 04 §6, 03 §3.4): selected members are replaced by their JSON text.
 * Records are mutated in place (members keep their position), as the reference does.
 */
import { type Value, isEmpty, isMap, isList } from '../php/value.ts';
import { phpString } from '../php/stringConversion.ts';
import { pjsonOrFalse } from '../php/jsonEncode.ts';
import { UserError } from '../errors/UserError.ts';

/** A value holding INF/NaN becomes `false` (an empty cell), as PHP's failed `json_encode` does. */
function encode(v: Value, compatLevel: number): string | false {
  if (compatLevel >= 3 || v === null || isMap(v) || isList(v)) return pjsonOrFalse(v, 'p17');
  return phpString(v); // scalars (PhpFloat included): PHP string form
}

function filterItem(item: Value, path: string, delimiter: string, compatLevel: number): Value {
  const at = path.indexOf(delimiter);
  const first = at < 0 ? path : path.slice(0, at);
  const rest = at < 0 ? undefined : path.slice(at + delimiter.length);
  const isEach = first.endsWith('[]');
  const key = isEach ? first.slice(0, -2) : first;
  if (!isMap(item)) return item;
  const current = item.get(key);
  if (compatLevel >= 3) {
    if (current === undefined) return item;
  } else if (isEmpty(current)) {
    return item;
  }
  // Any text after the delimiter is a rest path, even "0" (a member named 0, issue 22) or ""
  // (`a/` walks into `a` looking for a member named "", so it filters nothing; issue 33).
  const hasRest = rest !== undefined;
  if (isEach) {
    if (!isList(current)) throw new UserError(`Error filtering response. '${key}' is not an array.`);
    for (let i = 0; i < current.length; i++) {
      current[i] = hasRest ? filterItem(current[i]!, rest!, delimiter, compatLevel) : encode(current[i]!, compatLevel);
    }
  } else {
    item.set(key, hasRest ? filterItem(current!, rest!, delimiter, compatLevel) : encode(current!, compatLevel));
  }
  return item;
}

/**
 * Applies `filter` (string or list of paths) with `delimiter` (`.` when PHP-empty) to every
 * record, in order. `compatLevel` is the effective level (see `compatLevelOf` in `config/outputOptions.ts`).
 * Returns the (mutated) records.
 */
export function applyResponseFilter(records: Value[], filter: Value, delimiter: Value, compatLevel: number): Value[] {
  if (isEmpty(filter)) return records;
  let paths: string[];
  if (isList(filter)) paths = filter.map((p) => phpString(p));
  else if (isMap(filter)) paths = [...filter.values()].map((p) => phpString(p));
  else paths = [phpString(filter)];
  const delim = isEmpty(delimiter) ? '.' : phpString(delimiter);
  for (const path of paths) {
    for (let i = 0; i < records.length; i++) {
      records[i] = filterItem(records[i]!, path, delim, compatLevel);
    }
  }
  return records;
}
