import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BufferedFile } from '../../src/output/bufferedFile.ts';
import { csvCell } from '../../src/output/csvCell.ts';
import { csvLine } from '../helpers/csvOracle.ts';
import { JsonObject, PhpFloat, type Value } from '../../src/php/value.ts';

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

test('writeRow of values writes the bytes of csvLine(values.map(csvCell))', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'buffered-file-'));
  try {
    const list: Value[] = [1, 'a'];
    const object = new JsonObject([['k', new PhpFloat(0.1)]]);
    const rows: Value[][] = [
      [0, -0, 7, -7, 9, 10, 99, 100, 2147483647, -2147483648, 2147483648, -2147483649, 9007199254740991, 2n ** 60n],
      [null, true, false, '', 'a"b', 'ž', new PhpFloat(1), new PhpFloat(-0), new PhpFloat(0.1), new PhpFloat(1e100), 1.5],
      [list, object, 'x'.repeat(300_000)],
      [],
    ];
    for (let i = -3000; i < 3000; i += 7) rows.push([i * 1013, i % 2 === 0, `r${i}`, i % 3 === 0 ? null : new PhpFloat(i / 8)]);
    const viaValues = new BufferedFile(path.join(dir, 'values.csv'));
    for (const row of rows) viaValues.writeRow(row);
    viaValues.close();
    const expected = Buffer.from(rows.map((row) => csvLine(row.map((v) => csvCell(v)))).join(''), 'utf8');
    assert.ok(expected.toString().startsWith('"0","0","7","-7","9","10","99","100","2147483647","-2147483648","2147483648","-2147483649"'));
    assert.deepEqual(fs.readFileSync(path.join(dir, 'values.csv')), expected);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
