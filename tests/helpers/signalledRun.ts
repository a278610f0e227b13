/**
 * Runs the built command (`dist/cli.js`, built by `npm test`'s pretest) on a data folder and sends
 * it `signal` once `trigger` resolves; a run that ignores the signal is killed hard after
 * `hardKillMs`, which the caller's assertions then see as `signal: 'SIGKILL'`.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const CLI = path.resolve(import.meta.dirname, '..', '..', 'dist', 'cli.js');

export interface SignalledExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** From the spawn to the exit. */
  ms: number;
}

export async function runCliUntilSignal(
  dir: string,
  trigger: Promise<void>,
  signal: NodeJS.Signals,
  hardKillMs = 10_000,
): Promise<SignalledExit> {
  assert.ok(fs.existsSync(CLI), `${CLI} is missing: build first (npm run build)`);
  const started = Date.now();
  const child = spawn(process.execPath, [CLI], {
    env: { PATH: process.env['PATH'] ?? '', KBC_DATADIR: dir },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
  // 'close', not 'exit': the pipes are drained when it fires.
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('close', (code, sig) => resolve({ code, signal: sig })),
  );
  const hard = setTimeout(() => child.kill('SIGKILL'), hardKillMs);
  void trigger.then(() => child.kill(signal));
  const result = await exited;
  clearTimeout(hard);
  return { ...result, stdout, stderr, ms: Date.now() - started };
}
