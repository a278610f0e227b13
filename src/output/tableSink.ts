/**
 * Where the mapping stage hands finished rows. Rows are rendered cells (see csv.ts);
 * the sink streams them to a staging file, so no table is held in memory.
 */
export interface TableWriter {
  write(cells: readonly string[]): void;
}

export interface TableSink {
  /**
   * Opens the table `name` (the table key of spec 04 §4.7, without bucket prefix) with its header.
   * Opening a name a second time from the same producer returns the same writer.
   */
  open(name: string, header: readonly string[]): TableWriter;
}
