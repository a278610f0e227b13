/**
 * The commands of `ex-generic-platform`, their options and their help, in one table: the parser,
 * `--help`, `<command> --help` and did-you-mean all read it, so a command cannot be documented
 * differently from how it is parsed.
 */
import { parseArgs } from 'node:util';
import { type ArgsProblem, argsProblem, joinOptionValues } from '../config/commandArgs.ts';
import { nearest } from '../config/suggest.ts';
import { CommandLineUsageError } from './errors/CommandLineUsageError.ts';

export const PROGRAM = 'ex-generic-platform';

type OptionSpec = { type: 'string' | 'boolean'; multiple?: boolean; short?: string; help: string; value?: string };

export const OPTIONS = {
  stack: { type: 'string', value: 'S', help: "a stack name (see `stacks`) or the https:// URL of a stack's Storage API; default $KBC_URL" },
  portal: { type: 'string', value: 'URL', help: 'the API portal URL (default: the known portal of --stack)' },
  component: { type: 'string', value: 'C', help: 'component id, e.g. keboola.ex-generic-v2' },
  config: { type: 'string', value: 'ID', help: 'configuration id' },
  id: { type: 'string', value: 'ID', help: 'job id (or give it as the argument)' },
  project: { type: 'string', value: 'ID', help: 'project id (default: read with the token from tokens/verify)' },
  value: { type: 'string', multiple: true, value: 'TEXT', help: 'a value to encrypt (repeatable)' },
  file: { type: 'string', value: 'PATH', help: 'a JSON file whose `#` values are encrypted (printed, the file is not changed)' },
  dir: { type: 'string', value: 'DIR', help: 'the local folder: config.json, meta.json, rows/<id>/config.json' },
  'dry-run': { type: 'boolean', help: 'show the diff; change nothing' },
  mode: { type: 'string', value: 'M', help: 'run, forceRun or debug (default run)' },
  branch: { type: 'string', value: 'ID', help: 'a dev branch id (default: the default branch)' },
  tag: { type: 'string', value: 'TAG', help: 'image tag of the component' },
  row: { type: 'string', multiple: true, value: 'ID', help: 'run only this row (repeatable)' },
  'config-data': { type: 'string', value: 'JSON', help: 'the whole configuration to run instead of the stored one' },
  'parent-run-id': { type: 'string', value: 'ID', help: 'make the job a child of this run (X-KBC-RunId)' },
  status: { type: 'string', multiple: true, value: 'S', help: 'only jobs with this status (repeatable)' },
  limit: { type: 'string', value: 'N', help: 'at most N jobs (default 20)' },
  wait: { type: 'boolean', help: 'wait until the job finishes, printing its log lines as they come' },
  follow: { type: 'boolean', help: 'keep printing new log lines until the job finishes' },
  timeout: { type: 'string', value: 'SECONDS', help: 'give up waiting after this long (exit 1)' },
  'fan-out': { type: 'string', value: 'rows|iterations', help: 'one job per row, or one job per slice of parameters.iterations' },
  slices: { type: 'string', value: 'N', help: 'iterations: cut the iterations into N slices (default 4)' },
  native: { type: 'boolean', help: "rows: one job with the queue's own `parallelism` instead of one job per row" },
  concurrency: { type: 'string', value: 'N', help: 'at most N job creations in flight (default 4)' },
  'fail-fast': { type: 'boolean', help: 'kill the other jobs as soon as one fails' },
  force: { type: 'boolean', help: 'run a disabled configuration (mode forceRun)' },
  json: { type: 'boolean', help: 'print JSON instead of text lines' },
  help: { type: 'boolean', short: 'h', help: 'this text' },
  version: { type: 'boolean', short: 'v', help: 'the version' },
} as const satisfies Record<string, OptionSpec>;

export type OptionName = keyof typeof OPTIONS;

export interface CommandSpec {
  name: string;
  summary: string;
  /** The required options and arguments, as the usage line shows them. */
  synopsis: string;
  options: readonly OptionName[];
  /** Positional arguments after the command words (a job id). */
  argument?: string;
  example: string;
}

const RUN_OPTIONS = [
  'stack',
  'component',
  'config',
  'mode',
  'branch',
  'tag',
  'row',
  'config-data',
  'parent-run-id',
  'wait',
  'timeout',
  'json',
] as const;
const FAN_OUT_OPTIONS = ['fan-out', 'slices', 'native', 'concurrency', 'fail-fast', 'force'] as const;

export const COMMANDS: readonly CommandSpec[] = [
  { name: 'stacks', summary: 'list the known stacks', synopsis: '', options: ['json'], example: 'stacks' },
  {
    name: 'services',
    summary: 'services of the stack, from its storage index (no token sent)',
    synopsis: '--stack S',
    options: ['stack', 'json'],
    example: 'services --stack eu-central-aws',
  },
  {
    name: 'apis',
    summary: "APIs listed by the stack's API portal (apis.json)",
    synopsis: '(--stack S | --portal URL)',
    options: ['stack', 'portal', 'json'],
    example: 'apis --stack us-east-aws',
  },
  {
    name: 'encrypt',
    summary:
      'encrypt values for a component, a configuration, or (no --component) the whole project; no token is sent to the Encryption API',
    synopsis: '[--component C [--config ID]] (--value TEXT... | --file PATH)',
    options: ['stack', 'component', 'config', 'project', 'value', 'file', 'json'],
    example: 'encrypt --stack us-east-aws --component keboola.ex-generic-v2 --value s3cret',
  },
  {
    name: 'config pull',
    summary: 'write a configuration and its rows into a local folder',
    synopsis: '--component C --config ID --dir DIR',
    options: ['stack', 'component', 'config', 'branch', 'dir', 'json'],
    example: 'config pull --component keboola.ex-generic-v2 --config 123 --dir ./my-config',
  },
  {
    name: 'config push',
    summary: 'encrypt the `#` values, show the diff, then write the folder to the configuration',
    synopsis: '--component C --config ID --dir DIR',
    options: ['stack', 'component', 'config', 'branch', 'dir', 'dry-run', 'json'],
    example: 'config push --component keboola.ex-generic-v2 --config 123 --dir ./my-config --dry-run',
  },
  {
    name: 'run',
    summary: "start a job of a configuration on the stack's queue (or fan it out over several jobs)",
    synopsis: '--component C --config ID',
    options: [...RUN_OPTIONS, ...FAN_OUT_OPTIONS],
    example: 'run --component keboola.ex-generic-v2 --config 123 --fan-out iterations --slices 4',
  },
  {
    name: 'jobs',
    summary: 'list recent jobs (newest first)',
    synopsis: '',
    options: ['stack', 'component', 'config', 'status', 'limit', 'json'],
    example: 'jobs --component keboola.ex-generic-v2 --status error',
  },
  {
    name: 'job',
    summary: 'show a job, or wait until it finishes',
    synopsis: 'ID',
    argument: 'ID',
    options: ['stack', 'id', 'wait', 'timeout', 'json'],
    example: 'job 1234 --wait',
  },
  {
    name: 'job log',
    summary: "a job's log lines (its events), oldest first",
    synopsis: 'ID',
    argument: 'ID',
    options: ['stack', 'id', 'follow', 'json'],
    example: 'job log 1234 --follow',
  },
  {
    name: 'job kill',
    summary: 'stop a job (cancelled if not started yet, terminated if running)',
    synopsis: 'ID',
    argument: 'ID',
    options: ['stack', 'id', 'json'],
    example: 'job kill 1234',
  },
];

export type ParsedValues = ReturnType<typeof parseAll>['values'];

export interface ParsedCommandLine {
  command: CommandSpec | undefined;
  values: ParsedValues;
  argument: string | undefined;
}

/** A string option followed by a negative number (`--limit -1`): joined, so the command's own check words the refusal. */
function takesNegativeNumber(option: string, value: string): boolean {
  const spec: OptionSpec | undefined = (OPTIONS as Record<string, OptionSpec>)[option.replace(/^--/, '')];
  return option.startsWith('--') && spec?.type === 'string' && /^-\d/.test(value);
}

function parseAll(args: string[]) {
  return parseArgs({ args, options: OPTIONS, strict: true, allowPositionals: true });
}

/** What node:util's parseArgs refused, in our words. */
function ownMessage({ kind, option }: ArgsProblem): string {
  switch (kind) {
    case 'unknown option': {
      const near = nearest(option.replace(/^-+/, ''), Object.keys(OPTIONS));
      return `unknown option ${option}${near ? ` (did you mean --${near}?)` : ''}`;
    }
    case 'missing value':
      return `${option} needs a value`;
    case 'unexpected value':
      return `${option} takes no value`;
  }
}

/** The command the first words name (two words before one: `job log` before `job`), and how many words it took. */
function lookupCommand(words: readonly string[]): { command: CommandSpec; words: number } | undefined {
  const two = COMMANDS.find((c) => c.name === `${words[0]} ${words[1]}`);
  if (two) return { command: two, words: 2 };
  const one = COMMANDS.find((c) => c.name === words[0]);
  return one ? { command: one, words: 1 } : undefined;
}

/** The command a list of words names, and the words after it. */
function findCommand(words: string[]): { command: CommandSpec; rest: string[] } {
  const found = lookupCommand(words);
  if (found) return { command: found.command, rest: words.slice(found.words) };
  const typed = words[0] === 'config' || words[0] === 'job' ? `${words[0]} ${words[1] ?? ''}`.trim() : words[0]!;
  const near = nearest(
    typed,
    COMMANDS.map((c) => c.name),
  );
  if (words[0] === 'config') throw new CommandLineUsageError(`"config" needs "pull" or "push"${near ? ` (did you mean "${near}"?)` : ''}`);
  throw new CommandLineUsageError(`unknown command "${typed}"${near ? ` (did you mean "${near}"?)` : ''}`);
}

/** Parses the command line; throws CommandLineUsageError with our own message. */
export function parseCommandLine(argv: string[]): ParsedCommandLine {
  let parsed: ReturnType<typeof parseAll>;
  const args = joinOptionValues(argv, takesNegativeNumber);
  try {
    parsed = parseAll(args);
  } catch (e) {
    // The command, when the line starts with one, so the message points to that command's help.
    throw new CommandLineUsageError(ownMessage(argsProblem(e, args, OPTIONS)), lookupCommand(argv)?.command.name);
  }
  const { values, positionals } = parsed;
  if (positionals.length === 0) return { command: undefined, values, argument: undefined };
  const { command, rest } = findCommand(positionals);
  if (rest.length > (command.argument ? 1 : 0))
    throw new CommandLineUsageError(`unexpected argument "${rest.at(-1)}" for "${command.name}"`, command.name);
  if (values.help) return { command, values, argument: rest[0] };
  for (const [name, value] of Object.entries(values)) {
    if (name === 'help' || name === 'version' || value === undefined || value === false) continue;
    if (!(command.options as readonly string[]).includes(name))
      throw new CommandLineUsageError(`--${name} does not apply to "${command.name}"`, command.name);
  }
  return { command, values, argument: rest[0] };
}

function optionLine(name: OptionName): string {
  const spec: OptionSpec = OPTIONS[name];
  const flag = `${spec.short ? `-${spec.short}, ` : ''}--${name}${spec.value ? ` ${spec.value}` : ''}`;
  return `  ${flag.padEnd(26)} ${spec.help}`;
}

/** `ex-generic-platform <command> --help`. */
export function commandHelp(command: CommandSpec): string {
  return [
    `usage: ${PROGRAM} ${command.name}${command.synopsis ? ` ${command.synopsis}` : ''} [options]`,
    '',
    `${command.summary[0]!.toUpperCase()}${command.summary.slice(1)}.`,
    '',
    'Options:',
    ...command.options.map(optionLine),
    optionLine('help'),
    '',
    `Example: ${PROGRAM} ${command.example}`,
  ].join('\n');
}

export function commandList(): string[] {
  const width = Math.max(...COMMANDS.map((c) => c.name.length));
  return COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`);
}
