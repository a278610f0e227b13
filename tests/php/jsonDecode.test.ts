import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeJson, decodeUtf8Lossy } from '../../src/php/jsonDecode.ts';
import { JsonDecodeError, type JsonErrorCode } from '../../src/errors/JsonDecodeError.ts';
import { JsonObject, PhpArray, PhpFloat, type Value } from '../../src/php/value.ts';

/** A tagged, order-preserving plain form of a value (deepStrictEqual ignores Map order). */
function dump(v: Value): unknown {
  if (v instanceof PhpFloat) return { f: v.value };
  if (v instanceof JsonObject) return { O: [...v].map(([k, x]) => [k, dump(x)]) };
  if (v instanceof PhpArray) return { A: [...v].map(([k, x]) => [k, dump(x)]) };
  if (Array.isArray(v)) return v.map(dump);
  return v;
}

const r = (text: string): unknown => dump(decodeJson(text, 'response'));
const c = (text: string): unknown => dump(decodeJson(text, 'config'));

test('scalars at top level', () => {
  const cases: [string, unknown][] = [
    ['true', true],
    ['false', false],
    ['null', null],
    ['"abc"', 'abc'],
    ['  \t\r\n 5 \n', 5],
    ['""', ''],
  ];
  for (const [text, want] of cases) assert.deepEqual(r(text), want, text);
});

test('numbers: int vs float, int64 boundaries, -0', () => {
  const cases: [string, unknown][] = [
    ['0', 0],
    ['1', 1],
    ['-1', -1],
    ['-0', 0],
    ['1.0', { f: 1 }],
    ['-0.0', { f: -0 }],
    ['1e2', { f: 100 }],
    ['1E2', { f: 100 }],
    ['1e+2', { f: 100 }],
    ['1.5e-3', { f: 0.0015 }],
    ['0.1', { f: 0.1 }],
    ['123456789012345', 123456789012345],
    ['9007199254740991', 9007199254740991],
    ['-9007199254740991', -9007199254740991],
    ['9007199254740992', 9007199254740992n],
    ['-9007199254740992', -9007199254740992n],
    ['9223372036854775807', 9223372036854775807n],
    ['-9223372036854775807', -9223372036854775807n],
    ['-9223372036854775808', -9223372036854775808n],
    ['9223372036854775808', { f: 9223372036854775808 }],
    ['-9223372036854775809', { f: -9223372036854775808 }],
    ['99999999999999999999', { f: 1e20 }],
    ['1000000000000000000', 1000000000000000000n],
    ['1e400', { f: Infinity }],
    ['-1e400', { f: -Infinity }],
    ['1e-400', { f: 0 }],
  ];
  for (const [text, want] of cases) {
    assert.deepEqual(r(text), want, text);
    assert.deepEqual(c(text), want, text);
  }
  assert.ok(Object.is(decodeJson('-0', 'response'), 0));
});

test('objects keep source order, integer-like keys included', () => {
  assert.deepEqual(r('{"b":1,"1":2,"a":3,"0":4}'), {
    O: [
      ['b', 1],
      ['1', 2],
      ['a', 3],
      ['0', 4],
    ],
  });
  assert.deepEqual(c('{"b":1,"1":2,"a":3,"0":4}'), {
    A: [
      ['b', 1],
      ['1', 2],
      ['a', 3],
      ['0', 4],
    ],
  });
});

test('duplicate keys: first position, last value', () => {
  const want = [
    ['a', 3],
    ['b', 2],
  ];
  assert.deepEqual(r('{"a":1,"b":2,"a":3}'), { O: want });
  assert.deepEqual(c('{"a":1,"b":2,"a":3}'), { A: want });
});

test('empty key and empty containers', () => {
  assert.deepEqual(r('{"":1}'), { O: [['', 1]] });
  assert.deepEqual(c('{"":1}'), { A: [['', 1]] });
  const emptyObject = decodeJson('{}', 'response');
  assert.ok(emptyObject instanceof JsonObject && emptyObject.size === 0);
  assert.deepEqual(decodeJson('{}', 'config'), []);
  assert.deepEqual(decodeJson(' { } ', 'config'), []);
  assert.deepEqual(decodeJson('[]', 'config'), []);
  assert.deepEqual(decodeJson('[ ]', 'response'), []);
  assert.deepEqual(c('{"x":{},"y":[]}'), {
    A: [
      ['x', []],
      ['y', []],
    ],
  });
  assert.deepEqual(r('{"x":{},"y":[]}'), {
    O: [
      ['x', { O: [] }],
      ['y', []],
    ],
  });
});

test('nested structures', () => {
  assert.deepEqual(r('{"id":1,"tags":["a",{"k":null}],"n":{"x":1.5}}'), {
    O: [
      ['id', 1],
      ['tags', ['a', { O: [['k', null]] }]],
      ['n', { O: [['x', { f: 1.5 }]] }],
    ],
  });
  assert.deepEqual(r('[1,[2,[3,[]]],{}]'), [1, [2, [3, []]], { O: [] }]);
});

test('string escapes', () => {
  const cases: [string, string][] = [
    ['"a\\"b"', 'a"b'],
    ['"a\\\\b"', 'a\\b'],
    ['"a\\/b"', 'a/b'],
    ['"\\b\\f\\n\\r\\t"', '\b\f\n\r\t'],
    ['"\\u00e9\\u00E9"', 'éé'],
    ['"\\u0000"', '\0'],
    ['"\\ud83d\\ude00"', '😀'],
    ['"\\uD83D\\uDE00x"', '😀x'],
    ['"žluťoučký 😀"', 'žluťoučký 😀'],
    ['"\u007f"', '\u007f'],
    ['"x\\u2028y"', 'x\u2028y'],
  ];
  for (const [text, want] of cases) assert.equal(decodeJson(text, 'response'), want, text);
});

function reasonOf(text: string, mode: 'response' | 'config' = 'response'): JsonErrorCode {
  try {
    decodeJson(text, mode);
  } catch (e) {
    assert.ok(e instanceof JsonDecodeError, String(e));
    assert.equal(e.message, e.reason);
    return e.code;
  }
  assert.fail(`no error for ${JSON.stringify(text)}`);
}

test('error texts', () => {
  const cases: [JsonErrorCode, string, string][] = [
    ['syntax', 'Syntax error', 'Syntax error, malformed JSON'],
    ['depth', 'Maximum stack depth exceeded', 'Maximum stack depth exceeded'],
    ['ctrl-char', 'Control character error, possibly incorrectly encoded', 'Unexpected control character found'],
    ['state-mismatch', 'State mismatch (invalid or malformed JSON)', 'Underflow or the modes mismatch'],
    ['utf16', 'Single unpaired UTF-16 surrogate in unicode escape', 'Malformed UTF-16 characters, possibly incorrectly encoded'],
    ['utf8', 'Malformed UTF-8 characters, possibly incorrectly encoded', 'Malformed UTF-8 characters, possibly incorrectly encoded'],
  ];
  for (const [code, reason, apiReason] of cases) {
    const e = new JsonDecodeError(code);
    assert.equal(e.reason, reason);
    assert.equal(e.message, reason);
    assert.equal(e.apiReason, apiReason);
    assert.equal(e.name, 'JsonDecodeError');
  }
});

test('syntax errors', () => {
  const cases = [
    '',
    ' ',
    '\uFEFF{}',
    '\uFEFF[]',
    '{',
    '[',
    '[1,]',
    '[1 2]',
    '{"a":1,}',
    '{"a" 1}',
    '{"a":}',
    '{a:1}',
    '{1:1}',
    "{'a':1}",
    '[01]',
    '01',
    '1.',
    '.5',
    '-',
    '-a',
    '+1',
    '1e',
    '1e+',
    '[1.e5]',
    'tru',
    'True',
    'NULL',
    'nul',
    'NaN',
    'Infinity',
    '[1]x',
    '[1] [2]',
    '"a" "b"',
    '"\\a"',
    '"\\\'"',
    '"\\u12"',
    '"\\u12g4"',
    '"\\x41"',
    '"abc\\',
    '[1,\u00a02]',
    '[-\u0001]',
    '[tru\u0001]',
    '[1.\u0000]',
    '[1] "x"',
    '{"a" "b"}',
  ];
  for (const text of cases) assert.equal(reasonOf(text), 'syntax', JSON.stringify(text));
});

test('control characters', () => {
  const cases = [
    '"a\u0001b"',
    '"a\nb"',
    '"\t"',
    '"\u001f"',
    '"abc',
    '"',
    '{"a',
    '["abc',
    '\u0000',
    '[1]\u0000',
    '[1] \u0000 ',
    '[1,\u0000]',
    '"a\u0000"',
    '\u0001',
    '[\u0001]',
    '[1]\u0001',
    '{"a"\u0001:1}',
    // PHP scans the whole unexpected token first: an unterminated string wins over syntax.
    '[]"',
    '1e16"',
    '{"":null}"',
    '[1 "abc',
    // A control character inside the value beats the invalid property name.
    '{"\\u0000a":"\u0001"}',
    '["\u0001\\ud800"]',
  ];
  for (const text of cases) assert.equal(reasonOf(text), 'ctrl-char', JSON.stringify(text));
});

test('state mismatch', () => {
  for (const text of ['[1}', '[}', '{]', '{"a":1]', '[[1}]', '{"a":[}']) {
    assert.equal(reasonOf(text), 'state-mismatch', text);
  }
});

test('lone surrogate escapes', () => {
  for (const text of ['"\\ud800"', '"\\udc00"', '"\\ud800x"', '"\\ud800\\u0041"', '"\\ud800\\ud800"', '"\\uDBFF\\u12"', '"a\\udfff"']) {
    assert.equal(reasonOf(text), 'utf16', text);
  }
});

test('invalid property name (NUL-prefixed key) in response mode only', () => {
  assert.equal(reasonOf('{"\\u0000a":1}'), 'invalid-property-name');
  assert.deepEqual(c('{"\\u0000a":1}'), { A: [['\0a', 1]] });
  assert.deepEqual(r('{"a\\u0000":1}'), { O: [['a\0', 1]] });
});

// PHP's depth 512 counts one level more than the nested containers (verified with PHP 8.2:
// `json_decode('[[]]', false, 2)` fails), so 511 nested arrays/objects decode and 512 do not.
test('depth: 511 nested containers ok, 512 fail (PHP depth 512)', () => {
  const nest = (n: number, open: string, close: string, inner = '') => open.repeat(n) + inner + close.repeat(n);
  assert.doesNotThrow(() => decodeJson(nest(511, '[', ']'), 'response'));
  assert.doesNotThrow(() => decodeJson(nest(511, '[', ']', '1'), 'config'));
  assert.equal(reasonOf(nest(512, '[', ']')), 'depth');
  assert.equal(reasonOf(nest(512, '[', ']', '1')), 'depth');
  assert.equal(reasonOf(nest(513, '[', ']')), 'depth');
  assert.equal(reasonOf(nest(512, '[', ']'), 'config'), 'depth');
  const objects = (n: number) => '{"a":'.repeat(n - 1) + '{}' + '}'.repeat(n - 1);
  assert.doesNotThrow(() => decodeJson(objects(511), 'response'));
  assert.equal(reasonOf(objects(512)), 'depth');
  assert.doesNotThrow(() => decodeJson('{"a":'.repeat(511) + '1' + '}'.repeat(511), 'response'));
  assert.equal(reasonOf('{"a":'.repeat(512) + '1' + '}'.repeat(512)), 'depth');
  // Mixed nesting counts both kinds.
  assert.equal(reasonOf('[{"a":'.repeat(256) + '1' + '}]'.repeat(256)), 'depth');
  assert.doesNotThrow(() => decodeJson('[{"a":'.repeat(255) + '[1]' + '}]'.repeat(255), 'response'));
  // The depth check fires at the opening bracket, before later errors.
  assert.equal(reasonOf('['.repeat(512)), 'depth');
  assert.equal(reasonOf('['.repeat(511)), 'syntax');
});

test('10,000-deep nesting reports depth without overflowing the stack', () => {
  assert.equal(reasonOf('['.repeat(10000) + ']'.repeat(10000)), 'depth');
  assert.equal(reasonOf('{"a":'.repeat(10000) + '1' + '}'.repeat(10000)), 'depth');
  assert.equal(reasonOf('['.repeat(100000)), 'depth');
});

test('decoding is repeatable after an error', () => {
  assert.equal(reasonOf('[1,'), 'syntax');
  assert.deepEqual(decodeJson('[1,2]', 'response'), [1, 2]);
});

test('large input', () => {
  const items = Array.from({ length: 5000 }, (_, i) => ({ id: i, s: 'x'.repeat(i % 50), f: i + 0.5 }));
  const v = decodeJson(JSON.stringify(items), 'response') as Value[];
  assert.equal(v.length, 5000);
  assert.deepEqual(dump(v[4999]!), {
    O: [
      ['id', 4999],
      ['s', 'x'.repeat(49)],
      ['f', { f: 4999.5 }],
    ],
  });
});

test('decimal literals decode to the double Number() reads from their text (short ones skip it)', () => {
  // A fixed pseudo-random sequence: literals of 1–18 digits around the 15-digit fast-path limit.
  let seed = 12345;
  const next = (n: number): number => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed % n;
  };
  const literals = ['0.0', '-0.0', '0.1', '0.3', '123456789012345.6', '0.000000000000001', '999999999999999.9', '1.5', '-2.675'];
  for (let i = 0; i < 20000; i++) {
    const intDigits = next(10);
    let t = next(2) === 0 ? '-' : '';
    t += intDigits === 0 ? '0' : String(1 + next(9)) + Array.from({ length: intDigits - 1 }, () => next(10)).join('');
    t += '.' + Array.from({ length: 1 + next(17) }, () => (next(3) === 0 ? 0 : next(10))).join('');
    literals.push(t);
  }
  const decoded = decodeJson(`[${literals.join(',')}]`, 'response') as Value[];
  literals.forEach((t, i) => {
    const v = decoded[i];
    assert.ok(v instanceof PhpFloat, t);
    assert.ok(Object.is(v.value, Number(t)), `${t}: ${v.value} vs ${Number(t)}`);
  });
});

test('keys: the same text gives the same key, different texts never share one (cache collisions included)', () => {
  const keys = Array.from({ length: 3000 }, (_, i) => `k${i.toString(36)}`);
  const text = JSON.stringify([Object.fromEntries(keys.map((k, i) => [k, i])), Object.fromEntries(keys.map((k, i) => [k, -i]))]);
  const [a, b] = decodeJson(text, 'response') as JsonObject[];
  assert.deepEqual([...a!.keys()], keys);
  assert.deepEqual([...b!.keys()], keys);
  assert.equal(b!.get(`k${(2000).toString(36)}`), -2000);
  // Escaped, long and non-Latin-1 keys.
  const odd = decodeJson('{"a\\"b":1,"' + 'x'.repeat(100) + '":2,"é€":3,"a\\u0062":4,"ab":5}', 'response') as JsonObject;
  assert.deepEqual(
    [...odd],
    [
      ['a"b', 1],
      ['x'.repeat(100), 2],
      ['é€', 3],
      ['ab', 5],
    ],
  );
});

test('decodeUtf8Lossy drops invalid sequences, keeps genuine U+FFFD', () => {
  const b = (...xs: (number | string)[]) => new Uint8Array(xs.flatMap((x) => (typeof x === 'string' ? [...Buffer.from(x, 'utf8')] : [x])));
  const cases: [Uint8Array, string][] = [
    [b('abc'), 'abc'],
    [b('žluť 😀'), 'žluť 😀'],
    [b('a\uFFFDb'), 'a\uFFFDb'],
    [b('a', 0xff, 'b'), 'ab'],
    [b('a', 0xc3, 'b'), 'ab'],
    [b('a', 0xe2, 0x82, 'b'), 'ab'],
    [b('a', 0xe2, 0x82, 0xe2, 0x82, 0xac), 'a€'],
    [b(0xc0, 0x80, 'x'), 'x'],
    [b(0xed, 0xa0, 0x80, 'x'), 'x'],
    [b(0xf0, 0x9f, 0x98, 'x', 0xf0, 0x9f, 0x98, 0x80), 'x😀'],
    [b(0xf4, 0x90, 0x80, 0x80), ''],
    [b(0x80, 0xbf, '\uFFFD'), '\uFFFD'],
    [b('{"a":"', 0xfe, '"}'), '{"a":""}'],
    [b('end', 0xe2), 'end'],
    [new Uint8Array(0), ''],
  ];
  for (const [bytes, want] of cases) assert.equal(decodeUtf8Lossy(bytes), want, Buffer.from(bytes).toString('hex'));
  // Works on Buffers and on views into a larger buffer.
  const big = Buffer.from([0x41, 0xff, 0x42, 0x43]);
  assert.equal(decodeUtf8Lossy(big), 'ABC');
  assert.equal(decodeUtf8Lossy(big.subarray(1, 3)), 'B');
  assert.equal(decodeUtf8Lossy(new Uint8Array(big.buffer, big.byteOffset + 2, 2)), 'BC');
});
