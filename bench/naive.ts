/**
 * A reference point for P1, not a product: what a straightforward single-threaded flattener costs
 * when it keeps none of the reference's PHP rules. The same pages as bench/floor.ts are fetched
 * one after another and decoded with JSON.parse; every record is flattened generically (scalars
 * and nested objects → columns, lists → child tables linked by md5 of the record's
 * JSON.stringify), and each page's rows are appended as fully quoted CSV to one file per table.
 * No int/float distinction, no ordered maps, no type checks, no spool, no header rewrite.
 *
 * Usage: node bench/naive.ts <base> <total> <limit> <out-dir>
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { forEachPage } from './pages.ts';

const [base, totalText, limitText, outDir] = process.argv.slice(2);
if (outDir === undefined) throw new Error('usage: naive.ts <base> <total> <limit> <out-dir>');

interface Table {
  columns: Map<string, number>;
  fd: number;
  text: string;
}

const tables = new Map<string, Table>();

function table(name: string): Table {
  let t = tables.get(name);
  if (t === undefined) {
    t = { columns: new Map(), fd: fs.openSync(path.join(outDir, name + '.csv'), 'w'), text: '' };
    tables.set(name, t);
  }
  return t;
}

const quote = (s: string): string => '"' + (s.includes('"') ? s.replaceAll('"', '""') : s) + '"';

function cellText(v: unknown): string {
  if (v === null || v === undefined || v === false) return '';
  if (v === true) return '1';
  return String(v);
}

/** Fills `cells` (column → text) from `o`; lists become rows of child tables. */
function flatten(o: Record<string, unknown>, prefix: string, name: string, cells: Map<string, string>, link: () => string): void {
  for (const key of Object.keys(o)) {
    const v = o[key];
    const column = prefix + key;
    if (Array.isArray(v)) {
      if (v.length === 0) continue;
      const id = link();
      cells.set(column, id);
      for (const item of v) emit(item, name + '_' + column, id);
    } else if (v !== null && typeof v === 'object') {
      flatten(v as Record<string, unknown>, column + '_', name, cells, link);
    } else {
      cells.set(column, cellText(v));
    }
  }
}

function emit(item: unknown, name: string, parentId: string | undefined): void {
  const t = table(name);
  const cells = new Map<string, string>();
  let id: string | undefined;
  const link = (): string => (id ??= name + '_' + crypto.hash('md5', JSON.stringify(item), 'hex'));
  if (item !== null && typeof item === 'object' && !Array.isArray(item)) flatten(item as Record<string, unknown>, '', name, cells, link);
  else cells.set('data', Array.isArray(item) ? JSON.stringify(item) : cellText(item));
  if (parentId !== undefined) cells.set('JSON_parentId', parentId);
  for (const column of cells.keys()) if (!t.columns.has(column)) t.columns.set(column, t.columns.size);
  const row = new Array<string>(t.columns.size).fill('""');
  for (const [column, text] of cells) row[t.columns.get(column)!] = quote(text);
  t.text += row.join(',') + '\n';
}

await forEachPage(base!, Number(totalText), Number(limitText), (items) => {
  for (const item of items) emit(item, 'items', undefined);
  for (const t of tables.values()) {
    fs.writeSync(t.fd, t.text);
    t.text = '';
  }
});
for (const t of tables.values()) fs.closeSync(t.fd);
