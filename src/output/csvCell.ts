/**
 * The reference's CSV dialect (spec 04 §1.4), one cell at a time: the text of a cell, and its
 * bytes — every cell quoted, `"` doubled, a comma after each cell but the last, LF after the last.
 * Zero cells make an empty line (header-less tables).
 *
 * The byte writers put one cell into a caller's buffer at a position and return the position
 * after it (bufferedFile.ts owns the buffer and makes room first, with the `…_BYTES` bounds):
 * ASCII is copied by char code and the rest through `Buffer#write`, so no string is built per
 * cell or per row (docs/design.md "Flat memory").
 */
import { phpString } from '../php/stringConversion.ts';
import { isMap, type Value } from '../php/value.ts';
import { pjsonOrFalse } from '../php/jsonEncode.ts';
import { writeFixed, writeShortFloatString } from '../php/numbers.ts';

const QUOTE = 0x22;
const COMMA = 0x2c;
const LF = 0x0a;
const MINUS = 0x2d;
const ONE = 0x31;

/** Room an int32 cell needs: sign, 10 digits, two quotes, the separator (with a margin). */
export const INT32_CELL_BYTES = 15;
/** Room `writeFloatCell` needs: the longest short float text, two quotes, the separator. */
export const FLOAT_CELL_BYTES = 27;
/** Room `writeFlagCell` needs: `"1"` and the separator. */
export const FLAG_CELL_BYTES = 4;

/**
 * Text of one cell: PHP string conversion (`phpString`); objects and lists (only where 04 allows)
 * as JSON text (empty when it holds INF/NaN: PHP's `json_encode` gives `false`). Strings first:
 * they are most cells.
 */
export function csvCell(v: Value | undefined): string {
  if (typeof v === 'string') return v;
  return isMap(v) || Array.isArray(v) ? pjsonOrFalse(v, 'p17') || '' : phpString(v);
}

/** Room `writeTextCell` needs at most: 3 UTF-8 bytes per UTF-16 unit (a doubled quote takes 2), two quotes, the separator. */
export function textCellBytes(cell: string): number {
  return 3 * cell.length + 3;
}

/** `"cell"` followed by `,` or, for the last cell, LF. */
export function writeTextCell(buf: Buffer, at: number, cell: string, last: boolean): number {
  const n = cell.length;
  let p = at;
  buf[p++] = QUOTE;
  let i = 0;
  if (n < 64) {
    // Short cells: copy while ASCII without a quote (no native call).
    for (; i < n; i++) {
      const c = cell.charCodeAt(i);
      if (c >= 0x80 || c === QUOTE) break;
      buf[p++] = c;
    }
  }
  if (i < n) {
    const rest = i === 0 ? cell : cell.slice(i);
    p += buf.write(doubleQuotes(rest), p, 'utf8');
  }
  buf[p++] = QUOTE;
  buf[p++] = last ? LF : COMMA;
  return p;
}

/** The text `writeTextCell` writes, for a cell too large for any buffer. */
export function textCellString(cell: string, last: boolean): string {
  return '"' + doubleQuotes(cell) + (last ? '"\n' : '",');
}

function doubleQuotes(text: string): string {
  return text.includes('"') ? text.replaceAll('"', '""') : text;
}

/** `"<digits>"` of an int32 (`-0` is `0`) and the separator, without a text of its own. */
export function writeInt32Cell(buf: Buffer, at: number, v: number, last: boolean): number {
  let p = at;
  buf[p++] = QUOTE;
  if (v < 0) buf[p++] = MINUS;
  // -2^31 has no int32 negation; as a double it is exact.
  p = writeFixed(v < 0 ? -v : v, 0, buf, p);
  buf[p++] = QUOTE;
  buf[p++] = last ? LF : COMMA;
  return p;
}

/** `"<text>"` of a float and the separator when `writeShortFloatString` applies; -1 (nothing written) otherwise. */
export function writeFloatCell(buf: Buffer, at: number, x: number, last: boolean): number {
  const end = writeShortFloatString(x, buf, at + 1);
  if (end < 0) return -1;
  buf[at] = QUOTE;
  buf[end] = QUOTE;
  buf[end + 1] = last ? LF : COMMA;
  return end + 2;
}

/** `"1"` (true) or `""` (null, false) and the separator: PHP's string of a boolean or null. */
export function writeFlagCell(buf: Buffer, at: number, one: boolean, last: boolean): number {
  let p = at;
  buf[p++] = QUOTE;
  if (one) buf[p++] = ONE;
  buf[p++] = QUOTE;
  buf[p++] = last ? LF : COMMA;
  return p;
}

/** The line end of a record with zero cells (the empty line). */
export function writeEmptyRecord(buf: Buffer, at: number): number {
  buf[at] = LF;
  return at + 1;
}
