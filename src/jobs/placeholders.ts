/** Child-job placeholders, inheritance and combinations (spec 03 §4.4–§4.7). */
import { childPath } from '../errors/configPath.ts';
import { ApplicationError } from '../errors/ApplicationError.ts';
import { UserError } from '../errors/UserError.ts';
import { evaluate, flattenContext } from '../functions/index.ts';
import { phpString } from '../php/stringConversion.ts';
import type { PlaceholderSpec } from './placeholderSpec.ts';
import { JsonObject, PhpArray, type Value } from '../php/value.ts';
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

function resolveOwn(spec: PlaceholderSpec, chain: readonly Value[], configPath: string): OwnPlaceholder {
  const { name, level, path } = spec;
  if (level < 1 || level > chain.length) {
    throw new UserError(`Level ${level} not found in parent results! Maximum level: ${chain.length}`, { configPath });
  }
  // chain[0] is the top-level record; level 1 is the record that spawned this child.
  const record = chain[chain.length - level]!;
  if (spec.pathMissing) {
    throw new UserError(`The path for placeholder '${name}' must be a string value or an object containing 'path' and 'function'.`, {
      configPath,
    });
  }
  const found = lookupStrict(path, record, '.');
  if (found === NOT_FOUND) throw new UserError(`No value found for ${name} in parent result. (level: ${level})`, { configPath });
  let value: Value = found;
  if (spec.expression !== undefined) {
    try {
      value = evaluate(
        new PhpArray(spec.expression),
        { placeholder: flattenContext(new PhpArray([['value', found]])) },
        { allowUrlencode: true },
      );
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
  placeholders: readonly PlaceholderSpec[],
  chain: readonly Value[],
  inherited: readonly Binding[],
  configPath = 'placeholders',
): Binding[][] {
  const slots: OwnPlaceholder[] = inherited.map((b) => ({ name: b.name, path: b.path, values: [b.value] }));
  for (const spec of placeholders) {
    const { name } = spec;
    const resolved = resolveOwn(spec, chain, childPath(configPath, name));
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
