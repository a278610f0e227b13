/**
 * Byte-exact comparison of user-defined mapping output with the conformance fixtures.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { headerOnlyTables } from '../../../src/mapping/headerOnly.ts';
import { expectedTables, runExample } from './helpers.ts';

const FIXTURES = ['064', '065', '066', '067', '069', '070', '072', '073', '114', '137'];

describe('user mapping fixtures (byte-exact)', () => {
  for (const num of FIXTURES) {
    it(`${num}: every table and primary key matches _sample_out`, async () => {
      const { sink, router, bucket, config } = await runExample(num);
      const expected = expectedTables(num, bucket);
      assert.deepEqual([...sink.tables.keys()].sort(), [...expected.keys()].sort(), 'table set');
      const pks = router.primaryKeys();
      for (const [table, exp] of expected) {
        assert.equal(Buffer.from(sink.render(table), 'utf8').toString('latin1'), exp.bytes.toString('latin1'), `${num} ${table}`);
        assert.deepEqual(pks.get(table), exp.manifest['primary_key'], `${num} ${table} primary_key`);
      }
      // Every table was written, so no header-only table would be added.
      const missing = headerOnlyTables(config.get('mappings'), bucket).filter((t) => !sink.tables.has(t.table));
      assert.deepEqual(missing, []);
    });
  }

  it('137 with its own (empty) response: real mapper root table + header-only children (04 §7.10)', async () => {
    const { sink, router, bucket, config } = await runExample('137', { responseOverride: [] });
    assert.deepEqual([...sink.tables.keys()], ['users']);
    assert.equal(sink.render('users'), '"id","name","user-contact"\n');
    assert.equal(router.primaryKeys().size, 0);
    const candidates = headerOnlyTables(config.get('mappings'), bucket);
    assert.deepEqual(candidates, [
      {
        table: 'user-address',
        file: 'mock-server.user-address',
        destination: 'in.c-mock-server.user-address',
        header: ['street', 'country', 'user-contact_pk'],
        primaryKey: [],
        configPath: 'parameters.config.mappings.users.contacts.tableMapping.addresses.destination',
      },
      {
        table: 'user-contact',
        file: 'mock-server.user-contact',
        destination: 'in.c-mock-server.user-contact',
        header: ['email', 'tel', 'users_pk'],
        primaryKey: [],
        configPath: 'parameters.config.mappings.users.contacts.destination',
      },
      {
        table: 'users',
        file: 'mock-server.users',
        destination: 'in.c-mock-server.users',
        header: ['id', 'name'],
        primaryKey: [],
        configPath: 'parameters.config.mappings.users',
      },
    ]);
  });
});
