import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isNumeric, isNumericString } from '../../src/php/isNumeric.ts';
import { PhpArray, PhpFloat } from '../../src/php/value.ts';

test('PHP 7.4 is_numeric: leading whitespace allowed, trailing not; numbers of every kind', () => {
  for (const s of ['1', ' 1', '\t-1.5', '.5', '5.', '1e3', '+2E-2']) assert.ok(isNumericString(s), s);
  for (const s of ['', ' ', '1 ', '0x1A', '1e', 'abc', '1,5', '--1']) assert.ok(!isNumericString(s), s);
  for (const v of [0, 12n, new PhpFloat(1.5), ' 7']) assert.ok(isNumeric(v), String(v));
  for (const v of [null, true, false, undefined, new PhpArray(), [], '5 ']) assert.ok(!isNumeric(v), String(v));
});
