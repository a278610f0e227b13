import { test } from 'node:test';
import assert from 'node:assert/strict';
import { arrayMerge } from '../../src/php/arrayMerge.ts';
import { PhpArray } from '../../src/php/value.ts';

const m = (...entries: [string, unknown][]) => new PhpArray(entries as [string, never][]);

test('array_merge: string keys override in place, integer-like keys are renumbered from 0 and appended', () => {
  const merged = arrayMerge(m(['12', 'a'], ['k', 1], ['-3', 'b'], ['05', 'c']), m(['k', 2], ['12', 'd'], ['x', 3]));
  assert.deepEqual(
    [...merged],
    [
      ['0', 'a'],
      ['k', 2],
      ['1', 'b'],
      ['05', 'c'], // not canonical: a string key
      ['2', 'd'],
      ['x', 3],
    ],
  );
  assert.deepEqual(
    [...arrayMerge(m(['1', 1.5], ['src', true]))],
    [
      ['0', 1.5],
      ['src', true],
    ],
  );
  assert.equal(arrayMerge().size, 0);
});
