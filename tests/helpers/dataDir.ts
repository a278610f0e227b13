/** Temporary data folders for end-to-end runs of the component. */
import fs from 'node:fs';
import path from 'node:path';
import * as extractor from '../../src/extractor.ts';
import { tempDir } from './tempDirs.ts';

export interface RunResult {
  code: number;
  lines: string[];
  dir: string;
  tables(): Record<string, string>;
  state(): string | undefined;
}

export function makeDataDir(config: unknown, state?: unknown): string {
  const dir = tempDir('ge-test-');
  fs.writeFileSync(path.join(dir, 'config.json'), typeof config === 'string' ? config : JSON.stringify(config));
  if (state !== undefined) {
    fs.mkdirSync(path.join(dir, 'in'));
    fs.writeFileSync(path.join(dir, 'in', 'state.json'), typeof state === 'string' ? state : JSON.stringify(state));
  }
  return dir;
}

export function readTables(dir: string): Record<string, string> {
  const tables = path.join(dir, 'out', 'tables');
  if (!fs.existsSync(tables)) return {};
  return Object.fromEntries(
    fs
      .readdirSync(tables)
      .sort()
      .map((f) => [f, fs.readFileSync(path.join(tables, f), 'utf8')]),
  );
}

export async function runIn(dir: string, options: { nowMs?: () => number } = {}): Promise<RunResult> {
  const lines: string[] = [];
  const code = await extractor.run({
    env: { KBC_DATADIR: dir },
    write: (line) => lines.push(line),
    sleep: async () => {},
    ...(options.nowMs ? { nowMs: options.nowMs } : {}),
  });
  return {
    code,
    lines,
    dir,
    tables: () => readTables(dir),
    state: () => {
      const file = path.join(dir, 'out', 'state.json');
      return fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : undefined;
    },
  };
}

export async function run(config: unknown, state?: unknown): Promise<RunResult> {
  return runIn(makeDataDir(config, state));
}

/** Nothing of a failed run may reach out/: no table files, no state, no staging left over. */
export function outIsEmpty(dir: string): boolean {
  const out = path.join(dir, 'out');
  if (!fs.existsSync(out)) return true;
  const entries = fs.readdirSync(out, { recursive: true }) as string[];
  return entries.every((e) => e === 'tables');
}
