/**
 * `api.authentication` parsed by the spec of its type (src/auth/*.ts): the reference's ways of
 * reading each value and its checks.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseAuthentication, type AuthOptions } from '../../src/auth/index.ts';
import type { LoginAuthOptions } from '../../src/auth/login.ts';
import type { QueryOptions } from '../../src/auth/query.ts';
import { createLogger } from '../../src/logging/logger.ts';
import { decodeJson } from '../../src/php/jsonDecode.ts';
import type { Value } from '../../src/php/value.ts';

const cfg = (json: string): Value => decodeJson(json, 'config');

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
    return (options as LoginAuthOptions).login;
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
    assert.equal((options as QueryOptions).configPath, 'parameters.api.query');
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
