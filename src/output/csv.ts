/** The reference's CSV dialect (spec 04 §1.4): every field quoted, `"` doubled, LF records. */
import { phpString } from '../php/stringConversion.ts';
import { isMap, type Value } from '../php/value.ts';
import { pjsonOrFalse } from '../php/jsonEncode.ts';

/**
 * Text of one cell: PHP string conversion (`phpString`); objects and lists (only where 04 allows)
 * as JSON text (empty when it holds INF/NaN: PHP's `json_encode` gives `false`). Strings first:
 * they are most cells.
 */
export function csvCell(v: Value | undefined): string {
  if (typeof v === 'string') return v;
  return isMap(v) || Array.isArray(v) ? pjsonOrFalse(v, 'p17') || '' : phpString(v);
}

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
