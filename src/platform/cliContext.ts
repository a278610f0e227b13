/** What every command of `ex-generic-platform` gets: its options, output that hides the token, a client. */
import { PlatformClient } from './client.ts';
import type { ParsedValues } from './commandTable.ts';
import { CommandLineUsageError } from './errors/CommandLineUsageError.ts';
import { tokenRedactor } from './redaction.ts';
import { resolveStack } from './stacks.ts';

export interface PlatformCliIo {
  argv: string[];
  env?: NodeJS.ProcessEnv;
  /** Folder whose `.env` is read, and against which --dir and --file resolve (default the current directory). */
  cwd?: string;
  stdout?: (text: string) => void;
  stderr?: (text: string) => void;
  fetch?: typeof fetch;
  /**
   * Accept http:// for loopback hosts (a local fake platform). From the command line, only with
   * EX_GENERIC_PLATFORM_ALLOW_HTTP_LOOPBACK=1; remote hosts are https only either way.
   */
  allowHttpLoopback?: boolean;
  sleep?: (ms: number) => Promise<void>;
  nowMs?: () => number;
  /** Wait polling: first pause (default 1000 ms). */
  pollIntervalMs?: number;
  /** Aborted on Ctrl-C (cli.ts wires SIGINT to it): fan-out kills its unfinished jobs. */
  interrupt?: AbortSignal;
}

export interface CliContext {
  values: ParsedValues;
  /** The positional argument after the command words (a job id). */
  argument: string | undefined;
  env: NodeJS.ProcessEnv;
  cwd: string;
  out: (text: string) => void;
  err: (text: string) => void;
  io: PlatformCliIo;
  allowHttpLoopback: boolean;
  sleep: (ms: number) => Promise<void>;
  pollIntervalMs: number;
  interrupt: AbortSignal | undefined;
  client(): PlatformClient;
}

export function makeContext(io: PlatformCliIo, env: NodeJS.ProcessEnv, values: ParsedValues, argument: string | undefined): CliContext {
  const redact = tokenRedactor(env['KBC_TOKEN']?.trim() || undefined);
  const allowHttpLoopback = io.allowHttpLoopback ?? env['EX_GENERIC_PLATFORM_ALLOW_HTTP_LOOPBACK'] === '1';
  const sleep = io.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  let client: PlatformClient | undefined;
  return {
    values,
    argument,
    env,
    cwd: io.cwd ?? process.cwd(),
    out: (text) => (io.stdout ?? ((t) => process.stdout.write(t)))(`${redact(text)}\n`),
    err: (text) => (io.stderr ?? ((t) => process.stderr.write(t)))(`${redact(text)}\n`),
    io,
    allowHttpLoopback,
    sleep,
    pollIntervalMs: io.pollIntervalMs ?? 1000,
    interrupt: io.interrupt,
    client() {
      if (client) return client;
      const stack = values.stack ?? env['KBC_URL'];
      if (stack === undefined || stack === '') throw new CommandLineUsageError('--stack is required (or set KBC_URL)');
      const { storageUrl } = resolveStack(stack, allowHttpLoopback);
      client = new PlatformClient({
        storageUrl,
        env,
        allowHttpLoopback,
        sleep,
        ...(io.fetch ? { fetch: io.fetch } : {}),
        ...(io.nowMs ? { nowMs: io.nowMs } : {}),
      });
      return client;
    },
  };
}

export function required(value: string | undefined, name: string): string {
  if (value === undefined || value === '') throw new CommandLineUsageError(`--${name} is required`);
  return value;
}

export function positiveInteger(value: string | undefined, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  if (!/^[1-9]\d*$/.test(value)) throw new CommandLineUsageError(`--${name} needs a whole number of 1 or more, not "${value}"`);
  return Number(value);
}

export function seconds(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+(\.\d+)?$/.test(value) || Number(value) <= 0)
    throw new CommandLineUsageError(`--timeout must be a positive number of seconds, not "${value}"`);
  return Number(value) * 1000;
}

/** The job id: the argument, or --id. */
export function jobId(ctx: CliContext): string {
  if (ctx.argument !== undefined && ctx.values.id !== undefined)
    throw new CommandLineUsageError('give the job id once: as the argument or --id');
  return required(ctx.argument ?? ctx.values.id, 'id');
}
