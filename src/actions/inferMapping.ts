/**
 * `infer_mapping` (spec 05 §6): runs the selected chain like test_request and derives a user
 * mapping (04 §7.2) from the records: one shared structure tree over all records, objects
 * flattened down to `__NESTING_LEVEL`, lists and deeper objects as forceType columns, parent
 * keys for a child job's placeholders, userData columns for a top-level job.
 */
import type { Value } from '../php/value.ts';
import type { ActionContext } from './context.ts';
import { fill, objectAt } from './dialect.ts';
import { HelperError, PY, userError } from './envelope.ts';
import { dict, pythonStr, pythonTypeName } from './pythonValues.ts';
import { registerSyncAction } from './registry.ts';
import { runChain } from './requestEngine.ts';

type NodeType = 'scalar' | 'object' | 'null' | 'list_of_objects' | 'list_of_scalars' | 'list';

interface Node {
  type: NodeType;
  children: Map<string, Node>;
}

const TYPE_NAME: Record<NodeType, string> = {
  scalar: 'SCALAR',
  object: 'DICT',
  null: 'NULL',
  list_of_objects: 'LIST_OF_DICTS',
  list_of_scalars: 'LIST_OF_SCALARS',
  list: 'LIST',
};

function typeOf(v: Value, path: readonly string[]): NodeType {
  if (v === null) return 'null';
  if (v instanceof Map) return 'object';
  if (!Array.isArray(v)) return 'scalar';
  const kinds = new Set(v.filter((e) => e !== null).map((e) => (e instanceof Map ? 'o' : Array.isArray(e) ? 'l' : 's')));
  if (kinds.size > 1) {
    throw new HelperError(PY.structure, `Value types of list ${path.join('.')} are inconsistent : ${pythonStr(v)}`);
  }
  if (kinds.has('o')) return 'list_of_objects';
  if (kinds.has('s')) return 'list_of_scalars';
  return 'list';
}

/** §6.3 step 4: the type of a node seen again with another type. */
function merged(old: NodeType, seen: NodeType, path: readonly string[]): NodeType {
  if (old === seen || seen === 'null') return old;
  if (old === 'null') return seen;
  if (old === 'list' && (seen === 'list_of_scalars' || seen === 'list_of_objects')) return seen;
  if (seen === 'list') return old;
  const pair = new Set([old, seen]);
  if (pair.has('object') && pair.has('list_of_objects')) return 'list_of_objects';
  if (pair.has('scalar') && pair.has('list_of_scalars')) return 'list_of_scalars';
  throw new HelperError(
    PY.structure,
    `Incompatible types of NodeType.${TYPE_NAME[old]} and NodeType.${TYPE_NAME[seen]} in node_path [${pythonStr([...path])}]`,
  );
}

function analyse(tree: Map<string, Node>, record: Map<string, Value>, path: string[]): void {
  for (const [key, value] of record) {
    const here = [...path, key];
    const seen = typeOf(value, here);
    let node = tree.get(key);
    if (!node) {
      node = { type: seen, children: new Map() };
      tree.set(key, node);
    } else node.type = merged(node.type, seen, here);
    if (value instanceof Map) analyse(node.children, value, here);
  }
}

/** §6.5: whitespace runs → `_`, other characters outside [A-Za-z0-9_] → `_`, one leading `_` dropped. */
export function normalizeColumnName(name: string): string {
  const joined = name.trim().split(/\s+/).join('_');
  const cleaned = [...joined].map((c) => (/^[A-Za-z0-9_]$/.test(c) ? c : '_')).join('');
  return cleaned.startsWith('_') ? cleaned.slice(1) : cleaned;
}

function column(destination: string): Value {
  return dict([
    ['type', 'column'],
    ['mapping', dict([['destination', destination]])],
    ['forceType', true],
  ]);
}

function buildMapping(tree: Map<string, Node>, nesting: number, primaryKeys: readonly string[]): Map<string, Value> {
  const mapping = dict();
  const walk = (nodes: Map<string, Node>, path: string[], base: string, depth: number): void => {
    for (const [key, node] of nodes) {
      const here = [...path, key];
      const name = base === '' ? key : `${base}_${key}`;
      const joined = here.join('.');
      if (node.type === 'scalar') {
        const destination = normalizeColumnName(name);
        mapping.set(
          joined,
          primaryKeys.includes(joined)
            ? dict([
                [
                  'mapping',
                  dict([
                    ['destination', destination],
                    ['primaryKey', true],
                  ]),
                ],
              ])
            : destination,
        );
      } else if (node.type === 'object' && depth <= nesting) walk(node.children, here, name, depth + 1);
      else mapping.set(joined, column(normalizeColumnName(name)));
    }
  };
  walk(tree, [], '', 1);
  return mapping;
}

function destinationOf(entry: Value): string | undefined {
  if (typeof entry === 'string') return entry;
  const m = entry instanceof Map ? entry.get('mapping') : undefined;
  const d = m instanceof Map ? m.get('destination') : undefined;
  return typeof d === 'string' ? d : undefined;
}

function withDestination(entry: Value, destination: string): Value {
  if (typeof entry === 'string') return destination;
  const copy = dict(entry as Map<string, Value>);
  copy.set('mapping', dict([...(copy.get('mapping') as Map<string, Value>), ['destination', destination]]));
  return copy;
}

export async function inferMapping(ctx: ActionContext): Promise<Value> {
  const { chain, records, httpError } = await runChain(ctx);
  if (httpError !== undefined) throw userError(httpError);
  if (records.length === 0) throw userError('The request returned no data to infer mapping from.');
  const selected = chain[chain.length - 1]!;
  const parentKeys = chain.length > 1 ? [...objectAt(selected, 'placeholders').keys()].map((n) => `parent_${n}`) : [];
  const userData = fill(ctx.configuration.userData, ctx.user, ctx.env, true) as Map<string, Value>;
  const topLevel = !pythonStr(ctx.configuration.selectedJob).includes('_');
  const tree = new Map<string, Node>();
  for (let record of records) {
    if (Array.isArray(record)) {
      if (record.length === 0) throw new HelperError(PY.index, 'list index out of range');
      record = record[0]!;
    }
    if (!(record instanceof Map)) throw new HelperError(PY.attribute, `'${pythonTypeName(record)}' object has no attribute 'items'`);
    if (userData.size > 0 && topLevel) {
      record = dict(record);
      for (const [key, value] of userData) {
        if (record.has(key)) throw userError(`User data key [${key}] already exists in the response data, please change the name.`);
        record.set(key, value);
      }
    }
    analyse(tree, record, []);
  }
  const nesting = ctx.configuration.own.get('__NESTING_LEVEL');
  const primary = ctx.configuration.own.get('__PRIMARY_KEY');
  const mapping = buildMapping(
    tree,
    // A numeric string (a UI text field) is read as its number; anything else is the default.
    typeof nesting === 'number' ? nesting : typeof nesting === 'string' && /^\s*\d+\s*$/.test(nesting) ? Number(nesting) : 2,
    Array.isArray(primary) ? primary.map((p) => pythonStr(p)) : [],
  );
  for (const key of parentKeys) {
    if (mapping.has(key)) throw userError(`Parent ${key} is already in the mapping, please change the placeholder name`);
    mapping.set(
      key,
      dict([
        ['type', 'user'],
        [
          'mapping',
          dict([
            ['destination', key],
            ['primaryKey', true],
          ]),
        ],
      ]),
    );
  }
  if (topLevel) {
    for (const key of userData.keys()) {
      if (mapping.has(key))
        mapping.set(
          key,
          dict([
            ['type', 'user'],
            ['mapping', dict([['destination', key]])],
          ]),
        );
    }
  }
  // §6.4 step 3: the k-th repeat of a destination gets `_k` (not checked again, as in the reference).
  const seen = new Map<string, number>();
  for (const [key, entry] of mapping) {
    const destination = destinationOf(entry);
    if (destination === undefined) continue;
    const count = seen.get(destination) ?? 0;
    seen.set(destination, count + 1);
    if (count > 0) mapping.set(key, withDestination(entry, `${destination}_${count}`));
  }
  return mapping;
}

registerSyncAction({
  name: 'infer_mapping',
  description:
    'Runs the job chain like test_request and answers a user mapping for the selected job, inferred from the records ' +
    '(parameters.__NESTING_LEVEL, default 2; parameters.__PRIMARY_KEY, JSON paths).',
  inputs: {
    __SELECTED_JOB: 'The job whose records the mapping is inferred from, as for `test_request`.',
    __NESTING_LEVEL: 'How deep nested objects are flattened into columns (default 2); deeper objects become one JSON column.',
    __PRIMARY_KEY: 'JSON paths of the primary key columns, such as `["id"]` (default none).',
  },
  answer:
    'A user mapping for the selected job: column → destination, with `parent_⟨placeholder⟩` primary keys for a child job and `userData` keys as `user` columns for a top-level job.',
  run: inferMapping,
});
