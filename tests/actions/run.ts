/** Runs the built command on a data folder, as the platform does, and captures stdout/stderr. */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { runSyncAction } from '../../src/actions/index.ts';
import { createLogger } from '../../src/logging/logger.ts';
import { makeDataDir } from '../helpers/dataDir.ts';

const CLI = path.resolve(import.meta.dirname, '..', '..', 'dist', 'cli.js');

export interface ActionResult {
  code: number;
  stdout: string;
  stderr: string;
  dir: string;
  /** The answer parsed (JSON.parse: numbers lose the int/float distinction; compare stdout for bytes). */
  // biome-ignore lint/suspicious/noExplicitAny: an answer is arbitrary JSON, read field by field in the tests
  answer(): any;
}

export function runAction(config: unknown): Promise<ActionResult> {
  const dir = makeDataDir(config);
  return new Promise((resolve) => {
    execFile(process.execPath, [CLI], { env: { ...process.env, KBC_DATADIR: dir } }, (error, stdout, stderr) => {
      const code = error ? ((error as { code?: number }).code ?? 1) : 0;
      resolve({ code, stdout, stderr, dir, answer: () => JSON.parse(stdout) });
    });
  });
}

/**
 * Runs the action in this process, for what the built CLI cannot be given: a pagination method
 * registered by the test, a clock of its own. stderr is dropped.
 */
export async function runActionInProcess(config: { action: string }, nowMs?: () => number): Promise<{ code: number; stdout: string }> {
  let stdout = '';
  const code = await runSyncAction({
    action: config.action,
    configFile: path.join(makeDataDir(config), 'config.json'),
    logger: createLogger({ write: () => {} }),
    writeStdout: (t) => {
      stdout += t;
    },
    writeStderr: () => {},
    ...(nowMs ? { nowMs } : {}),
  });
  return { code, stdout };
}

/** The last traceback element of an envelope. */
export function lastLine(result: ActionResult): string {
  const answer = result.answer();
  return answer.traceback[answer.traceback.length - 1];
}

/** Nothing written under out/ (an action never writes files). */
export function outIsEmpty(dir: string): boolean {
  const out = path.join(dir, 'out');
  return !fs.existsSync(out) || fs.readdirSync(out).length === 0;
}
