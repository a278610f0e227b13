import assert from 'node:assert/strict';
import { test } from 'node:test';
import { joinOptionValues } from '../../src/config/commandArgs.ts';

test('an option the predicate accepts is joined with its value; the rest is left as it is', () => {
  const negative = (option: string, value: string) => option === '--limit' && /^-\d/.test(value);
  assert.deepEqual(joinOptionValues(['jobs', '--limit', '-1', '--json'], negative), ['jobs', '--limit=-1', '--json']);
  assert.deepEqual(joinOptionValues(['--limit', '5'], negative), ['--limit', '5']);
  assert.deepEqual(joinOptionValues(['--limit'], negative), ['--limit']);
});
