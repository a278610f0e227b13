import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { TableFile } from '../../src/output/tableFile.ts';

test('a staged table starts with its header line; a rendered one has none; rows are counted either way', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'table-file-'));
  try {
    const rendered = new TableFile(path.join(dir, 'rendered.csv'), ['id', 'name'], false);
    rendered.write(['2', 'b']);
    rendered.write(['3', 'c"']);
    rendered.file.close();
    assert.equal(fs.readFileSync(rendered.path, 'utf8'), '"2","b"\n"3","c"""\n');

    const staged = new TableFile(path.join(dir, 'staged.csv'), ['id', 'name']);
    staged.write(['1', 'a']);
    staged.writeRendered(rendered.path, rendered.rows);
    staged.file.close();
    assert.equal(fs.readFileSync(staged.path, 'utf8'), '"id","name"\n"1","a"\n"2","b"\n"3","c"""\n');
    assert.equal(staged.rows, 3);
    assert.deepEqual(staged.header, ['id', 'name']);

    // An empty header writes no header line (spec 04 §1.4).
    const headless = new TableFile(path.join(dir, 'headless.csv'), []);
    headless.file.close();
    assert.equal(fs.readFileSync(headless.path, 'utf8'), '');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
