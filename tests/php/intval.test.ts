/**
 * PHP 7.4's `(int)` on a 64-bit build, one row per input: the answers follow PHP's documented
 * rules and its source (`zval_get_long`, `_is_numeric_string_ex`, `zend_dval_to_lval` and
 * `zend_dval_to_lval_cap`). Where a `php` CLI is installed the scalar rows are also checked
 * against it (no php on this machine: that part is skipped).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { phpInt, phpIntval, phpIntvalBig } from '../../src/php/intval.ts';
import { JsonObject, PhpArray, PhpFloat, type Value } from '../../src/php/value.ts';

const MAX = 9223372036854775807n;
const MIN = -9223372036854775808n;
const f = (x: number) => new PhpFloat(x);

/** [input, PHP's (int) of it, what the row shows]. */
const TABLE: [Value | undefined, bigint, string][] = [
  [null, 0n, 'null'],
  [undefined, 0n, 'a missing key reads as null'],
  [false, 0n, 'false'],
  [true, 1n, 'true'],
  [42, 42n, 'an int as it is'],
  [MAX, MAX, 'PHP_INT_MAX'],
  [f(1.9), 1n, 'floats truncate toward zero'],
  [f(-1.9), -1n, '… on both sides'],
  [f(-0), 0n, '-0.0'],
  [f(Number.NaN), 0n, 'NAN'],
  [f(Number.POSITIVE_INFINITY), 0n, 'INF'],
  [f(Number.NEGATIVE_INFINITY), 0n, '-INF'],
  [f(2 ** 63), MIN, 'a float of 2^63 wraps'],
  [f(1e19), -8446744073709551616n, 'floats beyond int64 wrap modulo 2^64'],
  [f(-1e19), 8446744073709551616n, '… negative ones too'],
  [f(1e20), 7766279631452241920n, '1e20 mod 2^64'],
  ['', 0n, 'empty string'],
  ['abc', 0n, 'no leading number'],
  [' 12', 12n, 'leading whitespace'],
  ['\t\n\r\v\f12', 12n, 'every leading whitespace PHP skips'],
  ['\u00a012', 0n, 'a no-break space is not whitespace to PHP'],
  ['12abc', 12n, 'the leading number of a leading-numeric string'],
  ['12 ', 12n, 'trailing whitespace'],
  ['0x1A', 0n, 'hex is not numeric since PHP 7'],
  ['012', 12n, 'leading zero is decimal, not octal'],
  ['+5', 5n, 'plus sign'],
  ['- 1', 0n, 'a sign must touch the digits'],
  ['1e3', 1000n, 'exponent (PHP 7.1+)'],
  ['1E3', 1000n, 'capital exponent'],
  ['1e-3', 0n, 'negative exponent'],
  [' -12.7e1x', -127n, 'fraction, exponent and trailing text'],
  ['1.9', 1n, 'fraction truncates'],
  ['-1.9', -1n, 'negative fraction truncates toward zero'],
  ['.5', 0n, 'fraction only'],
  ['1.', 1n, 'trailing point'],
  ['1e', 1n, 'exponent without digits stops before the e'],
  ['1,5', 1n, 'comma is not a decimal point'],
  ['9007199254740993', 9007199254740993n, 'beyond 2^53, exact'],
  ['9223372036854775807', MAX, 'PHP_INT_MAX'],
  ['9223372036854775808', MAX, 'beyond int64: a string saturates'],
  ['-9223372036854775808', MIN, 'PHP_INT_MIN'],
  ['-9223372036854775809', MIN, '… below it saturates'],
  ['000000000000000000000042', 42n, 'leading zeros do not count as digits'],
  ['99999999999999999999999', MAX, 'far beyond int64'],
  ['1e19', MAX, 'an exponent beyond int64 saturates too'],
  ['-1e19', MIN, '… negative'],
  ['1e999', 0n, 'a double overflow (INF) gives 0'],
  [[], 0n, 'empty array'],
  [[0], 1n, 'non-empty array'],
  [new PhpArray(), 0n, 'empty configuration object (a PHP array)'],
  [new PhpArray([['a', 1]]), 1n, 'non-empty configuration object'],
  [new JsonObject(), 1n, 'a response object (stdClass) is 1, even empty'],
];

test('phpIntvalBig: PHP 7.4 (int) of every kind of value', () => {
  for (const [input, expected, what] of TABLE) assert.equal(phpIntvalBig(input), expected, what);
});

test('phpIntval is the same value as a number; phpInt keeps big ones as bigints', () => {
  for (const [input, expected, what] of TABLE) assert.equal(phpIntval(input), Number(expected), what);
  assert.equal(phpInt(1000n), 1000);
  assert.equal(phpInt(MAX), MAX);
  assert.equal(phpInt(-9007199254740991n), -9007199254740991);
  assert.equal(phpInt(-9007199254740992n), -9007199254740992n);
});

const hasPhp = spawnSync('php', ['-r', 'echo 1;'], { encoding: 'utf8' }).stdout === '1';

test('the scalar rows agree with a local php CLI', { skip: hasPhp ? false : 'no php CLI installed' }, () => {
  const rows = TABLE.filter(([v]) => typeof v === 'string');
  const script = 'foreach (json_decode(stream_get_contents(STDIN)) as $s) echo (int)$s, "\\n";';
  const out = spawnSync('php', ['-r', script], { input: JSON.stringify(rows.map(([v]) => v)), encoding: 'utf8' });
  assert.deepEqual(
    out.stdout.trim().split('\n'),
    rows.map(([, expected]) => String(expected)),
  );
});
