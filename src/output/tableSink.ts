/**
 * Where the mapping stage hands finished rows. Rows are rendered cells (see csvCell.ts);
 * the sink streams them to a staging file, so no table is held in memory.
 */
import type { Value } from '../php/value.ts';
import { csvCell } from './csvCell.ts';
import { renderedRows } from './renderedRows.ts';

export interface TableWriter {
  write(cells: readonly string[]): void;
  /** `write(values.map(csvCell))`, for writers that can skip the cell strings. */
  writeValues?(values: readonly Value[]): void;
  /**
   * Appends `rows` records already rendered in this dialect: the bytes of `file` (no header
   * line). Writers without it get the records one by one (`appendRendered`).
   */
  writeRendered?(file: string, rows: number): void;
}

/** One row of cell values (`csvCell` texts) into `writer`. */
export function writeValueRow(writer: TableWriter, values: readonly Value[]): void {
  if (writer.writeValues) {
    writer.writeValues(values);
    return;
  }
  const cells = new Array<string>(values.length);
  for (let j = 0; j < values.length; j++) cells[j] = csvCell(values[j]);
  writer.write(cells);
}

/** Appends the rendered records of `file` to `writer`. */
export function appendRendered(writer: TableWriter, file: string, rows: number): void {
  if (writer.writeRendered) {
    writer.writeRendered(file, rows);
    return;
  }
  for (const cells of renderedRows(file)) writer.write(cells);
}

export interface TableSink {
  /**
   * Opens the table `name` (the table key of spec 04 §4.7, without bucket prefix) with its header.
   * Opening a name a second time from the same producer returns the same writer.
   */
  open(name: string, header: readonly string[]): TableWriter;
}
