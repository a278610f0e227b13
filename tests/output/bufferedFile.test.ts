import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BufferedFile } from '../../src/output/bufferedFile.ts';
import { csvLine } from '../../src/output/csv.ts';

test('writeRow writes the bytes of csvLine: quotes, non-ASCII, lone surrogates, empty rows, cells larger than the buffer', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'buffered-file-'));
  const file = path.join(dir, 't.csv');
  const rows: string[][] = [
    ['a', 'b"c', '', '"', '""'],
    [],
    ['ž', '😀', 'x\uD800y', '\uDC00', 'é"è', 'a\nb,c'],
    ['x'.repeat(63) + 'é', 'y'.repeat(64) + '"', 'q"'.repeat(40)],
    ['z'.repeat(300_000), 'w"'.repeat(100_000) + 'ž'],
    ['1', '2.5', '-0'],
  ];
  for (let i = 0; i < 5000; i++) rows.push([String(i), `user ${i}`, i % 7 === 0 ? `"${i}"` : `ž${i}`]);
  const out = new BufferedFile(file);
  out.write('header\n');
  for (const r of rows) out.writeRow(r);
  out.close();
  const expected = 'header\n' + rows.map((r) => csvLine(r)).join('');
  assert.ok(fs.readFileSync(file).equals(Buffer.from(expected, 'utf8')));
  fs.rmSync(dir, { recursive: true, force: true });
});
