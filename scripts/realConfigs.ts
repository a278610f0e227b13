/**
 * `node scripts/realConfigs.ts`: every real configuration of ../shared/realcfg-configs (public
 * templates, docs and the reference's own test configurations) run by the built command against a
 * local stub API, none of them may crash. A crash: an exit code other than 0 (done) or 1 (the
 * user's error), a stack trace in what it printed, or no end within the time allowed. Exit 2 is
 * the answer only to a config.json that is empty or not a JSON object, as the reference's
 * application error.
 *
 * Every absolute URL in a configuration (its base URL, absolute endpoints, login and token URLs)
 * is pointed at a stub of its own on 127.0.0.1, which answers every request 200 `{}`. A URL that
 * a user function builds at run time cannot be pointed there; so, where it can (root, `unshare`
 * and `ip`), the script runs itself in a network namespace with loopback only, where any other
 * host fails at once. Elsewhere it says so and runs as it is.
 *
 *   node scripts/realConfigs.ts [--dir DIR] [--jobs N] [--timeout SECONDS] [--errors]
 *
 * `--errors`: a line per run — the file, the exit code, its ERROR lines.
 * Prints one line per configuration that crashed and a summary (runs, exit codes, requests);
 * exits 1 when one crashed, 2 when the folder is missing. `npm run build` first.
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..');
const CLI = path.join(ROOT, 'dist', 'cli.js');
const ISOLATED = 'EX_GENERIC_REAL_CONFIGS_ISOLATED';

function option(name: string, fallback: string): string {
  const at = process.argv.indexOf(name);
  return at > 0 && process.argv[at + 1] !== undefined ? process.argv[at + 1]! : fallback;
}

const dir = path.resolve(ROOT, option('--dir', '../shared/realcfg-configs'));
const jobs = Math.max(1, Number(option('--jobs', '4')) || 4);
const timeoutMs = Math.max(1, Number(option('--timeout', '60')) || 60) * 1000;
const showErrors = process.argv.includes('--errors');

/** Runs this script again in a network namespace with loopback only; its exit code, or undefined where that cannot be done. */
function inLoopbackOnlyNamespace(): number | undefined {
  if (process.env[ISOLATED] !== undefined || process.getuid?.() !== 0) return undefined;
  const probe = spawnSync('unshare', ['-n', 'ip', 'link', 'set', 'lo', 'up'], { stdio: 'ignore' });
  if (probe.status !== 0) return undefined;
  const script = `ip link set lo up && exec "$@"`;
  const args = ['-n', 'sh', '-c', script, 'sh', process.execPath, ...process.execArgv, ...process.argv.slice(1)];
  const run = spawnSync('unshare', args, { stdio: 'inherit', env: { ...process.env, [ISOLATED]: '1' } });
  return run.status ?? 2;
}

interface Outcome {
  name: string;
  code: number | null;
  requests: number;
  crash?: string;
}

/** A stub API answering every request 200 `{}`; counts what it is asked. */
async function startStub(): Promise<{ origin: string; requests: () => number; close: () => Promise<void> }> {
  let requests = 0;
  const server = http.createServer((req, res) => {
    requests++;
    req.resume();
    res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': '2' });
    res.end('{}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    requests: () => requests,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/** The configuration's text with every absolute URL's scheme and host replaced by `origin`. */
function pointedAt(text: string, origin: string): string {
  return text.replace(/https?:\/\/[^/"\s?#\\]+/g, origin);
}

/**
 * config.json as the platform would write it from a file of the collection, which keeps each as
 * its source has it: a UI template's `api` and `config` (the UI joins them under `parameters`), a
 * documentation example under `full`, or config.json itself. `_source` says where it came from.
 * An empty file stays empty (the reference's application error, exit 2).
 */
function configJson(text: string): string {
  if (!isJsonObject(text)) return text;
  const { _source, ...file } = JSON.parse(text) as Record<string, unknown>;
  const whole = (file['full'] ?? file) as Record<string, unknown>;
  const { api, config, ...rest } = whole;
  const joined = whole['parameters'] !== undefined ? whole : { ...rest, parameters: { api, config } };
  return JSON.stringify(withoutRetries(withUserData(joined)));
}

/** The names a configuration's user functions read with `{"attr": …}`. */
function attrNames(value: unknown, names = new Set<string>()): Set<string> {
  if (Array.isArray(value)) for (const item of value) attrNames(item, names);
  else if (value !== null && typeof value === 'object') {
    const attr = (value as Record<string, unknown>)['attr'];
    if (typeof attr === 'string' && Object.keys(value).length === 1) names.add(attr);
    for (const item of Object.values(value)) attrNames(item, names);
  }
  return names;
}

/**
 * What the platform's UI asks the user for: a template reads fields of `parameters.config` the
 * user fills in a form (`{"attr": "domain"}`), and a component with OAuth gets its credentials
 * from the platform (`authorization`, read only by OAuth). Missing ones are given dummy values,
 * so that the run goes past them (a name with a dot, like `authorization.token`, is left alone:
 * it is a path).
 */
function withUserData(config: Record<string, unknown>): Record<string, unknown> {
  const parameters = (config['parameters'] ?? {}) as Record<string, unknown>;
  const own = parameters['config'];
  if (own === null || typeof own !== 'object' || Array.isArray(own)) return config;
  const filled: Record<string, unknown> = { ...own };
  for (const name of attrNames(parameters))
    if (!name.includes('.') && filled[name] === undefined) filled[name] = `dummy-${name.replace('#', '')}`;
  const oauth = {
    credentials: {
      appKey: 'dummy-app',
      '#appSecret': 'dummy-secret',
      '#data': '{"access_token":"dummy-token","refresh_token":"dummy-refresh"}',
    },
  };
  return { ...config, authorization: config['authorization'] ?? { oauth_api: oauth }, parameters: { ...parameters, config: filled } };
}

/**
 * Retries off: a host a user function builds at run time is not the stub, and fails at once
 * instead of after minutes of backoff (the stub itself always answers 200, so nothing else is
 * retried).
 */
function withoutRetries(config: Record<string, unknown>): Record<string, unknown> {
  const parameters = config['parameters'] as Record<string, unknown> | undefined;
  const api = parameters?.['api'];
  if (api === null || typeof api !== 'object' || Array.isArray(api)) return config;
  const retryConfig = (api as Record<string, unknown>)['retryConfig'];
  const retries = retryConfig !== null && typeof retryConfig === 'object' && !Array.isArray(retryConfig) ? retryConfig : {};
  return { ...config, parameters: { ...parameters, api: { ...api, retryConfig: { ...retries, maxRetries: 0 } } } };
}

/** Whether `text` is a JSON object: config.json as the platform writes it. */
function isJsonObject(text: string): boolean {
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' && !Array.isArray(value);
  } catch {
    return false;
  }
}

/** Why a finished run counts as a crash, if it does. */
function crashOf(code: number | null, output: string, configText: string, timedOut: boolean): string | undefined {
  if (timedOut) return `no end after ${timeoutMs / 1000} s`;
  const trace = output.split('\n').find((line) => /^\s+at .+[(:]\d+/.test(line) || /"trace":/.test(line));
  if (trace !== undefined) return `a stack trace: ${trace.trim().slice(0, 160)}`;
  if (code === 0 || code === 1) return undefined;
  if (code === 2 && !isJsonObject(configText)) return undefined;
  return `exit ${code}: ${output.trim().split('\n').slice(-1)[0]?.slice(0, 200) ?? ''}`;
}

async function runOne(file: string): Promise<Outcome> {
  const name = path.relative(dir, file);
  const stub = await startStub();
  const data = fs.mkdtempSync(path.join(os.tmpdir(), 'real-config-'));
  try {
    const configText = fs.readFileSync(file, 'utf8');
    fs.writeFileSync(path.join(data, 'config.json'), pointedAt(configJson(configText), stub.origin));
    const child = spawn(process.execPath, [CLI], {
      env: { PATH: process.env['PATH'] ?? '', KBC_DATADIR: data },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (output += c.toString('utf8')));
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, timeoutMs);
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    clearTimeout(timer);
    const crash = crashOf(code, output, configText, timedOut);
    if (showErrors) process.stdout.write(`${name}\t${code}\t${(output.match(/logger\.ERROR: .*/g) ?? []).join(' | ').slice(0, 200)}\n`);
    return { name, code, requests: stub.requests(), ...(crash !== undefined ? { crash } : {}) };
  } finally {
    await stub.close();
    fs.rmSync(data, { recursive: true, force: true });
  }
}

async function runAll(files: string[]): Promise<Outcome[]> {
  const outcomes: Outcome[] = new Array(files.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < files.length) {
      const i = next++;
      outcomes[i] = await runOne(files[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(jobs, files.length) }, worker));
  return outcomes;
}

function configFiles(folder: string): string[] {
  return fs
    .readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.json'))
    .map((entry) => path.join(entry.parentPath, entry.name))
    .sort();
}

async function main(): Promise<number> {
  if (!fs.existsSync(dir)) {
    process.stderr.write(
      `real configurations: ${dir} is missing; it is not part of this repository (../shared/realcfg-configs), or name it with --dir.\n`,
    );
    return 2;
  }
  if (!fs.existsSync(CLI)) {
    process.stderr.write(`real configurations: ${CLI} is missing; run npm run build first.\n`);
    return 2;
  }
  const isolated = inLoopbackOnlyNamespace();
  if (isolated !== undefined) return isolated;
  if (process.env[ISOLATED] === undefined) {
    process.stdout.write(
      'real configurations: not in a loopback-only network namespace (needs root, unshare and ip): a URL a function builds may reach its host.\n',
    );
  }
  const started = Date.now();
  const outcomes = await runAll(configFiles(dir));
  const crashes = outcomes.filter((o) => o.crash !== undefined);
  for (const o of crashes) process.stdout.write(`CRASH ${o.name}: ${o.crash}\n`);
  const codes = new Map<string, number>();
  for (const o of outcomes) codes.set(String(o.code), (codes.get(String(o.code)) ?? 0) + 1);
  const requests = outcomes.reduce((sum, o) => sum + o.requests, 0);
  const byCode = [...codes].map(([code, n]) => `exit ${code}: ${n}`).join(', ');
  process.stdout.write(
    `real configurations: ${outcomes.length} run, ${crashes.length} crashed (${byCode}), ${requests} requests, ${((Date.now() - started) / 1000).toFixed(1)} s\n`,
  );
  return crashes.length === 0 ? 0 : 1;
}

process.exitCode = await main();
