/**
 * The cases of wrongOptions.test.ts, derived from the configuration schema (src/config/schema.ts):
 * every option of `parameters` (api, config, a job, each pagination method, each authentication
 * type, a mapping column, the iterations) gets a wrong value of every JSON type its node does not
 * admit, plus a negative and a fractional number where an integer is expected and an unknown name
 * where an enum or a discriminator is expected. Each wrong value goes into a configuration that is
 * valid otherwise: a pagination method's or authentication type's context is the working example
 * its spec registers (with the attributes and `authorization` it reads), other contexts take the
 * schema's own examples; URLs point at the test's local server.
 */
import '../../src/auth/index.ts';
import { authMethodTypes, getAuthMethod } from '../../src/auth/registry.ts';
import { configSchema } from '../../src/config/schema.ts';
import { paginationMethodSpecs } from '../../src/pagination/index.ts';
import type { SchemaNode } from '../../src/spec/schemaNode.ts';

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
/** A config path as segments: strings are keys, numbers list indexes. */
export type Segments = readonly (string | number)[];

export interface WrongCase {
  /** `parameters.api.pagination.limit` style (what an error must name). */
  path: string;
  value: Json;
  kind: WrongKind;
  /** The valid configuration the wrong value replaces a member of (URLs use `$B`). */
  base: Json;
  segments: Segments;
}

const root = configSchema as unknown as SchemaNode;
const definitions = (root['definitions'] ?? {}) as Record<string, SchemaNode>;

function resolve(node: SchemaNode): SchemaNode {
  return node.$ref === undefined ? node : resolve(definitions[node.$ref.replace('#/definitions/', '')] ?? {});
}

export function pathOf(segments: Segments): string {
  return segments.map((s, i) => (typeof s === 'number' ? `[${s}]` : i === 0 ? s : `.${s}`)).join('');
}

/** A schema example with URLs replaced by the local server's (`$B`): no request leaves loopback. */
function localUrls(v: Json): Json {
  if (typeof v === 'string') return /^https?:\/\//i.test(v) ? '$B' : v;
  if (Array.isArray(v)) return v.map(localUrls);
  if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, localUrls(x)]));
  return v;
}

function typesOf(node: SchemaNode): string[] {
  return node.type === undefined ? [] : typeof node.type === 'string' ? [node.type] : [...node.type];
}

const REPRESENTATIVE: Record<string, Json> = {
  string: 'wrong',
  integer: 7,
  boolean: true,
  null: null,
  object: { wrong: 1 },
  array: ['wrong'],
};

/**
 * What a wrong value is: a JSON type the node does not admit (`type`, also a fraction for an
 * integer), an unknown name (`name`), a negative count (`count`), or `null` — which the reference
 * reads as "not set" almost everywhere.
 */
export type WrongKind = 'type' | 'name' | 'count' | 'null';

/** Wrong values for a node: every JSON type it does not admit, bad counts, unknown names. */
export function wrongValues(node: SchemaNode): { value: Json; kind: WrongKind }[] {
  const types = typesOf(node);
  if (types.length === 0 && node.enum === undefined) return [];
  const admits = (t: string): boolean => types.includes(t) || (t === 'integer' && types.includes('number'));
  const out = Object.entries(REPRESENTATIVE)
    .filter(([t]) => !admits(t))
    .map(([t, value]) => ({ value, kind: (t === 'null' ? 'null' : 'type') as WrongKind }));
  if (types.includes('integer') && !types.includes('number')) out.push({ value: 2.5, kind: 'type' });
  if (types.includes('integer')) out.push({ value: -3, kind: 'count' });
  if (node.enum !== undefined) out.push({ value: 'noSuchName', kind: 'name' });
  return out;
}

/** A copy of `base` with `value` at `segments` (intermediate objects created). */
export function withValue(base: Json, segments: Segments, value: Json): Json {
  const copy = structuredClone(base) as Record<string | number, Json>;
  let cur = copy;
  for (const [i, s] of segments.entries()) {
    if (i === segments.length - 1) cur[s] = value;
    else {
      const next = cur[s];
      if (next === null || typeof next !== 'object') cur[s] = typeof segments[i + 1] === 'number' ? [] : {};
      cur = cur[s] as Record<string | number, Json>;
    }
  }
  return copy;
}

/** The valid configuration every case starts from. */
export const BASE: Json = {
  parameters: {
    api: { baseUrl: '$B' },
    config: { outputBucket: 'b', jobs: [{ endpoint: 'users' }] },
  },
};

function valueAt(v: Json, segments: Segments): Json | undefined {
  let cur: Json | undefined = v;
  for (const s of segments) cur = cur !== null && typeof cur === 'object' ? (cur as Record<string | number, Json>)[s] : undefined;
  return cur;
}

/** The base with an object at `segments`: the one it has, else the node's example, else `{}`. */
function withContext(base: Json, segments: Segments, node: SchemaNode): Json {
  if (valueAt(base, segments) !== undefined) return base;
  const example = (resolve(node).examples ?? [])
    .map((e) => localUrls(e as Json))
    .find((e) => e !== null && typeof e === 'object' && !Array.isArray(e));
  return withValue(base, segments, example ?? {});
}

/** The registered example of a discriminated component (a pagination method, an auth type), as a base. */
function registeredExample(base: Json, at: Segments, key: string, name: string): Json | undefined {
  if (key === 'method') {
    const spec = paginationMethodSpecs().find((m) => m.method === name);
    return spec === undefined ? undefined : withValue(base, at, localUrls(spec.example.pagination as Json));
  }
  if (key !== 'type' || !authMethodTypes().includes(name)) return undefined;
  const { authentication, config, authorization } = getAuthMethod(name).example;
  let out = withValue(base, at, localUrls(authentication as Json));
  for (const [k, v] of Object.entries(config ?? {})) out = withValue(out, ['parameters', 'config', k], localUrls(v as Json));
  for (const [k, v] of Object.entries(authorization ?? {})) out = withValue(out, ['authorization', k], localUrls(v as Json));
  return out;
}

/** Options the walk does not enter: they replace a whole subsystem the test cannot provide (an SSH server). */
const NOT_ENTERED = new Set(['parameters.sshProxy']);

function collect(node: SchemaNode, at: Segments, base: Json, out: WrongCase[]): void {
  const n = resolve(node);
  const key = n['x-discriminator'];
  if (typeof key === 'string' && n.oneOf !== undefined) {
    // Options every variant shares (the stop conditions) are walked in the first variant only.
    const walked = new Set<string>();
    for (const variant of n.oneOf) {
      const d = variant.properties?.[key];
      const own = Object.entries(variant.properties ?? {}).filter(([name, node]) => !walked.has(`${name}:${JSON.stringify(node)}`));
      for (const [name, node] of own) walked.add(`${name}:${JSON.stringify(node)}`);
      const ownVariant = { ...variant, properties: Object.fromEntries(own) };
      if (typeof d?.const !== 'string') {
        walkProperties(ownVariant, at, base, out, key);
        continue;
      }
      const vb = registeredExample(base, at, key, d.const);
      if (vb === undefined) throw new Error(`${pathOf(at)}: no registered example for ${key} ${d.const}`);
      out.push({ path: pathOf([...at, key]), value: 'noSuchName', kind: 'name', base: vb, segments: [...at, key] });
      walkProperties(ownVariant, at, vb, out, key);
    }
    return;
  }
  walkProperties(n, at, base, out);
}

function walkProperties(n: SchemaNode, at: Segments, base: Json, out: WrongCase[], skip?: string): void {
  for (const [name, child] of Object.entries(n.properties ?? {})) {
    if (name === skip || name.startsWith('$')) continue;
    const c = resolve(child);
    if (c.not !== undefined) continue; // a misplaced key: any value is a WARNING naming its place
    const segments = [...at, name];
    const path = pathOf(segments);
    for (const wrong of wrongValues(c)) out.push({ path, ...wrong, base, segments });
    if (NOT_ENTERED.has(path)) continue;
    if (c.properties !== undefined || c.oneOf !== undefined) {
      collect(c, segments, withContext(base, segments, c), out);
    }
    if (c.items !== undefined && typesOf(c).includes('array')) {
      const items = resolve(c.items);
      const itemAt = [...segments, 0];
      for (const wrong of wrongValues(items)) out.push({ path: pathOf(itemAt), ...wrong, base, segments: itemAt });
    }
  }
}

/** Every case, from the schema of `parameters` plus the job, mapping and iteration contexts. */
export function wrongOptionCases(): WrongCase[] {
  const out: WrongCase[] = [];
  const parameters = resolve(root.properties?.['parameters'] ?? {});
  const jobs = ['parameters', 'config', 'jobs'] as const;
  walkProperties(parameters, ['parameters'], BASE, out);
  collect(definitions['job']!, [...jobs, 0], BASE, out);
  const child = withValue(BASE, [...jobs, 0], { endpoint: 'users', children: [{ endpoint: 'users/{id}', placeholders: { id: 'id' } }] });
  collect(definitions['job']!, [...jobs, 0, 'children', 0], child, out);
  const column = ['parameters', 'config', 'mappings', 'users', 'id'];
  collect(definitions['mappingColumn']!, column, withValue(BASE, column, { type: 'column', mapping: { destination: 'id' } }), out);
  return out;
}
