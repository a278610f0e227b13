/**
 * A data folder the process cannot write (src/component/files.ts, checkDataDirWritable): one ERROR
 * line naming the folder and the fix, exit 1, no stack trace, nothing written — checked before any
 * request. The built command runs as another uid (when the tests run as root, as CI does) or on a
 * folder without write permission (otherwise): real file-system permissions either way.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { makeDataDir } from '../helpers/dataDir.ts';

const CLI = path.resolve(import.meta.dirname, '..', '..', 'dist', 'cli.js');
const isRoot = process.getuid?.() === 0;
const OTHER_UID = 4242;

/** The command and Node must be reachable by OTHER_UID for the root variant. */
function readableByOthers(file: string): boolean {
  for (let p = file; p !== path.dirname(p); p = path.dirname(p)) if ((fs.statSync(p).mode & 0o005) === 0) return false;
  return true;
}

const skip =
  process.getuid === undefined ? 'no uids on this platform' : isRoot && !(readableByOthers(CLI) && readableByOthers(process.execPath));

function runAsOther(dir: string): Promise<{ code: number; stdout: string; stderr: string }> {
  const ids = isRoot ? { uid: OTHER_UID, gid: OTHER_UID } : {};
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [CLI],
      { env: { PATH: process.env['PATH'] ?? '', KBC_DATADIR: dir }, encoding: 'utf8', ...ids },
      (error, stdout, stderr) => resolve({ code: error === null ? 0 : Number(error.code), stdout, stderr }),
    );
  });
}

/** A data folder with a configuration that passes every check before the first request. */
function dataDir(): string {
  const dir = makeDataDir({
    parameters: { api: { baseUrl: 'http://127.0.0.1:9/' }, config: { outputBucket: 'b', jobs: [{ endpoint: 'items' }] } },
  });
  fs.chmodSync(dir, 0o755);
  fs.chmodSync(path.join(dir, 'config.json'), 0o644);
  return dir;
}

function assertOneErrorLine(result: { code: number; stdout: string; stderr: string }, folder: string): void {
  assert.equal(result.code, 1, result.stdout + result.stderr);
  const errors = result.stdout.split('\n').filter((l) => l.includes('.ERROR:'));
  assert.equal(errors.length, 1, result.stdout);
  assert.ok(errors[0]!.includes(`The data folder cannot be written: ${folder} is not writable by this process`), errors[0]);
  assert.match(errors[0]!, /docker run --user "\$\(id -u\):\$\(id -g\)"/);
  assert.doesNotMatch(result.stdout + result.stderr, /EACCES|trace|\n\s+at /);
}

test('a data folder the process cannot write: exit 1, one ERROR line naming it and the fix, nothing written', { skip }, async () => {
  const dir = dataDir();
  if (!isRoot) fs.chmodSync(dir, 0o555);
  try {
    const result = await runAsOther(dir);
    assertOneErrorLine(result, dir);
    assert.ok(!fs.existsSync(path.join(dir, 'out')));
  } finally {
    fs.chmodSync(dir, 0o755);
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('an out/tables the process cannot write is found before the extraction, not when the tables are moved there', { skip }, async () => {
  const dir = dataDir();
  const tables = path.join(dir, 'out', 'tables');
  fs.mkdirSync(tables, { recursive: true });
  // The data folder and out/ are writable by anyone; out/tables is not writable by the run's user.
  fs.chmodSync(dir, 0o777);
  fs.chmodSync(path.join(dir, 'out'), 0o777);
  fs.chmodSync(tables, 0o555);
  try {
    const result = await runAsOther(dir);
    assertOneErrorLine(result, tables);
    assert.deepEqual(fs.readdirSync(path.join(dir, 'out')), ['tables']);
  } finally {
    fs.chmodSync(tables, 0o755);
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
