/**
 * Replays the conformance examples' own requests against our mock server: every `.request` file is
 * sent as an HTTP client would (method, path and query, body, headers from `.requestHeaders`) and
 * must get its `.response` bytes and status back.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { it } from 'node:test';
import { startMockServer } from '../../src/mock-server/server.ts';
import { send } from './helpers.ts';

const EXAMPLES = '/work/shared/conformance/examples';

/** Exact-case side file, or null. */
function side(dir: string, base: string, suffix: string): Buffer | null {
  return fs.readdirSync(dir).includes(base + suffix) ? fs.readFileSync(path.join(dir, base + suffix)) : null;
}

it('replays the conformance examples', { skip: !fs.existsSync(EXAMPLES) && `${EXAMPLES} not found` }, async () => {
  const server = await startMockServer({ dir: EXAMPLES });
  try {
    let replayed = 0;
    for (const folder of fs.readdirSync(EXAMPLES).sort()) {
      const dir = path.join(EXAMPLES, folder);
      if (!fs.statSync(dir).isDirectory()) continue;
      for (const file of fs
        .readdirSync(dir)
        .filter((f) => f.endsWith('.request'))
        .sort()) {
        const base = file.slice(0, -'.request'.length);
        const raw = fs.readFileSync(path.join(dir, file), 'latin1');
        const sep = raw.indexOf('\r\n\r\n');
        const line = sep < 0 ? raw : raw.slice(0, sep);
        const body = sep < 0 ? undefined : Buffer.from(raw.slice(sep + 4), 'latin1');
        const space = line.indexOf(' ');
        const method = line.slice(0, space);
        const target = line.slice(space + 1);
        const headers: Array<[string, string]> = [];
        for (const h of (side(dir, base, '.requestHeaders')?.toString('latin1') ?? '').split('\n')) {
          const colon = h.indexOf(':');
          if (colon < 0) continue;
          const value = h.slice(colon + 1).trim();
          headers.push([h.slice(0, colon).trim(), value === '*' ? 'any value' : value]);
        }
        const res = await send(server.url, { method, path: target, headers, ...(body !== undefined ? { body } : {}) });
        const where = `${folder}/${file}`;
        const code = side(dir, base, '.responseCode');
        assert.equal(res.status, code === null ? 200 : Number(code.toString().trim()), where);
        assert.ok(res.body.equals(side(dir, base, '.response') ?? Buffer.alloc(0)), `${where}: response bytes differ`);
        assert.equal(server.requests.at(-1)!.matched, `${folder}/${base}`, where);
        replayed++;
      }
    }
    assert.ok(replayed >= 20, `only ${replayed} requests replayed`);
  } finally {
    await server.close();
  }
});
