/**
 * Test oracle of the reference's CSV dialect (spec 04 §1.4), written the plain way with strings
 * and independently of the writer it checks (src/output/csvCell.ts writes bytes into buffers):
 * every field quoted, `"` doubled, LF records.
 */

function quote(cell: string): string {
  return '"' + (cell.includes('"') ? cell.replaceAll('"', '""') : cell) + '"';
}

/** One record with its terminating LF. Zero cells give an empty line (header-less tables). */
export function csvLine(cells: readonly string[]): string {
  let line = '';
  for (let i = 0; i < cells.length; i++) {
    if (i > 0) line += ',';
    line += quote(cells[i]!);
  }
  return line + '\n';
}
