/** Child-job placeholders, inheritance and combinations (spec 03 §4.4–§4.7). */
import { childPath } from '../errors/configPath.ts';
import { ApplicationError } from '../errors/ApplicationError.ts';
import { UserError } from '../errors/UserError.ts';
import { evaluate, flattenContext } from '../functions/index.ts';
import { phpString } from '../php/stringConversion.ts';
import { isEmpty, isMap, JsonObject, member, PhpArray, type Value } from '../php/value.ts';
import { lookupStrict, NOT_FOUND } from '../php/pathLookup.ts';

export interface Binding {
  name: string;
  path: string;
  value: Value;
}

interface OwnPlaceholder {
  name: string;
  path: string;
  values: Value[];
}

function levelOf(name: string): number {
  const colon = name.indexOf(':');
  if (colon < 0) return 1;
  const digits = /^\d+/.exec(name.slice(0, colon));
  return digits ? Number(digits[0]) : 0;
}

function resolveOwn(name: string, spec: Value, chain: readonly Value[], configPath: string): OwnPlaceholder {
  const level = levelOf(name);
  if (level < 1 || level > chain.length) {
    throw new UserError(`Level ${level} not found in parent results! Maximum level: ${chain.length}`, { configPath });
  }
  // chain[0] is the top-level record; level 1 is the record that spawned this child.
  const record = chain[chain.length - level]!;
  // The object form (a JSON array is read the same way and has no 'path').
  const isFunction = isMap(spec) || Array.isArray(spec);
  const pathValue = isFunction ? member(spec, 'path') : spec;
  if (isFunction && isEmpty(pathValue)) {
    throw new UserError(`The path for placeholder '${name}' must be a string value or an object containing 'path' and 'function'.`, {
      configPath,
    });
  }
  const path = phpString(pathValue ?? null);
  const found = lookupStrict(path, record, '.');
  if (found === NOT_FOUND) throw new UserError(`No value found for ${name} in parent result. (level: ${level})`, { configPath });
  let value: Value = found;
  if (isFunction) {
    const expression = new PhpArray(spec as PhpArray);
    expression.delete('path');
    try {
      value = evaluate(expression, { placeholder: flattenContext(new PhpArray([['value', found]])) }, { allowUrlencode: true });
    } catch (e) {
      throw new ApplicationError((e as Error).message, { cause: e });
    }
  }
  return { name, path, values: Array.isArray(value) ? value : [value] };
}

/**
 * The binding sets of one child configuration for one parent record: inherited bindings
 * (one value each) merged with the child's own placeholders, as a cartesian product with the
 * last placeholder varying fastest. No placeholders at all yields no run.
 */
export function bindingCombinations(
  placeholders: Value | undefined,
  chain: readonly Value[],
  inherited: readonly Binding[],
  configPath = 'placeholders',
): Binding[][] {
  const slots: OwnPlaceholder[] = inherited.map((b) => ({ name: b.name, path: b.path, values: [b.value] }));
  const own: [string, Value][] = isMap(placeholders)
    ? [...placeholders]
    : Array.isArray(placeholders)
      ? placeholders.map((v, i) => [String(i), v])
      : [];
  for (const [name, spec] of own) {
    const resolved = resolveOwn(name, spec, chain, childPath(configPath, name));
    const at = slots.findIndex((s) => s.name === name);
    if (at >= 0) slots[at] = resolved;
    else slots.push(resolved);
  }
  if (slots.length === 0) return [];
  let combos: Binding[][] = [[]];
  for (const slot of slots) {
    const next: Binding[][] = [];
    for (const combo of combos) for (const value of slot.values) next.push([...combo, { name: slot.name, path: slot.path, value }]);
    combos = next;
  }
  return combos;
}

export function substituteEndpoint(endpoint: string, bindings: readonly Binding[]): string {
  let out = endpoint;
  for (const b of bindings) {
    if (b.value instanceof JsonObject) throw new ApplicationError(`Placeholder '${b.name}' value is an object`);
    out = out.split(`{${b.name}}`).join(phpString(b.value));
  }
  return out;
}

/** `parent_<path>` columns of a child job's rows (03 §4.7). */
export function bindingColumns(bindings: readonly Binding[]): Map<string, Value> {
  const columns = new Map<string, Value>();
  for (const b of bindings) columns.set(b.path.startsWith('parent_') ? b.path : `parent_${b.path}`, b.value);
  return columns;
}
