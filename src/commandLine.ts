/**
 * The command line of `ex-generic` (node:util parseArgs). No arguments is a run: the container's
 * entrypoint stays `node dist/cli.js`, and the platform's `action` in config.json still decides
 * between an extraction and a sync action.
 */
// Taken by name from the builtin, not imported: the bundle's import of a builtin copies its
// exports' descriptors, and reading those of node:util loads the stream stack and worker_threads
// (~30 of Node's internal modules) into every run (scripts/bundle.ts, issue 28).
const { parseArgs } = process.getBuiltinModule('node:util');

export interface RunLimitsArg {
  maxPages?: number;
  maxRecords?: number;
}

export type Command =
  | { kind: 'run'; strict: boolean | undefined; limits: RunLimitsArg | undefined }
  | { kind: 'validate' | 'plan'; strict: boolean | undefined }
  | { kind: 'help' }
  | { kind: 'version' }
  | { kind: 'error'; message: string };

export const USAGE = `Usage: ex-generic [command] [options]

Reads $KBC_DATADIR/config.json (default /data) like the Keboola platform does.

Commands:
  run (default)   Extract: call the API, write out/tables and out/state.json.
  validate        Check the configuration offline (schema and the extractor's own checks);
                  nothing is sent. Exit 0 when valid, 1 when not.
  plan            Validate, then print the first request of each job (and the login
                  request, if any) as it would be sent, secrets hidden; nothing is sent.

Options:
  --strict            Warnings about the configuration (unknown keys, wrong types, ...)
                      become an error: exit 1 before any request. Same as EX_GENERIC_STRICT=1.
                      Not for a sync action ("action" in config.json): exit 1.
  --max-pages N       run: a test read; every job (children too) stops after N pages.
  --max-records N     run: a test read; every job (children too) stops after N records.
                      A test read writes the tables (a sample) but no out/state.json.
  -h, --help          Show this help.
  -v, --version       Show the version.

Exit codes: 0 success, 1 configuration or API error, 2 internal error.`;

function positiveInteger(name: string, text: string | undefined): number | string {
  if (text === undefined || !/^[1-9]\d*$/.test(text))
    return `--${name} needs a whole number of 1 or more, got ${JSON.stringify(text ?? '')}.`;
  return Number(text);
}

export function parseCommandLine(args: readonly string[]): Command {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(args);
  } catch (e) {
    // Node's hint about '--' does not apply: no command takes a positional argument starting with '-'.
    return { kind: 'error', message: (e as Error).message.replace(/\. To specify a positional argument.*$/s, '.') };
  }
  const { values, positionals } = parsed;
  if (values.help) return { kind: 'help' };
  if (values.version) return { kind: 'version' };
  if (positionals.length > 1) return { kind: 'error', message: `Unexpected argument '${positionals[1]}'.` };
  const command = positionals[0] ?? 'run';
  if (command !== 'run' && command !== 'validate' && command !== 'plan') return { kind: 'error', message: `Unknown command '${command}'.` };
  const strict = values.strict === true ? true : undefined;
  const hasLimits = values['max-pages'] !== undefined || values['max-records'] !== undefined;
  if (command !== 'run') {
    if (hasLimits) return { kind: 'error', message: `--max-pages and --max-records apply to 'run' only.` };
    return { kind: command, strict };
  }
  if (!hasLimits) return { kind: 'run', strict, limits: undefined };
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
  return { kind: 'run', strict, limits };
}

function parse(args: readonly string[]) {
  return parseArgs({
    args: [...args],
    allowPositionals: true,
    strict: true,
    options: {
      help: { type: 'boolean', short: 'h' },
      version: { type: 'boolean', short: 'v' },
      strict: { type: 'boolean' },
      'max-pages': { type: 'string' },
      'max-records': { type: 'string' },
    },
  });
}
