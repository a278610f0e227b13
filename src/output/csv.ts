/** The reference's CSV dialect (spec 04 §1.4): every field quoted, `"` doubled, LF records. */
import { numberText } from '../php/numbers.ts';
import { phpFloatString } from '../php/stringConversion.ts';
import { PhpFloat, type Value } from '../php/value.ts';
import { pjson } from '../php/jsonEncode.ts';

/** Text of one cell: PHP string conversion; objects and lists (only where 04 allows) as JSON text. */
export function csvCell(v: Value | undefined): string {
  if (v === undefined || v === null || v === false) return '';
  if (v === true) return '1';
  if (typeof v === 'string') return v;
  if (typeof v === 'number') return numberText(v);
  if (typeof v === 'bigint') return String(v);
  if (v instanceof PhpFloat) return phpFloatString(v.value);
  return pjson(v, 'p17');
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
