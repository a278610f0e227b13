/** Test helper: the platform CLI in process against the fake platform, output captured line by line. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runPlatformCli } from '../../src/platform/main.ts';
import type { FakePlatform } from '../../src/platform/fake/fakePlatform.ts';

export interface Outcome {
  code: number;
  stdout: string[];
  stderr: string[];
}

export interface CliRun {
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  interrupt?: AbortSignal;
  /** Called with each stderr line as it is printed (to interrupt at a chosen moment). */
  onStderr?: (line: string) => void;
}

export function tempDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'platform-test-'));
}

export async function cli(platform: FakePlatform, argv: string[], run: CliRun = {}): Promise<Outcome> {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const lines = (t: string) => t.replace(/\n$/, '').split('\n');
  const code = await runPlatformCli({
    argv,
    env: run.env ?? { KBC_TOKEN: platform.token, KBC_URL: platform.storageUrl },
    cwd: run.cwd ?? os.tmpdir(),
    stdout: (t) => stdout.push(...lines(t)),
    stderr: (t) => {
      for (const line of lines(t)) {
        stderr.push(line);
        run.onStderr?.(line);
      }
    },
    allowHttpLoopback: true,
    pollIntervalMs: 5,
    ...(run.interrupt ? { interrupt: run.interrupt } : {}),
  });
  return { code, stdout, stderr };
}

/** No line printed and no request body holds the token or any of `secrets`. */
export function leaks(platform: FakePlatform, outcome: Outcome, secrets: string[]): string[] {
  const printed = [...outcome.stdout, ...outcome.stderr].join('\n');
  return [platform.token, ...secrets].filter((s) => printed.includes(s));
}
