/**
 * Routes batches to the user-defined mappers (spec 04 §7) or to the automatic parser, and merges
 * both outputs into one table set (§7.9).
 *
 * - Mapper rows are written into the sink while the jobs run.
 * - The automatic parser's output phase runs in `finish()`, into the same sink.
 * - `primaryKeys()` gives the manifest `primary_key` of mapper tables (§7.6).
 */
import type { Value } from '../php/value.ts';
import type { TableSink } from '../output/tableSink.ts';
import type { AutoParser } from './auto/index.ts';
import type { ParentColumns } from './auto/parentColumns.ts';
import type { RecordSink } from './recordSink.ts';
import { buildMapperSpecs, type MapperSpec } from './user/config.ts';
import { Mapper, type UnreadParentColumn, userDataOf } from './user/mapper.ts';
import { TableMerge } from './user/tableMerge.ts';

export interface MappingRouterOptions {
  /** `config.mappings` as configured (PHP-empty or absent = everything goes to `auto`). */
  mappings: Value | undefined;
  /** The bucket's automatic parser; its `writeTables` runs in `finish()`. */
  auto: AutoParser;
  /** The bucket's table sink. */
  sink: TableSink;
  /** Where rows of a table produced by several mappers may be spooled (default: the OS temp dir). */
  spoolDir?: string;
}

/** Table name → rank of the earliest mapper of the static tree that can produce it. */
function firstProducers(roots: Map<string, MapperSpec>): Map<string, number> {
  const first = new Map<string, number>();
  const walk = (spec: MapperSpec): void => {
    const known = first.get(spec.name);
    if (known === undefined || spec.rank < known) first.set(spec.name, spec.rank);
    for (const child of spec.children.values()) walk(child);
  };
  for (const spec of roots.values()) walk(spec);
  return first;
}

export class MappingRouter implements RecordSink {
  private readonly auto: AutoParser;
  private readonly mappers = new Map<string, Mapper>();
  private readonly merge: TableMerge;
  private finished = false;

  /** Validates `mappings` (§7.1: throws the user errors). */
  constructor(options: MappingRouterOptions) {
    const roots = buildMapperSpecs(options.mappings);
    this.auto = options.auto;
    this.merge = new TableMerge(options.sink, firstProducers(roots), options.spoolDir);
    for (const [dataType, spec] of roots) this.mappers.set(dataType, new Mapper(spec, this.merge));
  }

  /** True when `dataType` is served by a user-defined mapper. */
  hasMapping(dataType: string): boolean {
    return this.mappers.has(dataType);
  }

  addBatch(records: Value[], dataType: string, parentColumns: ParentColumns): void {
    if (this.finished) throw new Error('MappingRouter.addBatch after finish()');
    const mapper = this.mappers.get(dataType);
    if (mapper) mapper.parseBatch(records, userDataOf(parentColumns));
    else this.auto.addBatch(records, dataType, parentColumns);
  }

  /**
   * Output phase: collects the mapper tables (merging and header checks between mappers), then
   * runs the automatic parser's output phase into the same sink. Call once, after all batches.
   */
  async finish(): Promise<void> {
    if (this.finished) return;
    this.finished = true;
    try {
      this.merge.resolve();
      await this.auto.writeTables(this.merge.autoSink());
      const conflict = this.merge.autoConflict();
      if (conflict) throw conflict;
    } finally {
      this.merge.close();
    }
  }

  /** Column entries that read a parent column's name from the records (mapper.ts): empty in every row. */
  unreadParentColumns(): UnreadParentColumn[] {
    return [...this.mappers.values()].flatMap((mapper) => mapper.unreadParentColumns());
  }

  /** Manifest primary keys of mapper tables with a non-empty key (§7.6). */
  primaryKeys(): Map<string, string[]> {
    return this.merge.primaryKeys();
  }

  /** Removes spool files; safe to call on error paths and more than once. */
  close(): void {
    this.merge.close();
  }
}
