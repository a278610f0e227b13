/**
 * Checks a configuration against the documented shapes of the schema (src/config/schema.ts):
 * unknown keys (with the nearest known key), values of the wrong type, values outside an enum.
 * The reference tolerates all of these, so each is a finding (a WARNING, an error with
 * --strict), never a failure by itself. The hard checks (`x-error`) are the validator's.
 */
import { childPath } from '../errors/configPath.ts';
import { logJson, pjsonOrFalse } from '../php/jsonEncode.ts';
import { isMap, PhpFloat, type Value } from '../php/value.ts';
import type { SchemaNode } from '../spec/schemaNode.ts';
import { nearest } from './suggest.ts';

export interface Finding {
  /** Config path, e.g. `parameters.config.jobs[0].dataFeild`. */
  path: string;
  /** One line naming the path, what is wrong and the fix. */
  message: string;
}

const A: Record<string, string> = {
  object: 'an object',
  array: 'a list',
  string: 'a string',
  integer: 'an integer',
  number: 'a number',
  boolean: 'true or false',
  null: 'null',
};

function kindOf(v: Value): string {
  if (v === null) return 'null';
  if (typeof v === 'boolean') return 'boolean';
  if (typeof v === 'number' || typeof v === 'bigint') return 'integer';
  if (v instanceof PhpFloat) return 'number';
  if (typeof v === 'string') return 'string';
  if (Array.isArray(v)) return 'array';
  return 'object';
}

function matchesType(node: SchemaNode, v: Value): boolean {
  const types = node.type === undefined ? [] : typeof node.type === 'string' ? [node.type] : node.type;
  if (types.length === 0) return true;
  const kind = kindOf(v);
  if (types.includes(kind)) {
    if (kind === 'array' && typeof node['maxItems'] === 'number') return (v as Value[]).length <= node['maxItems'];
    return true;
  }
  // The reference decodes {} and [] to the same empty array (spec 01 §1.2).
  if (kind === 'array' && (v as Value[]).length === 0 && types.includes('object')) return true;
  return kind === 'integer' && types.includes('number');
}

function shown(path: string, v: Value): string {
  if (/[.[]"?#|^#/.test(path.split('.').pop() ?? '')) return 'a secret value';
  // Plain JSON, as the user wrote it ("a/b", not PHP's "a\/b").
  const text = pjsonOrFalse(v, 'shortest') === false ? 'a number outside the range of a double' : logJson(v, 'shortest');
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

/** A finding for every documented-shape mismatch under `value`. */
export class SchemaWalk {
  readonly findings: Finding[] = [];
  private readonly definitions: Record<string, SchemaNode>;
  /** Names some `{"attr": …}` reads: a config key so named is an attribute, not a typo. */
  private readonly attributeNames: ReadonlySet<string>;

  constructor(root: SchemaNode, attributeNames: ReadonlySet<string>) {
    this.definitions = (root['definitions'] ?? {}) as Record<string, SchemaNode>;
    this.attributeNames = attributeNames;
  }

  walk(node: SchemaNode, value: Value | undefined, path: string): void {
    if (value === undefined || value === null) return;
    if (node.$ref !== undefined) {
      this.walk(this.definitions[node.$ref.replace('#/definitions/', '')] ?? {}, value, path);
      return;
    }
    // The hard checks are the validator's (validate.ts); they have run before this.
    if (node['x-error'] !== undefined || node['x-check'] !== undefined) return;
    const target = node['x-misplaced'];
    if (typeof target === 'string') {
      const key = path.split('.').pop() ?? '';
      if (!this.attributeNames.has(key))
        this.findings.push({ path, message: `${path}: not read here, so it is ignored; it belongs in ${target}.` });
      return;
    }
    if (!matchesType(node, value)) {
      const types = typeof node.type === 'string' ? [node.type] : (node.type ?? []);
      // A map type admits only the empty list ([] is {} to the reference): not worth naming.
      const named = node['maxItems'] === 0 ? types.filter((t) => t !== 'array') : types;
      const expected = named.map((t) => A[t] ?? t).join(' or ');
      this.add(path, `should be ${expected}, not ${A[kindOf(value)]} (${shown(path, value)})`, node, value);
      return;
    }
    if (node.enum !== undefined && !node.enum.some((e) => e === value)) {
      const known = node.enum.filter((e) => e !== null && e !== '');
      const hint = typeof value === 'string' ? nearest(value, known.map(String)) : undefined;
      this.add(
        path,
        `${shown(path, value)} is not one of ${known.map((e) => JSON.stringify(e)).join(', ')}${hint ? ` (did you mean "${hint}"?)` : ''}`,
        node,
        value,
      );
      return;
    }
    if (typeof node['pattern'] === 'string' && typeof value === 'string' && !new RegExp(node['pattern'] as string).test(value)) {
      const example = node.examples ? ` (for example ${JSON.stringify(node.examples[0])})` : '';
      const why = node['x-reading']?.(value) ?? node.description ?? '';
      this.findings.push({
        path,
        message: `${path}: ${shown(path, value)} is not a value the extractor accepts here${example}. ${why}`.trimEnd(),
      });
      return;
    }
    if (typeof node['minimum'] === 'number' && typeof value === 'number' && value < (node['minimum'] as number)) {
      this.add(path, `${value} is below the minimum ${node['minimum']}`, node, value);
      return;
    }
    // A value of the documented shape the run still reads otherwise (a timeout of 0 is the default).
    const reading = node['x-reading']?.(value);
    if (reading !== undefined) {
      this.findings.push({ path, message: `${path}: ${reading}` });
      return;
    }
    const variant = this.variant(node, value, path);
    if (variant === null) return;
    for (const part of node.allOf ?? []) this.walk(part, value, path);
    if (isMap(value)) this.walkMap(variant ?? node, value, path);
    else if (Array.isArray(value) && node.items !== undefined) {
      for (const [i, item] of value.entries()) this.walk(node.items, item, `${path}[${i}]`);
    }
  }

  /** The `oneOf` variant picked by the discriminator; undefined: no variants; null: unknown one (reported). */
  private variant(node: SchemaNode, value: Value, path: string): SchemaNode | undefined | null {
    const key = node['x-discriminator'];
    if (typeof key !== 'string' || node.oneOf === undefined || !isMap(value)) return undefined;
    const chosen = value.get(key);
    const pick = node.oneOf.find((v) => {
      const d = v.properties?.[key];
      if (d?.const !== undefined) return d.const === chosen;
      return chosen === undefined || (d?.enum ?? []).includes(chosen);
    });
    if (pick !== undefined) return pick;
    const known = node.oneOf.map((v) => v.properties?.[key]?.const).filter((k): k is string => typeof k === 'string');
    const hint = typeof chosen === 'string' ? nearest(chosen, known) : undefined;
    const keyPath = childPath(path, key);
    this.findings.push({
      path: keyPath,
      message: `${keyPath}: unknown ${key} ${shown(keyPath, chosen ?? null)}; known: ${known.join(', ')}${hint ? ` (did you mean "${hint}"?)` : ''}.`,
    });
    return null;
  }

  private walkMap(node: SchemaNode, value: Map<string, Value>, path: string): void {
    const known = Object.keys(node.properties ?? {});
    for (const [key, child] of value) {
      const at = childPath(path, key);
      const property = node.properties?.[key];
      if (property !== undefined) {
        this.walk(property, child, at);
        continue;
      }
      const pattern = Object.entries(node.patternProperties ?? {}).find(([p]) => new RegExp(p).test(key));
      if (pattern !== undefined) {
        this.walk(pattern[1], child, at);
        continue;
      }
      const extra = node.additionalProperties;
      if (extra === false) {
        const hint = nearest(key, known);
        const fix = hint ? `did you mean "${hint}"?` : `known keys: ${known.join(', ')}`;
        this.findings.push({ path: at, message: `${at}: unknown key, ignored (${fix})` });
      } else if (typeof extra === 'object') {
        this.walk(extra, child, at);
      } else if (extra === true && known.length > 0 && !key.startsWith('#') && !key.startsWith('__') && !this.attributeNames.has(key)) {
        // An open map (config attributes, the file's root): only a near miss of a known key is suspicious.
        // Not an allOf part (no additionalProperties of its own): the node it belongs to reports its keys.
        // A short attribute ("x", "id2") is no typo of a key it shares almost nothing with.
        const hint = nearest(key, known, Math.min(2, key.length - 1));
        if (hint !== undefined && hint !== key) {
          const use = /^parameters\.(config|iterations)/.test(path) ? `it is only an attribute for {"attr": "${key}"}` : 'it is ignored';
          this.findings.push({ path: at, message: `${at}: not a key the extractor reads (did you mean "${hint}"?); ${use}.` });
        }
      }
    }
  }

  private add(path: string, problem: string, node: SchemaNode, value: Value): void {
    const reading = node['x-reading']?.(value);
    const hint = reading !== undefined ? ` ${reading}` : typeof node['x-hint'] === 'string' ? ` ${node['x-hint']}` : '';
    // A reading says what the value counts as; the example then says what to write instead.
    const example =
      node.examples !== undefined && (hint === '' || reading !== undefined) ? ` Example: ${JSON.stringify(node.examples[0])}.` : '';
    const outcome = node['x-stops']?.(value)
      ? 'the run fails on it, as the reference does'
      : 'the value is tolerated but may not do what you meant';
    this.findings.push({ path, message: `${path}: ${problem}; ${outcome}.${hint}${example}` });
  }
}
