/** The body summary's printable-text check (src/http/response.ts): its ASCII twin. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PRINTABLE_ASCII_MEMBERS, PRINTABLE_SOURCE } from '../../src/http/response.ts';
import { asciiFirst } from '../../src/http/url.ts';

test('the printable-text check agrees with its Unicode pattern on every ASCII character, and uses it beyond ASCII', () => {
  const unicode = new RegExp(PRINTABLE_SOURCE, 'u');
  const printable = asciiFirst(PRINTABLE_SOURCE, PRINTABLE_ASCII_MEMBERS);
  for (let c = 0; c < 128; c++) {
    const ch = String.fromCharCode(c);
    for (const text of [ch, `a${ch}b`]) assert.equal(printable.test(text), unicode.test(text), JSON.stringify(text));
  }
  for (const text of ['žluťoučký kůň', 'a\u0000é', '日本語\n', '\u200b'])
    assert.equal(printable.test(text), unicode.test(text), JSON.stringify(text));
});
