/**
 * The command line of `ex-generic` (node:util parseArgs). No arguments is a run: the container's
 * entrypoint stays `node dist/cli.js`, and the platform's `action` in config.json still decides
 * between an extraction and a sync action.
 */
import { type ArgsProblem, argsProblem, joinOptionValues } from './config/commandArgs.ts';
import { nearest } from './config/suggest.ts';

export interface RunLimitsArg {
  maxPages?: number;
  maxRecords?: number;
}

export type Command =
  | { kind: 'run'; strict: boolean | undefined; limits: RunLimitsArg | undefined; dataDir?: string }
  | { kind: 'validate' | 'plan'; strict: boolean | undefined; dataDir?: string }
  | { kind: 'help' }
  | { kind: 'version' }
  | { kind: 'error'; message: string };

export const USAGE = `Usage: ex-generic [command] [options]

Reads config.json in the data folder like the Keboola platform does: --data DIR, else
$KBC_DATADIR, else /data.

Commands:
  run (default)   Extract: call the API, write out/tables and out/state.json.
  validate        Check the configuration offline (schema and the extractor's own checks);
                  nothing is sent. Exit 0 when valid, 1 when not.
  plan            Validate, then print the first request of each job (and the login
                  request, if any) as it would be sent, secrets hidden; nothing is sent.

Options:
  --data DIR          The data folder (config.json, in/, out/); wins over $KBC_DATADIR.
  --strict            Warnings about the configuration (unknown keys, wrong types, ...)
                      become an error: exit 1 before any request. Same as EX_GENERIC_STRICT=1.
                      Not for a sync action ("action" in config.json): exit 1.
  --max-pages N       run: a test read; every job (children too) stops after N pages.
  --max-records N     run: a test read; every job (children too) stops after N records.
                      A test read writes the tables (a sample) but no out/state.json.
  -h, --help          Show this help.
  -v, --version       Show the version.

Exit codes: 0 success, 1 configuration or API error, 2 internal error.`;

const COMMANDS = ['run', 'validate', 'plan'] as const;

const OPTIONS = {
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'v' },
  strict: { type: 'boolean' },
  data: { type: 'string' },
  'max-pages': { type: 'string' },
  'max-records': { type: 'string' },
} as const;

/** Options whose value is a number: `--max-pages -1` is a wrong number, not a missing one. */
const NUMBER_OPTIONS = new Set(['--max-pages', '--max-records']);

function positiveInteger(name: string, text: string | undefined): number | string {
  if (text === undefined || !/^[1-9]\d*$/.test(text))
    return `--${name} needs a whole number of 1 or more, got ${JSON.stringify(text ?? '')}.`;
  return Number(text);
}

/** " (did you mean 'x'?)" when `word` is a typo of one of `known` (written with `prefix`). */
function didYouMean(word: string, known: readonly string[], prefix = ''): string {
  const match = nearest(word, known);
  return match === undefined ? '' : ` (did you mean '${prefix}${match}'?)`;
}

export function parseCommandLine(args: readonly string[]): Command {
  // No arguments, a plain run, is how the platform starts every job: node:util's parser, loaded
  // and compiled, was ~0.8 ms of such a start for nothing to read (docs/performance.md, issue 28).
  if (args.length === 0) return { kind: 'run', strict: undefined, limits: undefined };
  let parsed: ReturnType<typeof parse>;
  // `--max-pages -1` as `--max-pages=-1`, so that our check words the refusal.
  const joined = joinOptionValues(args, (option) => NUMBER_OPTIONS.has(option));
  try {
    parsed = parse(joined);
  } catch (e) {
    return { kind: 'error', message: parserMessage(argsProblem(e, joined, OPTIONS)) };
  }
  const { values, positionals } = parsed;
  if (values.help) return { kind: 'help' };
  if (values.version) return { kind: 'version' };
  if (positionals.length > 1) return { kind: 'error', message: `Unexpected argument '${positionals[1]}'.` };
  const command = positionals[0] ?? 'run';
  if (!(COMMANDS as readonly string[]).includes(command))
    return {
      kind: 'error',
      message: `Unknown command '${command}'${didYouMean(command, COMMANDS)}; the commands are ${COMMANDS.join(', ')}.`,
    };
  if (values.data === '') return { kind: 'error', message: '--data needs the path of a data folder (the folder holding config.json).' };
  const common = { strict: values.strict === true ? true : undefined, ...(values.data !== undefined ? { dataDir: values.data } : {}) };
  const hasLimits = values['max-pages'] !== undefined || values['max-records'] !== undefined;
  if (command !== 'run') {
    if (hasLimits) return { kind: 'error', message: `--max-pages and --max-records apply to 'run' only.` };
    return { kind: command as 'validate' | 'plan', ...common };
  }
  if (!hasLimits) return { kind: 'run', ...common, limits: undefined };
  const limits: RunLimitsArg = {};
  for (const [option, key] of [
    ['max-pages', 'maxPages'],
    ['max-records', 'maxRecords'],
  ] as const) {
    if (values[option] === undefined) continue;
    const n = positiveInteger(option, values[option]);
    if (typeof n === 'string') return { kind: 'error', message: n };
    limits[key] = n;
  }
  return { kind: 'run', ...common, limits };
}

/** Our message for what node:util's parser refuses (its own text names its API, not ours). */
function parserMessage({ kind, option }: ArgsProblem): string {
  switch (kind) {
    case 'unknown option':
      return `Unknown option '${option}'${didYouMean(option.replace(/^-+/, ''), Object.keys(OPTIONS), '--')}.`;
    case 'unexpected value':
      return `${option} takes no value.`;
    case 'missing value':
      return `${option} needs a value: ${option === '--data' ? '--data DIR, the folder holding config.json' : `${option} N`}.`;
  }
}

function parse(args: readonly string[]) {
  // Taken by name from the builtin, not imported: the bundle's import of a builtin copies its
  // exports' descriptors, and reading those of node:util loads the stream stack and worker_threads
  // (~30 of Node's internal modules) into every run (scripts/bundle.ts, issue 28).
  const { parseArgs } = process.getBuiltinModule('node:util');
  return parseArgs({ args: [...args], allowPositionals: true, strict: true, options: OPTIONS });
}
