/**
 * On a machine without OpenSSH the sshd suites skip, and the summary of `npm test` must count
 * their tests as skipped (a skipped suite counts none of them, so the summary looked complete).
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { test } from 'node:test';
import { promisify } from 'node:util';

const HERE = import.meta.dirname;

test('without sshd, every sshd test is counted as skipped', async () => {
  // A runner of its own: with the parent's NODE_TEST_CONTEXT it would report to this test instead.
  const { NODE_TEST_CONTEXT: _, ...env } = process.env;
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--test', '--test-reporter=tap', path.join(HERE, 'cli.test.ts'), path.join(HERE, 'component.test.ts')],
    { env: { ...env, TEST_SSHD: path.join(HERE, 'no-such-sshd') }, encoding: 'utf8', timeout: 60_000 },
  );
  const count = (name: string): number => Number(new RegExp(`^# ${name} (\\d+)$`, 'm').exec(stdout)?.[1]);
  assert.equal(count('skipped'), 4, stdout);
  assert.equal(count('tests'), 4, stdout);
  assert.equal(count('fail'), 0, stdout);
});
