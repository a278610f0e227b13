import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BufferedFile } from '../../src/output/bufferedFile.ts';
import { renderedRows } from '../../src/output/renderedRows.ts';

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const PIECES = ['a', '"', '""', ',', '\n', '\r\n', 'ž', '日本', '😀', ' ', '', 'x,"y"\n', '\u0000', '\ud800'];

function randomCell(r: () => number): string {
  let s = '';
  const n = Math.floor(r() * 6);
  for (let i = 0; i < n; i++) s += PIECES[Math.floor(r() * PIECES.length)]!;
  return s;
}

test('renderedRows reads back exactly the records BufferedFile wrote (random cells, zero-cell rows)', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rendered-rows-'));
  try {
    const file = path.join(dir, 't.csv');
    const out = new BufferedFile(file);
    const r = rng(11);
    const rows: string[][] = [];
    for (let i = 0; i < 3000; i++) {
      const cells = Array.from({ length: Math.floor(r() * 5) }, () => randomCell(r));
      // Once: a cell larger than a read chunk, full of quotes; once a record over several chunks.
      if (i === 1500) cells.push('q"'.repeat(600_000));
      if (i === 2000) cells.push('z'.repeat(3_500_000), 'ž,"\n'.repeat(300_000));
      rows.push(cells);
      out.writeRow(cells);
    }
    out.close();
    // A lone surrogate was written as U+FFFD (UTF-8 cannot hold it): compare what the bytes say.
    const expected = rows.map((cells) => cells.map((c) => Buffer.from(c, 'utf8').toString('utf8')));
    assert.deepEqual([...renderedRows(file)], expected);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('renderedRows refuses bytes that are not records of the dialect', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rendered-rows-'));
  try {
    const file = path.join(dir, 't.csv');
    for (const [bytes, message] of [
      ['"a","b"', /no line end/],
      ['a\n', /does not start with a quote/],
      ['"a";"b"\n', /not separated by a comma/],
      ['"a",\n', /ends with a comma/],
    ] as const) {
      fs.writeFileSync(file, bytes);
      assert.throws(() => [...renderedRows(file)], message, bytes);
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
