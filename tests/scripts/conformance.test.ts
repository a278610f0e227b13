/** `npm run conformance` (scripts/conformance.ts) where the shared harness is not: one line, exit 1. */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { test } from 'node:test';
import { promisify } from 'node:util';

const ROOT = path.resolve(import.meta.dirname, '..', '..');

test('without the harness: one line naming what is missing and where it was looked for, exit 1, no build', async () => {
  const missing = path.join(ROOT, 'no-such-folder', 'run.mjs');
  const ran = await promisify(execFile)(process.execPath, [path.join(ROOT, 'scripts', 'conformance.ts')], {
    env: { ...process.env, CONFORMANCE_HARNESS: missing },
    encoding: 'utf8',
  }).then(
    (r) => ({ code: 0, ...r }),
    (e: { code: number; stdout: string; stderr: string }) => e,
  );
  assert.equal(ran.code, 1);
  assert.equal(ran.stdout, '');
  assert.equal(ran.stderr.split('\n').length, 2, ran.stderr);
  assert.ok(ran.stderr.startsWith(`conformance: the harness ${missing} is missing;`), ran.stderr);
});
