/**
 * The typed configuration parsed once (src/config/outputOptions.ts, authOptions.ts): each of the
 * reference's ways of reading a value.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseAuthentication, type AuthOptions } from '../../src/config/authOptions.ts';
import { bucketOf, compatLevelOf, incrementalOutputOf, outputOptionsOf } from '../../src/config/outputOptions.ts';
import { createLogger } from '../../src/logging/logger.ts';
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

describe('authentication options', () => {
  const parse = (
    authentication: string,
    extra: { legacyQuery?: string; attributes?: string } = {},
  ): { options: AuthOptions; lines: string[] } => {
    const lines: string[] = [];
    const logger = createLogger({ write: (l) => lines.push(l) });
    logger.setLevel('debug');
    const options = parseAuthentication({
      authentication: cfg(authentication),
      legacyQuery: extra.legacyQuery === undefined ? undefined : cfg(extra.legacyQuery),
      attributes: cfg(extra.attributes ?? '{}'),
      oauthCredentials: undefined,
      logger,
    });
    return { options, lines };
  };
  const login = (expires: string) => {
    const { options } = parse(`{"type": "login", "loginRequest": {"endpoint": "login"}, "expires": ${expires}}`);
    assert.equal(options.type, 'login');
    return options.type === 'login' ? options.login : undefined;
  };

  it('a PHP-empty type is no authentication', () => {
    for (const t of ['""', '"0"', '0', 'null']) assert.equal(parse(`{"type": ${t}}`).options.type, 'none', t);
  });

  it('login expires: numbers and numeric strings are seconds ((int) cast); "5 " and true pass the check but never expire', () => {
    assert.deepEqual(login('3600')!.expires, { kind: 'seconds', seconds: 3600 });
    assert.deepEqual(login('" 60"')!.expires, { kind: 'seconds', seconds: 60 });
    assert.deepEqual(login('"0"')!.expires, { kind: 'seconds', seconds: 0 });
    assert.deepEqual(login('"5 "')!.expires, { kind: 'never' });
    assert.deepEqual(login('true')!.expires, { kind: 'never' });
    assert.deepEqual(login('null')!.expires, { kind: 'never' });
    assert.deepEqual(login('{"response": "exp", "relative": "1"}')!.expires, { kind: 'response', path: 'exp', relative: true });
    assert.throws(() => login('"1.5"'), /The 'expires' attribute must be either an integer or an array/);
  });

  it('login format: PHP-empty is json; anything but json/text is an error', () => {
    assert.equal(login('null')!.format, 'json');
    assert.throws(
      () => parse('{"type": "login", "format": "xml", "loginRequest": {"endpoint": "l"}}'),
      /'format' must be either 'json' or 'text'\./,
    );
  });

  it('query: legacy api.query when authentication.query is PHP-empty, with the deprecation line', () => {
    const { options, lines } = parse('{"type": "query", "query": []}', { legacyQuery: '{"k": "v"}' });
    assert.equal(options.type, 'query');
    assert.equal(options.type === 'query' ? options.configPath : '', 'parameters.api.query');
    assert.ok(lines.some((l) => l.includes("Using 'api.query' is deprecated")));
  });

  it('basic: the plain key wins when PHP-non-empty, else the # key', () => {
    const { options } = parse('{"type": "basic"}', {
      attributes: '{"username": "0", "#username": "u", "password": "p", "#password": "q"}',
    });
    assert.deepEqual(options, { type: 'basic', username: 'u', password: 'p' });
  });

  it('an unknown type lists the known ones', () => {
    assert.throws(() => parse('{"type": "bearer"}'), /Unknown authorization type 'bearer'\./);
  });
});
