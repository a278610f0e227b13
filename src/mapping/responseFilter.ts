/**
 * `responseFilter` (spec 04 §6, 03 §3.4): selected members are replaced by their JSON text.
 * Records are mutated in place (members keep their position), as the reference does with its
 * objects: the response the scrollers read holds the filtered records too.
 */
import { type Value, type ValueMap, isEmpty, isMap, isList } from '../php/value.ts';
import { phpString } from '../php/stringConversion.ts';
import { pjsonOrFalse } from '../php/jsonEncode.ts';
import { UserError } from '../errors/UserError.ts';

type Edit = { map: ValueMap; key: string; was: Value } | { list: Value[]; index: number; was: Value };

/**
 * The replacements one page's filter made, to see that page's response as it was decoded. The
 * page loop compares the next response with it (03 §3.1.1: the reference compares responses
 * before its filter changes them), and keeping a log of the few replaced members costs far less
 * than a copy or a fingerprint of every page.
 */
export class FilterEdits {
  private readonly edits: Edit[] = [];

  setMember(map: ValueMap, key: string, value: Value): void {
    this.edits.push({ map, key, was: map.get(key)! });
    map.set(key, value);
  }

  setItem(list: Value[], index: number, value: Value): void {
    this.edits.push({ list, index, was: list[index]! });
    list[index] = value;
  }

  /** `read()` sees every replaced member as it was; the replacements are back when it returns. */
  whileUndone<T>(read: () => T): T {
    const now: Value[] = [];
    for (let i = this.edits.length - 1; i >= 0; i--) now[i] = this.swap(this.edits[i]!, this.edits[i]!.was);
    try {
      return read();
    } finally {
      for (let i = 0; i < this.edits.length; i++) this.swap(this.edits[i]!, now[i]!);
    }
  }

  /** Puts `value` in the edited place; returns what was there. */
  private swap(edit: Edit, value: Value): Value {
    if ('map' in edit) {
      const old = edit.map.get(edit.key)!;
      edit.map.set(edit.key, value);
      return old;
    }
    const old = edit.list[edit.index]!;
    edit.list[edit.index] = value;
    return old;
  }
}

/** A value holding INF/NaN becomes `false` (an empty cell), as PHP's failed `json_encode` does. */
function encode(v: Value, compatLevel: number): string | false {
  if (compatLevel >= 3 || v === null || isMap(v) || isList(v)) return pjsonOrFalse(v, 'p17');
  return phpString(v); // scalars (PhpFloat included): PHP string form
}

function filterItem(item: Value, path: string, delimiter: string, compatLevel: number, edits: FilterEdits): void {
  const at = path.indexOf(delimiter);
  const first = at < 0 ? path : path.slice(0, at);
  const rest = at < 0 ? undefined : path.slice(at + delimiter.length);
  const isEach = first.endsWith('[]');
  const key = isEach ? first.slice(0, -2) : first;
  if (!isMap(item)) return;
  const current = item.get(key);
  if (compatLevel >= 3) {
    if (current === undefined) return;
  } else if (isEmpty(current)) {
    return;
  }
  // Any text after the delimiter is a rest path, even "0" (a member named 0, issue 22) or ""
  // (`a/` walks into `a` looking for a member named "", so it filters nothing; issue 33).
  const hasRest = rest !== undefined;
  if (isEach) {
    if (!isList(current)) throw new UserError(`Error filtering response. '${key}' is not an array.`);
    for (let i = 0; i < current.length; i++) {
      // A rest path changes the element in place; only encoding replaces it.
      if (hasRest) filterItem(current[i]!, rest!, delimiter, compatLevel, edits);
      else edits.setItem(current, i, encode(current[i]!, compatLevel));
    }
  } else if (hasRest) {
    filterItem(current!, rest!, delimiter, compatLevel, edits);
  } else {
    edits.setMember(item, key, encode(current!, compatLevel));
  }
}

/**
 * Applies `filter` (string or list of paths) with `delimiter` (`.` when PHP-empty) to every
 * record, in order. `compatLevel` is the effective level (see `compatLevelOf` in `config/outputOptions.ts`).
 * Returns the (mutated) records; `edits` logs each replacement.
 */
export function applyResponseFilter(
  records: Value[],
  filter: Value,
  delimiter: Value,
  compatLevel: number,
  edits: FilterEdits = new FilterEdits(),
): Value[] {
  if (isEmpty(filter)) return records;
  let paths: string[];
  if (isList(filter)) paths = filter.map((p) => phpString(p));
  else if (isMap(filter)) paths = [...filter.values()].map((p) => phpString(p));
  else paths = [phpString(filter)];
  const delim = isEmpty(delimiter) ? '.' : phpString(delimiter);
  for (const path of paths) {
    for (let i = 0; i < records.length; i++) {
      const record = records[i]!;
      filterItem(record, path, delim, compatLevel, edits);
      // The same record back: a lazily decoded array (php/lazyArray.ts) keeps it from now on.
      records[i] = record;
    }
  }
  return records;
}
