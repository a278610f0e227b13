/**
 * The sink an output worker renders into: one file of rows (no header line) per table, in the
 * order the output opened the tables. The main thread appends each file to its staged table,
 * which has the header, in that same order (src/mapping/auto/offloadFeed.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { RenderedTable } from '../mapping/auto/outputOffload.ts';
import { TableFile } from '../output/tableFile.ts';
import type { TableSink, TableWriter } from '../output/tableSink.ts';

export /** Table files of one rendering, in the order the output opened them. */
class RenderedTables implements TableSink {
  private readonly files: { name: string; table: TableFile }[] = [];
  private readonly writers = new Map<string, TableFile>();
  private readonly dir: string;
  private closed = false;

  constructor(dir: string) {
    this.dir = dir;
    fs.mkdirSync(dir);
  }

  open(name: string, header: readonly string[]): TableWriter {
    const existing = this.writers.get(name);
    if (existing) return existing;
    // No header line: the rows are appended to the staged table, which has one.
    const table = new TableFile(path.join(this.dir, `${this.files.length}.csv`), header, false);
    this.files.push({ name, table });
    this.writers.set(name, table);
    return table;
  }

  /** What the main thread appends, in opening order. */
  get tables(): RenderedTable[] {
    return this.files.map(({ name, table }) => ({ name, header: [...table.header], file: table.path, rows: table.rows }));
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    for (const { table } of this.files) table.file.close();
  }

  discard(): void {
    this.close();
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}
