/**
 * The `ex-generic-platform` command (cli.ts is its entry point): a stack's services and APIs,
 * encryption, configurations pulled and pushed, jobs run (or fanned out), listed, followed and
 * killed. Everything it prints passes through one redaction of the token.
 */
import fs from 'node:fs';
import path from 'node:path';
import dotenv from 'dotenv';
import { UserError } from '../errors/UserError.ts';
import { type CliContext, makeContext, type PlatformCliIo } from './cliContext.ts';
import { COMMANDS, commandHelp, commandList, PROGRAM, parseCommandLine } from './commandTable.ts';
import { configPull, configPush, encryptValues } from './commandsConfig.ts';
import { jobLog, killJob, listJobs, runOneJob, showJob } from './commandsJobs.ts';
import { listApis, listServices, listStacks } from './commandsStack.ts';
import { CommandLineUsageError } from './errors/CommandLineUsageError.ts';
import { PlatformUsageError } from './errors/PlatformUsageError.ts';
import { runFanOut } from './fanOut.ts';
import { STACKS } from './stacks.ts';

export { PROGRAM };
export type { PlatformCliIo };

const HANDLERS: Record<string, (ctx: CliContext) => Promise<number>> = {
  stacks: listStacks,
  services: listServices,
  apis: listApis,
  encrypt: encryptValues,
  'config pull': configPull,
  'config push': configPush,
  run: (ctx) => (ctx.values['fan-out'] === undefined ? runOneJob(ctx) : runFanOut(ctx)),
  jobs: listJobs,
  job: showJob,
  'job log': jobLog,
  'job kill': killJob,
};

export function usage(): string {
  const width = Math.max(...STACKS.map((s) => s.name.length));
  const labelWidth = Math.max(...STACKS.map((s) => s.label.length));
  return [
    `usage: ${PROGRAM} <command> [options]       (${PROGRAM} <command> --help for its options)`,
    '',
    'Commands:',
    ...commandList(),
    '',
    "Common options: --stack S (a stack name below, or the https:// URL of a stack's Storage API;",
    '  single-tenant stacks: https://connection.CUSTOMER.keboola.com; default $KBC_URL), --json,',
    '  -h/--help, -v/--version. Run with --wait (or use `job --wait`) to wait for a job.',
    '',
    'Stacks:',
    ...STACKS.map((s) => `  ${s.name.padEnd(width)}  ${s.label.padEnd(labelWidth)}  ${s.storageUrl}`),
    '',
    'Environment: KBC_TOKEN, the Storage API token (also read from ./.env); KBC_URL, the default stack.',
    'A token works only on the stack that issued it. It is sent only to services listed by that',
    "stack's own index, over https, never through redirects, and never printed.",
    'Exit status: 0 done (waited jobs ended in success or warning); 1 usage error, API error, invalid',
    'token, unreachable stack, a job that failed, wait timeout; 2 internal error. See docs/platform.md.',
  ].join('\n');
}

/** The package's version (package.json two folders up, from src/platform/ or dist/platform/). */
function version(): string {
  try {
    return (JSON.parse(fs.readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
  } catch {
    return 'unknown';
  }
}

/** Runs the command; returns the exit status. */
export async function runPlatformCli(io: PlatformCliIo): Promise<number> {
  const env: NodeJS.ProcessEnv = { ...(io.env ?? process.env) };
  // A .env file fills in what the environment does not set.
  dotenv.config({ path: path.join(io.cwd ?? process.cwd(), '.env'), processEnv: env as Record<string, string>, quiet: true });
  const bare = makeContext(io, env, {}, undefined);
  let commandName: string | undefined;
  try {
    const { command, values, argument } = parseCommandLine(io.argv);
    commandName = command?.name;
    if (values.version) return print(bare.out, `${PROGRAM} ${version()}`);
    if (command === undefined) {
      if (values.help) return print(bare.out, usage());
      throw new CommandLineUsageError(`a command is needed: one of ${COMMANDS.map((c) => c.name).join(', ')}`);
    }
    if (values.help) return print(bare.out, commandHelp(command));
    return await HANDLERS[command.name]!(makeContext(io, env, values, argument));
  } catch (e) {
    return reportError(bare, e, commandName);
  }
}

function print(out: (text: string) => void, text: string): number {
  out(text);
  return 0;
}

/** One line on stderr; 1 for anything the user can fix (usage included, as the extractor does), 2 for a bug. */
function reportError(ctx: CliContext, e: unknown, commandName: string | undefined): number {
  if (e instanceof CommandLineUsageError) {
    const help = e.command ?? commandName;
    ctx.err(`${PROGRAM}: ${e.message} (see ${PROGRAM}${help ? ` ${help}` : ''} --help)`);
    return 1;
  }
  const message = e instanceof Error ? e.message : String(e);
  ctx.err(`${PROGRAM}: ${message.replace(/\s*\n\s*/g, ' ')}`);
  return e instanceof UserError || e instanceof PlatformUsageError ? 1 : 2;
}
