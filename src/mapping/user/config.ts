/**
 * Reading `config.mappings` (spec 04 §7.1, §7.2, §7.5): the start-up checks, the parsed form of
 * each definition, and the static tree of mappers that fixes the order of the final table set
 * (§7.9). Nothing here raises the errors that the reference raises while processing data: those
 * are the mapper's (mapper.ts), so that they surface at the same moment as in the reference.
 */
import { childPath } from '../../errors/configPath.ts';
import { UserError } from '../../errors/UserError.ts';
import { isCanonicalIntKey } from '../../php/serialize.ts';
import { PhpFloat, type Value, isEmpty, isList, isMap, member, phpType, truthy } from '../../php/value.ts';
import { phpFloatString } from '../../php/stringConversion.ts';
import { mappingsPath } from './errors.ts';

/** PHP string form of a configured name; arrays (an illegal key in PHP) read as `Array`. */
export function nameText(v: Value | undefined): string {
  if (v === undefined || v === null || v === false) return '';
  if (v === true) return '1';
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'bigint') return String(v);
  if (v instanceof PhpFloat) return phpFloatString(v.value);
  return 'Array';
}

/** Entries of a configuration map, or of a configuration list (keys `0`, `1`, …); else none. */
export function configEntries(v: Value | undefined): [string, Value][] {
  if (isMap(v)) return [...v];
  if (isList(v)) return v.map((item, i) => [String(i), item]);
  return [];
}

export interface ColumnDefinition {
  /** `column` (also: `type` missing/empty), `user`, or any other `type` value (`other`). */
  kind: 'column' | 'user' | 'other';
  key: string;
  configPath: string;
  /** `mapping.destination`; `null` when missing or PHP-empty. */
  destination: string | null;
  primaryKey: boolean;
  /** `forceType` at the top level of the definition (a `mapping.forceType` is ignored). */
  forceType: boolean;
  delimiter: string;
}

export interface ParentKeyOptions {
  /** `parentKey.destination`; `null` = default `<parent table>_pk`. */
  destination: string | null;
  primaryKey: boolean;
  disable: boolean;
}

export interface TableDefinition {
  kind: 'table';
  key: string;
  configPath: string;
  /** `destination`; `null` when missing or PHP-empty. */
  destination: string | null;
  tableMapping: Value | undefined;
  parentKey: ParentKeyOptions;
  delimiter: string;
}

/** A string shorthand under a canonical integer key: the reference does not expand it and fails. */
export interface UnsupportedDefinition {
  kind: 'unsupported';
  key: string;
  configPath: string;
}

export type Definition = ColumnDefinition | TableDefinition | UnsupportedDefinition;

function delimiterOf(def: Value | undefined): string {
  const d = member(def, 'delimiter');
  return isEmpty(d) ? '.' : nameText(d);
}

function optionalName(v: Value | undefined): string | null {
  return isEmpty(v) ? null : nameText(v);
}

/** One definition of a mapping (§7.2). Never throws. */
export function parseDefinition(key: string, def: Value, basePath: string): Definition {
  const configPath = childPath(basePath, key);
  if (typeof def === 'string') {
    if (isCanonicalIntKey(key)) return { kind: 'unsupported', key, configPath };
    return { kind: 'column', key, configPath, destination: optionalName(def), primaryKey: false, forceType: false, delimiter: '.' };
  }
  // Anything that is not a map reads like an empty definition in PHP (offsets of a scalar are null).
  const map = isMap(def) ? def : undefined;
  const type = member(map, 'type');
  if (type === 'table') {
    const parentKey = member(map, 'parentKey');
    return {
      kind: 'table',
      key,
      configPath,
      destination: optionalName(member(map, 'destination')),
      tableMapping: member(map, 'tableMapping'),
      parentKey: {
        destination: optionalName(member(parentKey, 'destination')),
        primaryKey: truthy(member(parentKey, 'primaryKey')),
        disable: truthy(member(parentKey, 'disable')),
      },
      delimiter: delimiterOf(map),
    };
  }
  const kind = isEmpty(type) || type === 'column' ? 'column' : type === 'user' ? 'user' : 'other';
  const mapping = member(map, 'mapping');
  return {
    kind,
    key,
    configPath,
    destination: optionalName(member(mapping, 'destination')),
    primaryKey: truthy(member(mapping, 'primaryKey')),
    forceType: truthy(member(map, 'forceType')),
    delimiter: delimiterOf(map),
  };
}

/**
 * One node of the mapper tree: the root mapper of a dataType, or a nested table mapper keyed by
 * its `destination` within its parent (two table entries with the same destination share it; a
 * destination equal to the current table is the mapper itself and is not a node).
 */
export interface MapperSpec {
  /** Table name: the dataType for a root, the `destination` for a nested mapper. */
  name: string;
  /** The dataType of the root of this tree (used in data-error messages). */
  dataType: string;
  /** Configuration path of the mapping object (for error locations). */
  configPath: string;
  definitions: Definition[];
  /** Pre-order position in the final table set (§7.9): roots in key order, own table, then children. */
  rank: number;
  children: Map<string, MapperSpec>;
}

/** How a table definition resolves its target mapper (the checks the mapper runs, in its order). */
export type ChildResolution =
  | { kind: 'error'; message: string; configPath: string }
  | { kind: 'self' }
  | { kind: 'existing'; destination: string }
  | { kind: 'create'; destination: string; tableMapping: Value };

/**
 * Checks run when a table definition is reached, in the reference's order: destination set,
 * self-reference needs `parentKey.disable`, an existing child mapper is reused, else
 * `tableMapping` must be set. `exists` tells whether the parent already has that child mapper.
 */
export function resolveChild(parent: { name: string }, def: TableDefinition, exists: (destination: string) => boolean): ChildResolution {
  if (def.destination === null) {
    return { kind: 'error', message: `Key 'destination' is not set for table '${def.key}'.`, configPath: def.configPath + '.destination' };
  }
  if (def.destination === parent.name) {
    if (!def.parentKey.disable) {
      return {
        kind: 'error',
        message: `'parentKey.disable' must be true to parse child values into parent's table`,
        configPath: def.configPath + '.parentKey.disable',
      };
    }
    return { kind: 'self' };
  }
  if (exists(def.destination)) return { kind: 'existing', destination: def.destination };
  if (isEmpty(def.tableMapping)) {
    return {
      kind: 'error',
      message: `Key 'tableMapping' is not set for table '${def.key}'.`,
      configPath: def.configPath + '.tableMapping',
    };
  }
  return { kind: 'create', destination: def.destination, tableMapping: def.tableMapping! };
}

function parseMapping(mapping: Value | undefined, configPath: string): Definition[] {
  return configEntries(mapping).map(([key, def]) => parseDefinition(key, def, configPath));
}

/**
 * §7.1 start-up checks and the static mapper tree. `config.mappings` that is PHP-empty or not a
 * map/list means "no mappings". Throws the §7.1 user errors (not prefixed).
 */
export function buildMapperSpecs(mappings: Value | undefined): Map<string, MapperSpec> {
  const roots = new Map<string, MapperSpec>();
  if (isEmpty(mappings)) return roots;
  let rank = 0;
  const build = (name: string, dataType: string, mapping: Value | undefined, configPath: string): MapperSpec => {
    const spec: MapperSpec = {
      name,
      dataType,
      configPath,
      definitions: parseMapping(mapping, configPath),
      rank: rank++,
      children: new Map(),
    };
    for (const def of spec.definitions) {
      if (def.kind !== 'table') continue;
      const r = resolveChild(spec, def, (d) => spec.children.has(d));
      if (r.kind !== 'create') continue;
      spec.children.set(r.destination, build(r.destination, dataType, r.tableMapping, def.configPath + '.tableMapping'));
    }
    return spec;
  };
  for (const [dataType, mapping] of configEntries(mappings)) {
    const path = mappingsPath(dataType);
    if (isEmpty(mapping)) {
      throw new UserError(`Empty mapping for '${dataType}' data type in 'mappings' config.`, { configPath: path });
    }
    if (!isMap(mapping) && !isList(mapping)) {
      throw new UserError(
        `Mapping must be 'array' type, '${phpType(mapping)}' type given, for '${dataType}' data type in 'mappings' config.`,
        {
          configPath: path,
        },
      );
    }
  }
  for (const [dataType, mapping] of configEntries(mappings))
    roots.set(dataType, build(dataType, dataType, mapping, mappingsPath(dataType)));
  return roots;
}
