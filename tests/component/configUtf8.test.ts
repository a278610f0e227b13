/**
 * Invalid UTF-8 in config.json (issue 19 #5, spec 01 §2.4 A2): PHP's json_decode refuses it, so
 * the run is an application error (exit 2) with the reference's message, before any request.
 * Valid UTF-8, a BOM-less file with non-ASCII text, is read as before.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { makeDataDir } from '../helpers/dataDir.ts';
import { startServer, json } from '../helpers/httpServer.ts';
import { assertFailed, cleanup } from '../reliability/helpers.ts';
import * as extractor from '../../src/extractor.ts';

async function runBytes(bytes: Buffer): Promise<{ code: number; lines: string[]; dir: string; sleeps: number[]; ms: number }> {
  const dir = makeDataDir('{}');
  fs.writeFileSync(path.join(dir, 'config.json'), bytes);
  const lines: string[] = [];
  const code = await extractor.run({ env: { KBC_DATADIR: dir }, write: (l) => lines.push(l), sleep: async () => {} });
  return { code, lines, dir, sleeps: [], ms: 0 };
}

test('invalid UTF-8 in config.json: exit 2 with the reference message, no request', async () => {
  const server = await startServer((_q, res) => json(res, 200, []));
  try {
    const text = JSON.stringify({ parameters: { api: { baseUrl: `${server.url}/` }, config: { name: 'XX', jobs: [{ endpoint: 'x' }] } } });
    for (const bad of [Buffer.from([0xe9]), Buffer.from([0xc3, 0x28]), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from([0xff])]) {
      const bytes = Buffer.concat([Buffer.from(text.slice(0, text.indexOf('XX'))), bad, Buffer.from(text.slice(text.indexOf('XX') + 2))]);
      const r = await runBytes(bytes);
      const error = assertFailed(r, 2, bad.toString('hex'));
      assert.ok(
        error.startsWith('logger.ERROR: Configuration file is not a valid JSON: Malformed UTF-8 characters, possibly incorrectly encoded'),
        error,
      );
      cleanup(r);
    }
    assert.equal(server.requests.length, 0);
    const ok = await runBytes(Buffer.from(text.replace('XX', 'café 日本'), 'utf8'));
    assert.equal(ok.code, 0, ok.lines.slice(-2).join('\n'));
    cleanup(ok);
  } finally {
    await server.close();
  }
});
