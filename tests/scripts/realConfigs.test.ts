/**
 * Every real configuration of ../shared/realcfg-configs runs without a crash against a local stub
 * (scripts/realConfigs.ts: in a network namespace with loopback only where it can be made). The
 * collection is not part of this repository: without it the test is skipped. `npm test` builds
 * dist/ first (pretest).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const COLLECTION = path.resolve(ROOT, '..', 'shared', 'realcfg-configs');

test('the real configurations: none crashes (exit 0 or 1, no stack trace, an end within a minute)', {
  skip: !fs.existsSync(COLLECTION) && `${COLLECTION} is missing`,
}, (t) => {
  const run = spawnSync(process.execPath, [path.join(ROOT, 'scripts', 'realConfigs.ts'), '--jobs', '2'], { cwd: ROOT, encoding: 'utf8' });
  const summary = run.stdout.trim().split('\n').at(-1) ?? '';
  t.diagnostic(summary);
  assert.equal(run.status, 0, `${run.stdout}${run.stderr}`);
  assert.match(summary, /^real configurations: (\d+) run, 0 crashed/);
  assert.ok(Number(/(\d+) run/.exec(summary)?.[1]) >= 200, summary);
});
