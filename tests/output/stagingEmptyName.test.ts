/**
 * A table whose name sanitises to nothing (an endpoint of only non-ASCII letters, a long key
 * holding a list) is not written: the reference cannot create that file, drops its rows with a
 * warning and exits 0 (issue 22). Without a bucket it still writes the manifest `.manifest`.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { OutputStaging } from '../../src/output/staging.ts';
import { makeDataDir, runIn } from '../helpers/dataDir.ts';
import { json, startServer, type TestServer } from '../helpers/httpServer.ts';

let api: TestServer;
before(async () => {
  api = await startServer((_req, res) => json(res, 200, [{ id: 1 }]));
});
after(() => api.close());

function config(endpoint: string, bucket?: string): unknown {
  return { parameters: { api: { baseUrl: `${api.url}/` }, config: { ...(bucket ? { outputBucket: bucket } : {}), jobs: [{ endpoint }] } } };
}

test('a root table named by nothing: no file, one warning, exit 0; without a bucket its manifest is .manifest', async () => {
  for (const bucket of ['b', undefined]) {
    const r = await runIn(makeDataDir(config('日本', bucket)));
    assert.equal(r.code, 0, r.lines.join('\n'));
    const warnings = r.lines.filter((l) => l.includes('logger.WARNING: A table whose name sanitises to an empty string is not written'));
    assert.equal(warnings.length, 1, r.lines.join('\n'));
    assert.match(warnings[0]!, /\(columns "id"\)/);
    assert.deepEqual(r.tables(), bucket ? {} : { '.manifest': '{"incremental":false}' });
  }
});

test('the sink hands out one discarding writer for the empty name and tells once', () => {
  const dir = makeDataDir({});
  const staging = new OutputStaging(dir);
  const told: (readonly string[])[] = [];
  const sink = staging.sink('b', (header) => told.push(header));
  const w = sink.open('', ['a']);
  w.write(['1']);
  assert.equal(sink.open('', ['a']), w);
  assert.deepEqual(told, [['a']]);
  assert.equal(staging.rowCounts().size, 0);
  staging.discard();
});
