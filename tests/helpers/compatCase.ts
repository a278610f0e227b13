/**
 * Runs one case of tests/component/compat-cases/ (the differential comparison with the reference,
 * issue 22; the folder's README explains the format): serves its routes.json from a real server on
 * 127.0.0.1 port 0, runs the component on its config.json, and returns what the run wrote and which
 * requests reached the server.
 */
import fs from 'node:fs';
import path from 'node:path';
import * as extractor from '../../src/extractor.ts';
import { type Received, startServer } from './httpServer.ts';
import { tempDir } from './tempDirs.ts';

export const CASES = path.join(import.meta.dirname, '..', 'component', 'compat-cases');

/** The script of the output worker thread when a run starts one (the command's own entry). */
const WORKER_SCRIPT = new URL('../../src/cli.ts', import.meta.url);

interface Route {
  path: string;
  param: string | null;
  pages: Record<string, string>;
  dflt: string;
}

export interface CaseRun {
  code: number;
  lines: string[];
  /** out/tables: file name → bytes (latin1 string, so a byte comparison is a string comparison). */
  tables: Record<string, string>;
  state: string | undefined;
  /** `METHOD <target without the case segment>` per request, in arrival order. */
  requests: string[];
  /** `METHOD <target> | x-a: v; x-b: w` (the X- headers as the server received them, bytes as Latin-1). */
  requestHeaders: string[];
}

/** Every case folder (one holding a config.json), as `<class>/<seed>`. */
export function caseNames(): string[] {
  const names: string[] = [];
  for (const cls of fs.readdirSync(CASES).sort()) {
    const dir = path.join(CASES, cls);
    if (!fs.statSync(dir).isDirectory()) continue;
    for (const seed of fs.readdirSync(dir).sort()) {
      if (fs.existsSync(path.join(dir, seed, 'config.json'))) names.push(`${cls}/${seed}`);
    }
  }
  return names;
}

function parameterOf(req: Received, url: URL, name: string): string | undefined {
  const fromQuery = url.searchParams.get(name);
  if (fromQuery !== null) return fromQuery;
  if (req.body === '') return undefined;
  try {
    const body: unknown = JSON.parse(req.body);
    if (body !== null && typeof body === 'object' && name in body) return String((body as Record<string, unknown>)[name]);
  } catch {
    const v = new URLSearchParams(req.body).get(name);
    if (v !== null) return v;
  }
  return undefined;
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** The README's answer rule: `pages[value of param]`, else `dflt`; unknown paths 404. */
function answer(routes: Route[], req: Received): { status: number; body: string } {
  const url = new URL(req.target, 'http://127.0.0.1');
  const rest = url.pathname.replace(/^\/[^/]*/, ''); // the case segment
  const route = routes.find((r) => r.path === rest || r.path === safeDecode(rest));
  if (!route) return { status: 404, body: '{"error":"no route"}' };
  const value = route.param === null ? '' : (parameterOf(req, url, route.param) ?? '');
  return { status: 200, body: Object.hasOwn(route.pages, value) ? route.pages[value]! : route.dflt };
}

function readTables(dir: string): Record<string, string> {
  const tables = path.join(dir, 'out', 'tables');
  if (!fs.existsSync(tables)) return {};
  return Object.fromEntries(
    fs
      .readdirSync(tables)
      .sort()
      .map((f) => [f, fs.readFileSync(path.join(tables, f), 'latin1')]),
  );
}

/** Runs case `name`; `previousStart` (seconds) is the run's clock, so state.json can be compared whole. */
export async function runCase(name: string, options: { previousStart?: number; outputWorker?: 'always' | 'off' } = {}): Promise<CaseRun> {
  const caseDir = path.join(CASES, name);
  const routes = JSON.parse(fs.readFileSync(path.join(caseDir, 'routes.json'), 'utf8')) as Route[];
  const server = await startServer((req, res) => {
    const { status, body } = answer(routes, req);
    res.writeHead(status, { 'Content-Type': 'application/json' });
    res.end(body);
  });
  const dir = tempDir('compat-case-');
  try {
    const config = fs.readFileSync(path.join(caseDir, 'config.json'), 'utf8').replace('127.0.0.1:PORT', `127.0.0.1:${server.port}`);
    fs.writeFileSync(path.join(dir, 'config.json'), config);
    const lines: string[] = [];
    const code = await extractor.run({
      env: { KBC_DATADIR: dir, EX_GENERIC_OUTPUT_WORKER: options.outputWorker ?? 'off', EX_GENERIC_CONCURRENCY: '1' },
      write: (line) => lines.push(line),
      sleep: async () => {},
      nowMs: () => (options.previousStart ?? 0) * 1000,
      outputWorker: { script: WORKER_SCRIPT },
    });
    const stateFile = path.join(dir, 'out', 'state.json');
    const strip = (t: string): string => t.replace(/^\/[^/?]*/, '');
    return {
      code,
      lines,
      tables: readTables(dir),
      state: fs.existsSync(stateFile) ? fs.readFileSync(stateFile, 'latin1') : undefined,
      requests: server.requests.map((r) => `${r.method} ${strip(r.target)}`),
      requestHeaders: server.requests.map((r) => {
        const xs = Object.keys(r.headers)
          .filter((h) => h.startsWith('x-'))
          .sort()
          .map((h) => `${h}: ${String(r.headers[h])}`);
        return `${r.method} ${strip(r.target)} | ${xs.join('; ')}`;
      }),
    };
  } finally {
    await server.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
