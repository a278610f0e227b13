/**
 * Header-only table candidates (04 §7.10).
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { UserError } from '../../../src/errors/UserError.ts';
import { headerOnlyTables } from '../../../src/mapping/headerOnly.ts';
import { cfg } from './helpers.ts';

const brief = (mappings: string, bucket: string | null = 'b') =>
  headerOnlyTables(cfg(mappings), bucket).map((t) => [t.table, t.header.join(','), t.primaryKey.join(',')]);

describe('headerOnlyTables (04 §7.10)', () => {
  it('no mappings → nothing', () => {
    assert.deepEqual(headerOnlyTables(undefined, 'b'), []);
    assert.deepEqual(headerOnlyTables(cfg('{}'), 'b'), []);
  });

  it('file names and manifest destinations with and without a bucket', () => {
    assert.deepEqual(headerOnlyTables(cfg(`{"users": {"id": "id"}}`), 'mock-server'), [
      {
        table: 'users',
        file: 'mock-server.users',
        destination: 'in.c-mock-server.users',
        header: ['id'],
        primaryKey: [],
        configPath: 'parameters.config.mappings.users',
      },
    ]);
    assert.deepEqual(headerOnlyTables(cfg(`{"users": {"id": "id"}}`), null), [
      { table: 'users', file: 'users', destination: null, header: ['id'], primaryKey: [], configPath: 'parameters.config.mappings.users' },
    ]);
  });

  it('columns, users and shorthands in order; primary keys; no link columns; children first', () => {
    assert.deepEqual(
      brief(`{"users": {
        "id": {"type": "column", "mapping": {"destination": "id", "primaryKey": true}},
        "0": "zero",
        "u": {"type": "user", "mapping": {"destination": "u", "primaryKey": 1}},
        "c": {"type": "table", "destination": "contacts", "parentKey": {"primaryKey": true}, "tableMapping": {"e": "email"}},
        "d": {"type": "table", "destination": "docs", "parentKey": {"destination": "owner", "primaryKey": false}, "tableMapping": {"n": {"mapping": {"destination": "n"}}}},
        "x": {"type": "table", "destination": "hidden", "parentKey": {"disable": true}, "tableMapping": {"n": "n"}},
        "name": {"mapping": {"destination": "name"}}
      }, "unused": {"a": "a"}}`),
      [
        ['contacts', 'email,users_pk', 'users_pk'],
        ['docs', 'n,owner', ''],
        ['hidden', 'n', ''],
        ['users', 'id,zero,u,name', 'id,u'],
        ['unused', 'a', ''],
      ],
    );
  });

  it('a table without tableMapping (self-reference) adds only the parent-key column when not disabled', () => {
    assert.deepEqual(brief(`{"p": {"id": "id", "k": {"type": "table", "destination": "p", "parentKey": {"disable": true}}}}`), [
      ['p', 'id', ''],
    ]);
    assert.deepEqual(brief(`{"p": {"id": "id", "k": {"type": "table", "destination": "q"}}}`), [
      ['q', 'p_pk', ''],
      ['p', 'id', ''],
    ]);
  });

  it('a table name is listed once (first candidate wins)', () => {
    assert.deepEqual(
      brief(`{"a": {"x": "x", "t": {"type": "table", "destination": "shared", "tableMapping": {"v": "v"}}}, "shared": {"w": "w"}}`),
      [
        ['shared', 'v,a_pk', ''],
        ['a', 'x', ''],
      ],
    );
  });

  it('a mapping whose "type" entry is the string "table" is read as a single table definition (reference quirk)', () => {
    assert.deepEqual(brief(`{"a": {"type": "table", "destination": "t", "tableMapping": {"v": "v"}}}`), [['t', 'v,a_pk', '']]);
  });

  it('nested grandchildren use the child table name for their default parent key', () => {
    assert.deepEqual(
      brief(
        `{"users": {"c": {"type": "table", "destination": "user-contact", "tableMapping": {"a": {"type": "table", "destination": "user-address", "tableMapping": {"s": "street"}}}}}}`,
      ),
      [
        ['user-address', 'street,user-contact_pk', ''],
        ['user-contact', 'users_pk', ''],
      ],
    );
  });

  it('errors: missing mapping key, invalid type', () => {
    const check = (mappings: string, message: string, configPath: string): void => {
      assert.throws(
        () => headerOnlyTables(cfg(mappings), 'b'),
        (e: unknown) => e instanceof UserError && e.message === message && e.configPath === configPath,
      );
    };
    check(`{"u": {"a": {"type": "user"}}}`, 'Missing mapping key at item with type "user"', 'parameters.config.mappings.u.a');
    check(
      `{"u": {"a": {"type": "column", "mapping": {}}}}`,
      'Missing mapping key at item with type "column"',
      'parameters.config.mappings.u.a',
    );
    check(`{"u": {"a": {"destination": "x"}}}`, 'Missing mapping key at item with type "column"', 'parameters.config.mappings.u.a');
    check(
      `{"u": {"t": {"type": "table", "destination": "x", "tableMapping": {"b": {"type": "foo"}}}}}`,
      'Invalid mapping type "foo".',
      'parameters.config.mappings.u.t.tableMapping.b.type',
    );
  });
});
