/**
 * The typed configuration parsed once (src/config/outputOptions.ts): each of the
 * reference's ways of reading a value.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { bucketOf, compatLevelOf, incrementalOutputOf, outputOptionsOf } from '../../src/config/outputOptions.ts';
import { decodeJson } from '../../src/php/jsonDecode.ts';
import type { PhpArray, Value } from '../../src/php/value.ts';

const cfg = (json: string): Value => decodeJson(json, 'config');

describe('output options', () => {
  it('incrementalOutput: PHP-empty is false, true is true, any other value is invalid (the reference crashes writing manifests)', () => {
    for (const v of ['null', 'false', '0', '""', '"0"', '[]']) assert.equal(incrementalOutputOf(cfg(v)), false, v);
    assert.equal(incrementalOutputOf(undefined), false);
    assert.equal(incrementalOutputOf(true), true);
    for (const v of ['"true"', '1', '"yes"', '[1]']) assert.equal(incrementalOutputOf(cfg(v)), 'invalid', v);
  });

  it('compatLevel: PHP-empty is 3, else PHP (int)', () => {
    for (const [v, level] of [
      ['null', 3],
      ['""', 3],
      ['"0"', 3],
      ['0', 3],
      ['1', 1],
      ['"2"', 2],
      ['1.9', 1],
      ['"abc"', 0],
      ['"2abc"', 2],
    ] as const) {
      assert.equal(compatLevelOf(cfg(v)), level, v);
    }
  });

  it('bucket: outputBucket, else ex-api-<api name>-<id>, else none; "0" is PHP-empty', () => {
    const of = (json: string, name = 'generic') => bucketOf(outputOptionsOf(cfg(json) as PhpArray), name);
    assert.equal(of('{"outputBucket": "b", "id": "x"}'), 'b');
    assert.equal(of('{"outputBucket": "0", "id": 7}', 'api'), 'ex-api-api-7');
    assert.equal(of('{"outputBucket": "", "id": "0"}'), null);
    assert.equal(of('{"outputBucket": 12}'), '12');
  });

  it('mappings: PHP-empty reads as none; debug by PHP truthiness', () => {
    const o = outputOptionsOf(cfg('{"mappings": [], "debug": "0"}') as PhpArray);
    assert.equal(o.mappings, undefined);
    assert.equal(o.debug, false);
    assert.equal(outputOptionsOf(cfg('{"debug": "yes"}') as PhpArray).debug, true);
  });
});
