/**
 * One table's CSV file while it is written: a buffered file and its row count. A staged table
 * starts with its header line; a table rendered by the output worker has none (its rows are
 * appended to the staged table later, `writeRendered`).
 */
import { BufferedFile } from './bufferedFile.ts';
import type { Value } from '../php/value.ts';
import type { TableWriter } from './tableSink.ts';

export class TableFile implements TableWriter {
  readonly path: string;
  readonly file: BufferedFile;
  readonly header: readonly string[];
  rows = 0;

  constructor(path: string, header: readonly string[], headerLine = true) {
    this.path = path;
    this.file = new BufferedFile(path);
    this.header = [...header];
    // An empty header writes no header line (spec 04 §1.4).
    if (headerLine && header.length > 0) this.file.writeRow(header);
  }

  write(cells: readonly string[]): void {
    this.writeValues(cells);
  }

  writeValues(values: readonly Value[]): void {
    this.rows++;
    this.file.writeRow(values);
  }

  writeRendered(file: string, rows: number): void {
    this.rows += rows;
    this.file.appendFile(file);
  }
}
