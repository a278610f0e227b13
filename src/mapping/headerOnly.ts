/**
 * Header-only tables for mapped tables without output (spec 04 §7.10, 01 §1.4).
 *
 * After all tables are written, the reference walks every (dataType, mapping) pair of a
 * configuration's `mappings` — including dataTypes no job used — and, for every table whose file
 * does not exist yet, writes a CSV with only the header and a manifest whose keys are ordered
 * `incremental`, `destination`, `primary_key`. Those headers differ from the real mapper's:
 * no link columns, and the parent-key column is always appended.
 */
import { UserError } from '../errors/UserError.ts';
import { type Value, isEmpty, isMap, member, truthy } from '../php/value.ts';
import { configEntries, nameText } from './user/config.ts';
import { mappingsPath } from './user/errors.ts';

export interface HeaderOnlyTable {
  /** Table name (the sink's table key, without bucket). */
  table: string;
  /** File name under `out/tables/`: `<bucket>.<table>`, or `<table>` without a bucket. */
  file: string;
  /** Manifest `destination` (`in.c-<bucket>.<table>`), or `null` without a bucket. */
  destination: string | null;
  header: string[];
  /** Manifest `primary_key` (write it only when non-empty). */
  primaryKey: string[];
  /** Where the configuration gives the table's name: its key in `mappings`, or a `destination`. */
  configPath: string;
}

interface ParentKeyParam {
  destination: Value | undefined;
  primaryKey: boolean;
  disable: boolean;
}

/**
 * The candidates, in the reference's order (children before their parent, dataTypes in key
 * order). Each table name appears once (the first candidate wins: a later one would find the
 * file already written). The caller writes those whose file does not exist yet.
 * Throws the §7.10 user errors (`Missing mapping key at item with type "…"`, `Invalid mapping type "…".`).
 */
export function headerOnlyTables(mappings: Value | undefined, bucket: string | null): HeaderOnlyTable[] {
  const out: HeaderOnlyTable[] = [];
  const seen = new Set<string>();
  if (isEmpty(mappings)) return out;

  const fill = (name: string, namePath: string, mappingValue: Value | undefined, parentKey: ParentKeyParam | null, path: string): void => {
    const cols: string[] = [];
    const pk: string[] = [];
    let items: [string, Value][] = configEntries(mappingValue);
    let itemPath = (key: string): string => path + '.' + key;
    if (isMap(mappingValue) && mappingValue.get('type') === 'table') {
      items = [['', mappingValue]];
      itemPath = () => path;
    }
    for (const [key, d] of items) {
      const dPath = itemPath(key);
      if (typeof d === 'string') {
        cols.push(d);
        continue;
      }
      const type = member(d, 'type');
      if (isEmpty(type) || type === 'column' || type === 'user') {
        const mapping = member(d, 'mapping');
        if (isEmpty(mapping)) {
          throw new UserError(`Missing mapping key at item with type "${isEmpty(type) ? 'column' : nameText(type)}"`, {
            configPath: dPath,
          });
        }
        const destination = nameText(member(mapping, 'destination'));
        cols.push(destination);
        if (truthy(member(mapping, 'primaryKey'))) pk.push(destination);
      } else if (type === 'table') {
        const given = member(d, 'parentKey');
        const defaultDestination = name + '_pk';
        const param: ParentKeyParam = isEmpty(given)
          ? { destination: defaultDestination, primaryKey: false, disable: false }
          : {
              destination: isEmpty(member(given, 'destination')) ? defaultDestination : member(given, 'destination'),
              primaryKey: truthy(member(given, 'primaryKey')),
              disable: truthy(member(given, 'disable')),
            };
        const tableMapping = member(d, 'tableMapping');
        const tableName = nameText(member(d, 'destination'));
        fill(tableName, dPath + '.destination', isEmpty(tableMapping) ? undefined : tableMapping, param, dPath + '.tableMapping');
      } else {
        throw new UserError(`Invalid mapping type "${nameText(type)}".`, { configPath: dPath + '.type' });
      }
    }
    if (parentKey !== null && !parentKey.disable) {
      const column = nameText(parentKey.destination);
      cols.push(column);
      if (parentKey.primaryKey) pk.push(column);
    }
    if (cols.length === 0 || seen.has(name)) return;
    seen.add(name);
    out.push({
      table: name,
      file: bucket === null || bucket === '' ? name : bucket + '.' + name,
      destination: bucket === null || bucket === '' ? null : 'in.c-' + bucket + '.' + name,
      header: cols,
      primaryKey: pk,
      configPath: namePath,
    });
  };

  for (const [dataType, mapping] of configEntries(mappings)) fill(dataType, mappingsPath(dataType), mapping, null, mappingsPath(dataType));
  return out;
}
