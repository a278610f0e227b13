/**
 * The user-defined mapper (spec 04 §7.3–§7.8): one instance per table of the mapper tree.
 *
 * Rows are written as soon as a batch arrives; the rows a record produces in nested tables are
 * written before the record's own row. Nothing is buffered beyond the row being built.
 */
import { ApplicationError } from '../../errors/ApplicationError.ts';
import { lookup } from '../../php/pathLookup.ts';
import { pjsonOrFalse } from '../../php/jsonEncode.ts';
import { md5Hex, phpSerialize } from '../../php/serialize.ts';
import { type Value, PhpArray, isEmpty, isList, isMap, isScalar } from '../../php/value.ts';
import { varExport } from '../../php/varExport.ts';
import { csvCell } from '../../output/csvCell.ts';
import type { TableWriter } from '../../output/tableSink.ts';
import {
  type ColumnDefinition,
  type Definition,
  type MapperSpec,
  type TableDefinition,
  parseDefinition,
  configEntries,
  resolveChild,
} from './config.ts';
import { badData, badMapping } from './errors.ts';

/** The parent columns of a batch as the mapper sees them (04 §7.7). */
export interface UserData {
  /** Looked up with the path separator `/`. */
  readonly values: PhpArray;
  /** `serialize(userData)` when non-empty, else `''`: appended to link hashes. */
  readonly serialized: string;
}

export function userDataOf(parentColumns: ReadonlyMap<string, Value>): UserData {
  const values = new PhpArray(parentColumns);
  return { values, serialized: values.size > 0 ? phpSerialize(values) : '' };
}

/**
 * A column entry whose key no record had but the batch's parent columns did (`"parent_id":
 * "customer_id"` in a child table): every cell empty, which the run reports once.
 */
export interface UnreadParentColumn {
  table: string;
  key: string;
  destination: string;
  configPath: string;
}

/** Where a mapper opens its table (the merging layer, tableMerge.ts). */
export interface TableOpener {
  openMapperTable(name: string, rank: number, header: readonly string[], primaryKey: () => readonly string[]): TableWriter;
}

interface ParentKey {
  column: string;
  value: string;
}

/** PHP `is_scalar` plus null: what may go into a cell or a primary key. */
function cellSafe(v: Value | undefined): boolean {
  return isScalar(v);
}

/** `json_encode` for `forceType`; a value PHP cannot encode (INF/NaN) gives `false` → empty cell. */
function forcedJson(v: Value): Value {
  return pjsonOrFalse(v, 'p17');
}

export class Mapper {
  readonly spec: MapperSpec;
  private readonly opener: TableOpener;
  private readonly definitions: Definition[];
  /** Own primary-key definitions (column/user with truthy `mapping.primaryKey`), in mapping order. */
  private readonly ownPk: ColumnDefinition[];
  private writer: TableWriter | null = null;
  private parentKey: ParentKey | null = null;
  /** Parent-key column added to the primary key by a parent's `parentKey.primaryKey`. */
  private parentKeyPk: string | null = null;
  /** Child mappers by destination, in creation order. */
  private readonly children = new Map<string, Mapper>();
  /**
   * Column entries named like a parent column: true once a record had the key itself, false
   * while only the parent columns had it (see `unreadParentColumns`).
   */
  private readonly parentNamedColumns = new Map<ColumnDefinition, boolean>();

  constructor(spec: MapperSpec, opener: TableOpener) {
    this.spec = spec;
    this.opener = opener;
    this.definitions = spec.definitions;
    this.ownPk = spec.definitions.filter(
      (d): d is ColumnDefinition => (d.kind === 'column' || d.kind === 'user') && d.primaryKey && d.destination !== null,
    );
  }

  /** §7.3: the mapper's primary key (own columns, then the parent-key column). */
  primaryKey(): string[] {
    const pk = this.ownPk.map((d) => d.destination!);
    if (this.parentKeyPk !== null) pk.push(this.parentKeyPk);
    return pk;
  }

  private hasPrimaryKey(): boolean {
    return this.ownPk.length > 0 || this.parentKeyPk !== null;
  }

  /** `parseBatch` of §7.4: creates the table (header line) if needed, then one row per record. */
  parseBatch(records: readonly Value[], userData: UserData): void {
    if (this.writer === null) this.createTable();
    for (const record of records) this.writeRow(this.map(record, userData));
  }

  private unsupported(def: Definition): never {
    throw new ApplicationError(
      `Unsupported mapping definition at '${def.configPath}': a string shorthand under a numeric key is not expanded by the reference implementation.`,
    );
  }

  /** §7.3 header. */
  private header(): string[] {
    const header: string[] = [];
    const hasPk = this.hasPrimaryKey();
    for (const def of this.definitions) {
      if (def.kind === 'unsupported') this.unsupported(def);
      if (def.kind === 'column' || def.kind === 'user') {
        if (def.destination === null) {
          throw badMapping(`Key 'mapping.destination' is not set for column '${def.key}'.`, def.configPath + '.mapping.destination');
        }
        header.push(def.destination);
      } else if (def.kind === 'table' && !hasPk) {
        if (def.destination === null) {
          throw badMapping(`Key 'destination' is not set for table '${def.key}'.`, def.configPath + '.destination');
        }
        if (!def.parentKey.disable) header.push(def.destination);
      }
    }
    if (this.parentKey !== null) header.push(this.parentKey.column);
    return header;
  }

  private createTable(): void {
    this.writer = this.opener.openMapperTable(this.spec.name, this.spec.rank, this.header(), () => this.primaryKey());
  }

  /** The mapper serving a table definition (§7.5), created on first use. */
  private child(def: TableDefinition): Mapper {
    const r = resolveChild(this.spec, def, (d) => this.children.has(d));
    switch (r.kind) {
      case 'error':
        throw badMapping(r.message, r.configPath);
      case 'self':
        return this;
      case 'existing':
        return this.children.get(r.destination)!;
      case 'create': {
        const spec = this.spec.children.get(r.destination) ?? {
          // Not reachable: the static tree resolves definitions the same way.
          name: r.destination,
          dataType: this.spec.dataType,
          configPath: def.configPath + '.tableMapping',
          definitions: configEntries(r.tableMapping).map(([k, v]) => parseDefinition(k, v, def.configPath + '.tableMapping')),
          rank: Number.MAX_SAFE_INTEGER,
          children: new Map(),
        };
        const child = new Mapper(spec, this.opener);
        this.children.set(r.destination, child);
        return child;
      }
    }
  }

  /** Called by the parent before it hands values to this mapper. */
  private setParentKey(column: string, value: string, primaryKey: boolean): void {
    this.parentKey = { column, value };
    if (primaryKey && this.parentKeyPk === null) this.parentKeyPk = column;
  }

  /**
   * The value linking a record to its nested tables: the joined primary-key values, or (no primary
   * key) the bare md5 of `serialize(record)` followed by `serialize(userData)` when non-empty.
   */
  private linkValue(record: Value, userData: UserData): string {
    if (!this.hasPrimaryKey()) return md5Hex(phpSerialize(record) + userData.serialized);
    const values: Value[] = [];
    for (const def of this.ownPk) {
      if (this.parentKey !== null && def.destination === this.parentKey.column) values.push(this.parentKey.value);
      else if (def.kind === 'user') values.push(lookup(def.key, userData.values, '/'));
      else values.push(lookup(def.key, record, def.delimiter));
    }
    if (this.parentKeyPk !== null)
      values.push(this.parentKey !== null && this.parentKeyPk === this.parentKey.column ? this.parentKey.value : null);
    if (!values.every(cellSafe)) {
      throw badMapping(
        `Only scalar values are allowed in primary key. Primary key: ${pjsonOrFalse(values, 'p17') || ''}`,
        this.spec.configPath,
      );
    }
    return values.map((v) => csvCell(v)).join(',');
  }

  /** §7.4 `map(r, userData)`: destination → value, in insertion order. */
  private map(record: Value, userData: UserData): Map<string, Value> {
    const out = new Map<string, Value>();
    let link: string | undefined;
    const scalarRecord = record !== null && isScalar(record);
    for (const def of this.definitions) {
      if (def.kind === 'unsupported') this.unsupported(def);
      const value = def.key === '' && scalarRecord ? record : lookup(def.key, record, def.delimiter);
      if (def.kind === 'table') {
        const child = this.child(def);
        // A table mapped into itself (§7.5) over a record without the nested value: no rows.
        // The reference treats the missing value as `[null]` when the table has a primary key
        // and maps that null record again, for ever, until PHP runs out of memory; without a
        // primary key it skips the value, as here. (An empty list gives no row either way.)
        if (child === this && isEmpty(value)) continue;
        // A key that selects the record itself ("." or "") maps the same record into the same
        // table again, for ever (the reference runs out of memory): a user error instead.
        if (child === this && value === record) {
          throw badMapping(
            `Table '${def.key}' maps each record of '${this.spec.name}' into the same table again, which never ends. Use the key of the nested records (for example "children").`,
            def.configPath,
          );
        }
        const hasPk = this.hasPrimaryKey();
        if (!hasPk && isEmpty(value)) {
          if (!def.parentKey.disable) out.set(def.destination!, null);
          continue;
        }
        // With a primary key the values are checked even when the parent key is disabled.
        if (hasPk || !def.parentKey.disable) link ??= this.linkValue(record, userData);
        if (!def.parentKey.disable) {
          if (!hasPk) out.set(def.destination!, link!);
          child.setParentKey(def.parentKey.destination ?? this.spec.name + '_pk', link!, def.parentKey.primaryKey);
        }
        child.parseBatch(isList(value) ? value : [value], userData);
      } else if (def.kind === 'user') {
        out.set(def.destination ?? '', lookup(def.key, userData.values, '/'));
      } else {
        // column, and (unsupported) other types: a value without a header column.
        if (userData.values.size > 0 && def.kind === 'column') this.noteParentNamedColumn(def, value, userData);
        out.set(def.destination ?? '', (isMap(value) || isList(value)) && def.forceType ? forcedJson(value) : value);
      }
    }
    if (this.parentKey !== null && !out.has(this.parentKey.column)) out.set(this.parentKey.column, this.parentKey.value);
    return out;
  }

  private noteParentNamedColumn(def: ColumnDefinition, value: Value, userData: UserData): void {
    if (this.parentNamedColumns.get(def) === true || !userData.values.has(def.key)) return;
    this.parentNamedColumns.set(def, value !== null);
  }

  /** Column entries (this table's and its nested tables') that read a parent column's name from records that never had it. */
  unreadParentColumns(): UnreadParentColumn[] {
    const unread: UnreadParentColumn[] = [];
    for (const [def, read] of this.parentNamedColumns) {
      if (!read) unread.push({ table: this.spec.name, key: def.key, destination: def.destination ?? def.key, configPath: def.configPath });
    }
    for (const child of this.children.values()) unread.push(...child.unreadParentColumns());
    return unread;
  }

  /** §7.8: a non-scalar cell aborts with the columns of all non-scalar cells of the row. */
  private writeRow(row: Map<string, Value>): void {
    const cells: string[] = [];
    let bad: string[] | null = null;
    let first: Value | undefined;
    for (const [column, value] of row) {
      if (cellSafe(value)) {
        cells.push(csvCell(value));
      } else {
        if (bad === null) {
          bad = [];
          first = value;
        }
        bad.push(column);
      }
    }
    if (bad !== null) {
      const def = this.definitions.find((d) => d.kind !== 'unsupported' && d.kind !== 'table' && d.destination === bad[0]);
      throw badData(this.spec.dataType, bad, varExport(first, 'p17'), def?.configPath ?? this.spec.configPath);
    }
    this.writer!.write(cells);
  }
}
