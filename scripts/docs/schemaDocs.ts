/**
 * docs/configuration.md from the configuration JSON Schema (src/config/schema.ts): every key with
 * its type, default, meaning and an example. The pagination methods and authentication types
 * have pages of their own (registryDocs.ts); this page links them.
 */
import { GUIDES } from './guides.ts';
import { code, json, jsonBlock, type Node, table, userText } from './markdown.ts';

/** Definitions documented on their own page instead of a section here. */
export const OWN_PAGES: Record<string, string> = {
  pagination: 'pagination.md',
  authentication: 'authentication.md',
};

/** Section titles of the other definitions (a `$ref` to them links the section). */
const TITLES: Record<string, string> = {
  job: 'Jobs',
  mapping: 'Mappings',
  mappingColumn: 'Mapping columns',
};

function titleOf(definition: string): string {
  return TITLES[definition] ?? definition;
}

function refName(ref: string): string {
  return ref.replace('#/definitions/', '');
}

function refLink(ref: string): string {
  const name = refName(ref);
  if (OWN_PAGES[name]) return `[${name}](${OWN_PAGES[name]})`;
  return `[${titleOf(name).toLowerCase()}](#${titleOf(name).toLowerCase().replace(/ /g, '-')})`;
}

/** The node and its `allOf` parts: where properties, items, types and checks may be. */
function parts(node: Node): Node[] {
  return [node, ...(node.allOf ?? []).flatMap((p) => parts(p))];
}

function properties(node: Node): [string, Node][] {
  const out = new Map<string, Node>();
  for (const part of parts(node)) for (const [k, v] of Object.entries(part.properties ?? {})) out.set(k, { ...(out.get(k) ?? {}), ...v });
  return [...out];
}

function itemsOf(node: Node): Node | undefined {
  return parts(node).find((p) => p.items !== undefined)?.items;
}

function valuesOf(node: Node): Node | undefined {
  const found = parts(node).find((p) => typeof p.additionalProperties === 'object')?.additionalProperties;
  return typeof found === 'object' ? found : undefined;
}

/** The type column: JSON types, a constant, a choice, or a link to where the shape is documented. */
export function typeText(node: Node): string {
  if (node.$ref) return `object, see ${refLink(node.$ref)}`;
  if (node.const !== undefined) return `${code(json(node.const))}`;
  if (node.enum) return `one of ${node.enum.map((v) => code(json(v))).join(', ')}`;
  const types = parts(node)
    .map((p) => p.type)
    .find((t) => t !== undefined);
  const list = types === undefined ? [] : Array.isArray(types) ? [...types] : [types as string];
  const items = itemsOf(node);
  const values = valuesOf(node);
  if (items?.$ref) return `list of ${refLink(items.$ref)}`;
  if (values?.$ref) return `object: name → ${refLink(values.$ref)}`;
  // An empty list is an empty map to the reference: `object` or `list` with no items says "map".
  const map = list.includes('object') && parts(node).some((p) => p['maxItems'] === 0);
  const text = list
    .filter((t) => !(map && t === 'array'))
    .map((t) => (t === 'array' ? 'list' : t))
    .join(' or ');
  return text === '' ? 'any' : text;
}

/** The meaning column: the description, and the message of each check the value must pass. */
/** The schema's definitions, for `$ref` rows (set by the page renderers). */
let definitions: Record<string, Node> = {};

export function useDefinitions(schema: Node): void {
  definitions = (schema['definitions'] ?? {}) as Record<string, Node>;
}

function target(node: Node): Node | undefined {
  return node.$ref ? definitions[refName(node.$ref)] : undefined;
}

function meaningText(node: Node): string {
  const text = userText(node.description ?? target(node)?.description ?? '');
  const errors = [...new Set(parts(node).flatMap((p) => (p['x-error'] ? [p['x-error']] : [])))];
  const checks = errors.map((e) => `Error when invalid: ${code(e)}`).join(' ');
  return [text, checks].filter(Boolean).join(' ');
}

function defaultText(node: Node): string {
  return node.default === undefined ? '' : code(json(node.default));
}

/** Longest example synthesised from the keys' own examples (a full section is shown at the top). */
const MAX_SYNTHESISED = 140;

/**
 * An example value for a key: the schema's own examples; else one derived from the schema (the
 * referenced definition's example, a constant, a choice other than the default, the keys'
 * examples put together, the default); undefined when the schema gives nothing to go on.
 */
export function exampleOf(node: Node, depth = 0): unknown {
  if (node.examples && node.examples.length > 0) return node.examples[0];
  const referenced = target(node);
  if (referenced) return referenced.examples?.[0];
  if (node.const !== undefined) return node.const;
  if (node.enum) return node.enum.find((v) => v !== node.default && v !== null) ?? node.enum[0];
  const types = parts(node).flatMap((p) => (p.type === undefined ? [] : Array.isArray(p.type) ? p.type : [p.type]));
  if (types[0] === 'boolean') return typeof node.default === 'boolean' ? !node.default : true;
  const props = properties(node);
  if (props.length > 0 && depth < 3) {
    const out: Record<string, unknown> = {};
    for (const [key, child] of props) {
      const value = exampleOf(child, depth + 1);
      if (value === undefined) continue;
      out[key] = value;
      if (JSON.stringify(out).length > MAX_SYNTHESISED) {
        delete out[key];
        break;
      }
    }
    if (Object.keys(out).length > 0) return out;
  }
  const items = itemsOf(node);
  if (items && types.includes('array') && depth < 3) {
    const item = exampleOf(items, depth + 1);
    if (item !== undefined) return [item];
  }
  return node.default;
}

function exampleText(node: Node): string {
  if (node.examples && node.examples.length > 0) return node.examples.map((e) => code(json(e))).join('<br>');
  const example = exampleOf(node);
  return example === undefined ? '' : code(json(example));
}

export interface OptionRow {
  path: string;
  node: Node;
}

/**
 * The keys below `node`, depth first. A `$ref` is a link, not a descent (its definition has its
 * own section); list items and map values with their own keys are descended as `key[]` / `key.*`.
 */
export function optionRows(node: Node, prefix: string, out: OptionRow[] = []): OptionRow[] {
  for (const [key, child] of properties(node)) {
    // A key documented as belonging elsewhere is not an option here (see misplacedKeys).
    if (child['x-misplaced'] !== undefined) continue;
    const path = prefix === '' ? key : `${prefix}.${key}`;
    out.push({ path, node: child });
    if (child.$ref) continue;
    optionRows(child, path, out);
    const items = itemsOf(child);
    if (items && !items.$ref && properties(items).length > 0) optionRows(items, `${path}[]`, out);
    const values = valuesOf(child);
    if (values && !values.$ref && properties(values).length > 0) optionRows(values, `${path}.*`, out);
  }
  return out;
}

export function optionTable(rows: OptionRow[]): string[] {
  return table(
    ['option', 'type', 'default', 'meaning', 'example'],
    rows.map(({ path, node }) => [code(path), typeText(node), defaultText(node), meaningText(node), exampleText(node)]),
  );
}

const MINIMAL_EXAMPLE = {
  parameters: {
    api: { baseUrl: 'https://api.example.com/v1/', pagination: { method: 'offset', limit: 100 } },
    config: {
      outputBucket: 'crm',
      '#token': 'secret',
      http: { headers: { Authorization: { function: 'concat', args: ['Bearer ', { attr: '#token' }] } } },
      jobs: [
        {
          endpoint: 'customers',
          dataField: 'data',
          children: [{ endpoint: 'customers/{customer_id}/orders', dataType: 'orders', placeholders: { customer_id: 'id' } }],
        },
      ],
    },
  },
};

/** Keys the schema marks as written in the wrong place: where they appear → where they belong. */
function misplacedKeys(node: Node, prefix: string, out: [string, string][] = [], seen = new Set<Node>()): [string, string][] {
  if (seen.has(node)) return out;
  seen.add(node);
  for (const [key, child] of properties(node)) {
    const path = prefix === '' ? key : `${prefix}.${key}`;
    if (typeof child['x-misplaced'] === 'string') out.push([path, child['x-misplaced']]);
    else misplacedKeys(child, path, out, seen);
  }
  return out;
}

export function renderConfigurationPage(schema: Node): string {
  useDefinitions(schema);
  const root = schema;
  const parameters = properties(root).find(([k]) => k === 'parameters')?.[1] ?? {};
  const definitions = (root['definitions'] ?? {}) as Record<string, Node>;
  const out: string[] = [
    '# Configuration reference',
    '',
    '<!-- Generated from src/config/schema.ts by `npm run docs`; do not edit by hand. -->',
    '',
    'The extractor reads `config.json` from the data folder (`$KBC_DATADIR`, default `/data`). Its',
    '`parameters` say how to call the API (`api`) and what to extract (`config`). A small, complete example:',
    '',
    ...jsonBlock(MINIMAL_EXAMPLE),
    '',
    'It reads `customers` page by page (`offset=0`, `100`, …), writes the records under `data` of each',
    'response to the table `in.c-crm.customers`, and, for every customer, reads its orders into',
    '`in.c-crm.orders`. The token is sent in a header and never printed in the log.',
    '',
    'Each table below lists the keys of one part of the configuration: the type, the default used',
    'when the key is missing, what it does, and an example value. Keys starting with `#` are',
    'encrypted by the platform and hidden in every log line. Values documented as "user function"',
    'may be a [function](functions.md) evaluated at run time.',
    '',
    'More: [pagination methods](pagination.md) · [authentication types](authentication.md) ·',
    '[user functions](functions.md) · [migrating from the reference extractor](migration.md).',
    '',
  ];
  for (const [key, section] of properties(parameters)) {
    if (section['x-misplaced'] !== undefined) continue;
    out.push(`## \`parameters.${key}\``, '');
    const description = userText(section.description ?? '');
    if (description) out.push(description, '');
    // The section's own example: the one of the page's introduction, when it has this section.
    const intro = (MINIMAL_EXAMPLE.parameters as Record<string, unknown>)[key];
    const own = intro !== undefined && !section.examples ? { ...section, examples: [intro] } : section;
    const rows = [{ path: `parameters.${key}`, node: own }, ...optionRows(section, `parameters.${key}`)];
    out.push(...optionTable(rows), '');
  }
  out.push('## Other root keys', '', 'Written by the platform; listed so you recognise them.', '');
  out.push(
    ...optionTable(
      properties(root)
        .filter(([k, node]) => k !== 'parameters' && node['x-misplaced'] === undefined)
        .map(([path, node]) => ({ path, node })),
    ),
    '',
  );
  const misplaced = misplacedKeys(properties(root).find(([k]) => k === 'parameters')?.[1] ?? {}, 'parameters');
  misplacedKeys({ properties: Object.fromEntries(properties(root).filter(([k]) => k !== 'parameters')) }, '', misplaced);
  if (misplaced.length > 0) {
    out.push('## Keys in the wrong place', '');
    out.push('These keys are not read where they are written; the run says so in a WARNING naming where they belong.', '');
    out.push(
      ...table(
        ['written as', 'belongs in'],
        misplaced.map(([at, target]) => [code(at), target.startsWith('parameters') ? code(target) : target]),
      ),
      '',
    );
  }
  for (const [name, definition] of Object.entries(definitions)) {
    if (OWN_PAGES[name]) continue;
    out.push(`## ${titleOf(name)}`, '');
    const description = userText(definition.description ?? '');
    if (description) out.push(description, '');
    if (definition.examples?.[0] !== undefined) out.push('Example:', '', ...jsonBlock(definition.examples[0]), '');
    const rows = optionRows(definition, '');
    if (rows.length > 0) out.push(...optionTable(rows), '');
    else out.push(`Each entry: ${typeText(definition)}.`, '');
    if (GUIDES[name]) out.push(...GUIDES[name], '');
  }
  return out.join('\n');
}
