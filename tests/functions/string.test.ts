/** concat, implode, ifempty, sprintf, urlencode (spec 02 §11.4, §11.5, §11.8); PHP 7.4 results. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ApplicationError } from '../../src/errors/ApplicationError.ts';
import { UserError } from '../../src/errors/UserError.ts';
import { JsonObject, PhpArray, type Value } from '../../src/php/value.ts';
import { call, f, fn, obj, run } from './helpers.ts';

describe('concat()', () => {
  it('joins PHP string forms', () => {
    assert.equal(call('concat', 'id-', 12), 'id-12');
    assert.equal(call('concat'), '');
    assert.equal(call('concat', 'a', true, false, null, 'b'), 'a1b');
    assert.equal(call('concat', -5, 12345678901234567890n), '-512345678901234567890');
  });
  it('formats floats with precision 14', () => {
    const cases: Array<[number, string]> = [
      [0.1 + 0.2, '0.3'],
      [1e15, '1.0E+15'],
      [1e14, '1.0E+14'],
      [99999999999999.0, '99999999999999'],
      [2.0, '2'],
      [1 / 3, '0.33333333333333'],
      [0.0001, '0.0001'],
      [0.00001, '1.0E-5'],
      [-1.25e-7, '-1.25E-7'],
      [1.5e20, '1.5E+20'],
      [-0.0, '-0'],
      [123456789.12345678, '123456789.12346'],
    ];
    for (const [x, s] of cases) assert.equal(call('concat', f(x)), s, `concat(${x})`);
  });
  it('renders a list as "Array"', () => {
    assert.equal(call('concat', 'x', [1, 2]), 'xArray');
  });
  it('fails with an internal error for an object', () => {
    assert.throws(() => call('concat', 'x', obj({ a: 1, b: 2 })), ApplicationError);
    assert.throws(() => call('concat', new JsonObject([['a', 1]])), ApplicationError);
  });
});

describe('implode()', () => {
  it('joins a list with the glue', () => {
    assert.equal(call('implode', ',', ['a', 'b', 'c']), 'a,b,c');
    assert.equal(call('implode', ', ', [1, f(1.5), true, false, null, 'x']), '1, 1.5, 1, , , x');
    assert.equal(call('implode', '-', []), '');
  });
  it('accepts implode(list) and the legacy implode(list, glue)', () => {
    assert.equal(call('implode', ['a', 'b']), 'ab');
    assert.equal(call('implode', ['a', 'b'], '+'), 'a+b');
  });
  it('renders nested lists as "Array"', () => {
    assert.equal(call('implode', '|', ['a', ['b', 'c']]), 'a|Array');
  });
  it('builds the oauth20 MAC normalized string (spec 02 §8)', () => {
    const parts: Value[] = [1492958193, '605cce2a2f687253', 'GET', '/104-oauth2-hmac/users', 'mock-server', 80, '\n'];
    const normalized = call('implode', '\n', parts);
    assert.equal(normalized, '1492958193\n605cce2a2f687253\nGET\n/104-oauth2-hmac/users\nmock-server\n80\n\n');
    const mac = call('md5', fn('hash_hmac', 'sha256', fn('implode', '\n', parts), 'iAreSoSecret123'));
    assert.equal(mac, 'ae96f93def8f02770f30e858e074b2a7');
  });
  it('yields null without a list argument or with a bad argument count', () => {
    assert.equal(call('implode', 'a', 'b'), null);
    assert.equal(call('implode', 'abc'), null);
    assert.equal(call('implode'), null);
    assert.equal(call('implode', ',', ['a'], 'x'), null);
  });
});

describe('ifempty()', () => {
  const empty: Value[] = ['', '0', 0, f(0), null, false, []];
  for (const e of empty) {
    it(`treats ${JSON.stringify(e instanceof Object && !Array.isArray(e) ? 0.0 : e)} as empty`, () =>
      assert.equal(call('ifempty', e, 'fallback'), 'fallback'));
  }
  const notEmpty: Value[] = ['0.0', ' ', 'false', 'a', 1, f(0.1), -1, true, [0]];
  for (const v of notEmpty) {
    it(`keeps ${JSON.stringify(v instanceof Object && !Array.isArray(v) ? 0.1 : v)}`, () =>
      assert.deepEqual(call('ifempty', v, 'fallback'), v));
  }
  it('keeps objects (non-empty)', () => {
    const o = obj({ a: 1 });
    assert.deepEqual(call('ifempty', o, 'x'), o);
  });
  it('returns the second argument unchanged (type kept)', () => {
    assert.equal(call('ifempty', '', 42), 42);
    assert.deepEqual(call('ifempty', null, f(1.5)), f(1.5));
  });
  it('requires exactly two arguments', () => {
    for (const args of [[], ['a'], ['a', 'b', 'c']] as Value[][]) {
      assert.throws(
        () => call('ifempty', ...args),
        (e: unknown) => e instanceof UserError && e.message === "Bad argument count for function 'ifempty'!",
      );
    }
  });
});

describe('sprintf()', () => {
  const table: Array<[string, Value[], string]> = [
    ['Three %s are %.2f %s.', ['apples', f(0.5), 'plums'], 'Three apples are 0.50 plums.'],
    ["%'.05d", [3], '00003'],
    [
      "%s %d %05.2f %'*10s %-5s| %x %X %o %b %e %u %%",
      ['str', 42, f(3.14159), 'pad', 'ab', 255, 255, 8, 5, f(1234.5), -1],
      'str 42 03.14 *******pad ab   | ff FF 10 101 1.234500e+3 18446744073709551615 %',
    ],
    ['%.2f', [f(1.005)], '1.00'],
    ['%.1f', [f(0.05)], '0.1'],
    ['%.0f', [f(0.5)], '0'],
    ['%.0f', [f(2.5)], '2'],
    ['%.0f', [f(1.5)], '2'],
    ['%.1f', [f(2.25)], '2.2'],
    ['%.2f', [f(2.675)], '2.67'],
    ['%f', [f(1)], '1.000000'],
    ['%F', [f(-2.5)], '-2.500000'],
    ['%e', [f(1234.5)], '1.234500e+3'],
    ['%.2e', [f(0.000123)], '1.23e-4'],
    ['%E', [f(0)], '0.000000E+0'],
    ['%.0e', [f(12345)], '1e+4'],
    ['%.3e', [f(9.9996)], '1.000e+1'],
    ['%e', [1], '1.000000e+0'],
    ['%g', [f(1000000)], '1.0e+6'],
    ['%g', [f(0.0001)], '0.0001'],
    ['%g', [f(0.00001)], '1.0e-5'],
    ['%g', [f(123456)], '123456'],
    ['%G', [f(1.5e-10)], '1.5E-10'],
    ['%.3g', [f(3.14159)], '3.14'],
    ['%g', [f(100000)], '100000'],
    ['%g', [f(0)], '0'],
    ['%g', [f(-0.5)], '-0.5'],
    ['%1$s %2$s %1$s', ['a', 'b'], 'a b a'],
    ['%2$s %s', ['a', 'b'], 'b a'],
    ['%1$05d %1$-5d| %1$x', [42], '00042 42   | 2a'],
    ['%05d', [-3], '-0003'],
    ['%+d', [3], '+3'],
    ['%+d', [-3], '-3'],
    ['%+05d', [3], '+0003'],
    ['%-05d|', [3], '3    |'],
    ['%-05s|', ['ab'], 'ab000|'],
    ['%05s', ['ab'], '000ab'],
    ['%5.2s|', ['abcdef'], '   ab|'],
    ['%-8.3f|', [f(3.14159)], '3.142   |'],
    ['%08.3f', [f(-3.14159)], '-003.142'],
    ['%+.1f', [f(2)], '+2.0'],
    ["%'x10d", [42], 'xxxxxxxx42'],
    ["%'#-10s|", ['x'], 'x#########|'],
    ['%5s|', ['é'], '   é|'],
    ['%d', ['12abc'], '12'],
    ['%d', [f(3.99)], '3'],
    ['%d', [f(-3.99)], '-3'],
    ['%s', [f(1e25)], '1.0E+25'],
    ['%s', [f(0.1)], '0.1'],
    ['%s', [f(1000000000000000)], '1.0E+15'],
    ['%s|%s|%s', [true, false, null], '1||'],
    ['%d', [true], '1'],
    ['%d', [null], '0'],
    ['%d', ['  42'], '42'],
    ['%d', ['abc'], '0'],
    ['%d', ['1e3'], '1000'],
    ['%f', ['1.5abc'], '1.500000'],
    ['%d', ['1e30'], '9223372036854775807'],
    ['%s', [12], '12'],
    ['%u', [-1], '18446744073709551615'],
    ['%x', [-1], 'ffffffffffffffff'],
    ['%X', [-255], 'FFFFFFFFFFFFFF01'],
    ['%o', [-1], '1777777777777777777777'],
    ['%b', [-1], '1111111111111111111111111111111111111111111111111111111111111111'],
    ['%b', [10], '1010'],
    ['%c', [65], 'A'],
    ['%c', [321], 'A'],
    ['%c%c', [195, 169], 'é'],
    ['%5c|', [65], 'A|'],
    ['%.2x|', [255], '|'],
    ['%ld', [5], '5'],
    ['%.15f', [f(0.1)], '0.100000000000000'],
    ['%.3f', [f(-0.0004)], '-0.000'],
    ['%.10F', [f(0.3333333333333333)], '0.3333333333'],
    ['%05.1f', [f(9.96)], '010.0'],
    ['%.1e', [f(9.95)], '9.9e+0'],
    ['%g', [f(123456789)], '1.23457e+8'],
    ['%.10g', [f(123456789)], '123456789'],
    ['%g', [f(0.30000000000000004)], '0.3'],
    ['%s', [[1, 2]], 'Array'],
    ['%d', [[1]], '1'],
    ['%d', [[]], '0'],
    ['abc', [], 'abc'],
    ['', [], ''],
  ];
  for (const [format, args, expected] of table) {
    it(`sprintf(${JSON.stringify(format)}, …)`, () => assert.equal(call('sprintf', format, ...args), expected));
  }
  it('yields false with too few arguments (PHP 7.4 warning)', () => {
    assert.equal(call('sprintf', '%s'), false);
    assert.equal(call('sprintf', '%s %s', 'a'), false);
    assert.equal(call('sprintf', '100%'), false);
    assert.equal(call('sprintf', '%2$s', 'a'), false);
    assert.equal(call('sprintf'), false);
  });
  it('yields false for argument number 0', () => {
    assert.equal(call('sprintf', '%0$s', 'a'), false);
  });
  it('ignores an unknown specifier like PHP 7.4 (the argument is consumed)', () => {
    assert.equal(call('sprintf', 'a%yb%s', 1, 2), 'ab2');
  });
  it('counts bytes for width and precision', () => {
    assert.equal(call('sprintf', '%.1s', 'é'), '\udcc3');
  });
  it('fails with an internal error for an object argument to %s', () => {
    assert.throws(() => call('sprintf', '%s', obj({ a: 1, b: 2 })), ApplicationError);
  });
});

describe('urlencode()', () => {
  const urlencode = (v: Value): Value => run(fn('urlencode', v), {}, true);
  it('encodes like PHP urlencode (RFC 1738 style)', () => {
    assert.equal(urlencode('a b~c-d_e.f*g/h:i'), 'a+b%7Ec-d_e.f%2Ag%2Fh%3Ai');
    assert.equal(urlencode('é&=?#%'), '%C3%A9%26%3D%3F%23%25');
    assert.equal(urlencode(12), '12');
    assert.equal(urlencode([]), null);
  });
  it('is only allowed in placeholder functions', () => {
    assert.throws(
      () => run(fn('urlencode', 'x')),
      (e: unknown) => e instanceof UserError && e.message === "Illegal function 'urlencode'!",
    );
  });
  it('works on a placeholder value', () => {
    const ctx = { placeholder: new Map<string, Value>([['value', 'a/b c']]) };
    assert.equal(run(fn('urlencode', new PhpArray([['placeholder', 'value']])), ctx, true), 'a%2Fb+c');
  });
});
