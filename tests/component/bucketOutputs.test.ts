/**
 * What the run says when it writes the tables (src/component/bucketOutputs.ts): a column entry
 * keyed by a parent column in a child table (empty in every row) is one WARNING naming the table,
 * the column and the form that reads it; an incremental table without a primary key is one INFO
 * line per table, which strict mode does not refuse.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import * as extractor from '../../src/extractor.ts';
import { makeDataDir, readTables, run } from '../helpers/dataDir.ts';
import { json, startServer, type TestServer } from '../helpers/httpServer.ts';

let api: TestServer;
before(async () => {
  api = await startServer((req, res) => {
    const url = new URL(req.target, 'http://x');
    if (url.pathname === '/customers') return json(res, 200, [{ id: 1 }, { id: 2 }]);
    const orders = /^\/customers\/(\d+)\/orders$/.exec(url.pathname);
    if (orders) return json(res, 200, [{ n: Number(orders[1]) * 10 }, { n: Number(orders[1]) * 10 + 1 }]);
    if (/^\/customers\/\d+\/notes$/.test(url.pathname)) return json(res, 200, [{ n: 1, parent_id: 'own' }]);
    json(res, 404, { error: 'unknown' });
  });
});
after(() => api.close());

function config(cfg: Record<string, unknown>): Record<string, unknown> {
  return { parameters: { api: { baseUrl: `${api.url}/` }, config: { outputBucket: 'b', ...cfg } } };
}

const customersWithOrders = {
  endpoint: 'customers',
  dataType: 'customers',
  children: [{ endpoint: 'customers/{customer_id}/orders', dataType: 'orders', placeholders: { customer_id: 'id' } }],
};

const at = (level: string, lines: string[]): string[] => lines.filter((l) => l.includes(`logger.${level}:`));

describe('a mapping column named like a parent column', () => {
  it('"parent_id": "customer_id" reads the records: one WARNING with the user form', async () => {
    const r = await run(config({ jobs: [customersWithOrders], mappings: { orders: { n: 'n', parent_id: 'customer_id' } } }));
    assert.equal(r.code, 0, r.lines.join('\n'));
    assert.equal(r.tables()['b.orders'], '"n","customer_id"\n"10",""\n"11",""\n"20",""\n"21",""\n');
    const warnings = at('WARNING', r.lines).filter((l) => l.includes('parent_id'));
    assert.equal(warnings.length, 1, r.lines.join('\n'));
    assert.match(
      warnings[0]!,
      /parameters\.config\.mappings\.orders\.parent_id: column "customer_id" of table "orders" is empty in every row: .*Write "parent_id": \{"type":"user","mapping":\{"destination":"customer_id"\}\} to read the parent column\./,
    );
  });

  it('the user form fills the column and says nothing', async () => {
    const user = { type: 'user', mapping: { destination: 'customer_id' } };
    const r = await run(config({ jobs: [customersWithOrders], mappings: { orders: { n: 'n', parent_id: user } } }));
    assert.equal(r.tables()['b.orders'], '"n","customer_id"\n"10","1"\n"11","1"\n"20","2"\n"21","2"\n');
    assert.deepEqual(at('WARNING', r.lines), []);
  });

  it('a record with a field of that name is read as before, without a warning', async () => {
    const notes = { ...customersWithOrders, children: [{ ...customersWithOrders.children[0], endpoint: 'customers/{customer_id}/notes' }] };
    const r = await run(config({ jobs: [notes], mappings: { orders: { n: 'n', parent_id: 'p' } } }));
    assert.deepEqual(at('WARNING', r.lines), []);
    assert.equal(r.tables()['b.orders'], '"n","p"\n"1","own"\n"1","own"\n');
  });
});

describe('incremental output without a primary key', () => {
  const jobs = [customersWithOrders];
  const keyed = { customers: { id: { type: 'column', mapping: { destination: 'id', primaryKey: true } } } };

  it('is advice at INFO, once per table without a key; tables with a key are not named', async () => {
    const r = await run(config({ incrementalOutput: true, jobs, mappings: keyed }));
    assert.equal(r.code, 0, r.lines.join('\n'));
    assert.deepEqual(at('WARNING', r.lines), []);
    const advice = at('INFO', r.lines).filter((l) => l.includes('without a primary key'));
    assert.deepEqual(
      advice.map((l) => /Table (\S+) is loaded incrementally/.exec(l)?.[1]),
      ['in.c-b.orders'],
      r.lines.join('\n'),
    );
    assert.match(advice[0]!, /"primaryKey": true in parameters\.config\.mappings; for a full load, set incrementalOutput to false\./);
  });

  it('names every table of the automatic parser once', async () => {
    const r = await run(config({ incrementalOutput: true, jobs }));
    const named = at('INFO', r.lines).flatMap((l) => /Table (\S+) is loaded incrementally/.exec(l)?.[1] ?? []);
    assert.deepEqual(named.sort(), ['in.c-b.customers', 'in.c-b.orders']);
  });

  it('strict mode runs a correct append-only incremental configuration', async () => {
    const dir = makeDataDir(config({ incrementalOutput: true, jobs }));
    const lines: string[] = [];
    const code = await extractor.run({ env: { KBC_DATADIR: dir }, write: (l) => lines.push(l), strict: true });
    assert.equal(code, 0, lines.join('\n'));
    assert.ok(readTables(dir)['b.customers'] !== undefined);
    assert.match(fs.readFileSync(path.join(dir, 'out', 'tables', 'b.customers.manifest'), 'utf8'), /"incremental":true/);
  });

  it('a full load gives no advice', async () => {
    const r = await run(config({ jobs }));
    assert.ok(!r.lines.some((l) => l.includes('without a primary key')), r.lines.join('\n'));
  });
});

describe('a first run', () => {
  it('of a correct configuration shows no WARNING; the missing state file is an INFO line', async () => {
    const r = await run(config({ jobs: [customersWithOrders] }));
    assert.equal(r.code, 0);
    assert.deepEqual(at('WARNING', r.lines), []);
    assert.ok(at('INFO', r.lines).some((l) => /State file not found Configuration file '.*\/in\/state\.json' not found\./.test(l)));
  });
});
