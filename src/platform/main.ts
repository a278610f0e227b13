/**
 * The `ex-generic-platform` command (cli.ts is its entry point): discover a stack's services,
 * list its API portal, start a configuration's job on the queue and wait for it.
 * Everything it prints passes through one redaction of the token.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import dotenv from 'dotenv';
import { UserError } from '../errors/UserError.ts';
import { PlatformClient, isJobFinished } from './client.ts';
import { PlatformUsageError } from './errors/PlatformUsageError.ts';
import { STACKS, resolveStack } from './stacks.ts';
import type { CreateJobArgs, JobMode, JobRecord } from './types.ts';
import { CommandLineUsageError } from './errors/CommandLineUsageError.ts';

export const PROGRAM = 'ex-generic-platform';

export function usage(): string {
  const width = Math.max(...STACKS.map((s) => s.name.length));
  const labelWidth = Math.max(...STACKS.map((s) => s.label.length));
  return [
    `usage: ${PROGRAM} <command> [options]`,
    '',
    'Commands:',
    '  stacks                                    list the known stacks',
    '  services --stack S                        services of the stack, from its storage index',
    "  apis (--stack S | --portal URL)           APIs listed by the stack's API portal (apis.json)",
    "  run --stack S --component C --config ID   start a job of a configuration on the stack's queue",
    '      [--mode run|forceRun|debug] [--branch ID] [--tag TAG] [--row ID]... [--config-data JSON]',
    '      [--parent-run-id ID] [--wait [--timeout SECONDS]]',
    '  job --stack S --id ID [--wait [--timeout SECONDS]]   show a job, or wait until it finishes',
    '',
    'Options:',
    "  --stack S    a stack name below, or the https:// URL of a stack's Storage API",
    '               (single-tenant stacks: https://connection.CUSTOMER.keboola.com); default $KBC_URL',
    '  --json       print JSON (index, records) instead of text lines',
    '  -h, --help   this text',
    '',
    'Stacks:',
    ...STACKS.map((s) => `  ${s.name.padEnd(width)}  ${s.label.padEnd(labelWidth)}  ${s.storageUrl}`),
    '',
    'Environment: KBC_TOKEN, the Storage API token (also read from ./.env); KBC_URL, the default stack.',
    'A token works only on the stack that issued it. It is sent only to services listed by that',
    "stack's own index, over https, never through redirects, and never printed.",
    'Exit status: 0 done (a waited job ended in success or warning); 1 error (API error, invalid token,',
    'unreachable stack, unknown service, job ended in error/terminated/cancelled, wait timeout); 2 usage.',
  ].join('\n');
}

export interface PlatformCliIo {
  argv: string[];
  env?: NodeJS.ProcessEnv;
  /** Folder whose `.env` is read (default the current directory). */
  cwd?: string;
  stdout?: (text: string) => void;
  stderr?: (text: string) => void;
  fetch?: typeof fetch;
  /** Tests only: accept http:// for loopback hosts (a local fake stack). Not reachable from the command line. */
  allowHttpLoopback?: boolean;
  sleep?: (ms: number) => Promise<void>;
  nowMs?: () => number;
  /** Wait polling: first pause (default 1000 ms). */
  pollIntervalMs?: number;
}

const OPTIONS = {
  stack: { type: 'string' },
  portal: { type: 'string' },
  component: { type: 'string' },
  config: { type: 'string' },
  id: { type: 'string' },
  mode: { type: 'string' },
  branch: { type: 'string' },
  tag: { type: 'string' },
  row: { type: 'string', multiple: true },
  'config-data': { type: 'string' },
  'parent-run-id': { type: 'string' },
  wait: { type: 'boolean', default: false },
  timeout: { type: 'string' },
  json: { type: 'boolean', default: false },
  help: { type: 'boolean', short: 'h', default: false },
} as const;

/** The command line parsed, or the first line of parseArgs's complaint. */
function parseCommandLine(argv: string[]) {
  try {
    return parseArgs({ args: argv, options: OPTIONS, strict: true, allowPositionals: true });
  } catch (e) {
    return { error: (e as Error).message.split('\n')[0] };
  }
}

const COMMAND_OPTIONS: Record<string, readonly string[]> = {
  stacks: ['json'],
  services: ['stack', 'json'],
  apis: ['stack', 'portal', 'json'],
  run: ['stack', 'component', 'config', 'mode', 'branch', 'tag', 'row', 'config-data', 'parent-run-id', 'wait', 'timeout', 'json'],
  job: ['stack', 'id', 'wait', 'timeout', 'json'],
};

function required(value: string | undefined, name: string): string {
  if (value === undefined || value === '') throw new CommandLineUsageError(`--${name} is required`);
  return value;
}

function seconds(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+(\.\d+)?$/.test(value) || Number(value) <= 0)
    throw new CommandLineUsageError(`--timeout must be a positive number of seconds, not "${value}"`);
  return Number(value) * 1000;
}

function jobLine(job: JobRecord): string {
  return `job ${job.id}: ${job.status}${typeof job.url === 'string' && job.url !== '' ? ` ${job.url}` : ''}`;
}

/** Runs the command; returns the exit status. */
export async function runPlatformCli(io: PlatformCliIo): Promise<number> {
  const env: NodeJS.ProcessEnv = { ...(io.env ?? process.env) };
  // A .env file fills in what the environment does not set.
  dotenv.config({ path: path.join(io.cwd ?? process.cwd(), '.env'), processEnv: env as Record<string, string>, quiet: true });
  const token = env['KBC_TOKEN'];
  const redact = (text: string): string => (token && token.trim() !== '' ? text.split(token.trim()).join('[hidden]') : text);
  const out = (text: string): void => (io.stdout ?? ((t) => process.stdout.write(t)))(redact(text) + '\n');
  const err = (text: string): void => (io.stderr ?? ((t) => process.stderr.write(t)))(redact(text) + '\n');

  const parsed = parseCommandLine(io.argv);
  if ('error' in parsed) {
    err(`${PROGRAM}: ${parsed.error} (see --help)`);
    return 2;
  }
  const { values, positionals } = parsed;
  if (values.help || positionals.length === 0) {
    (values.help ? out : err)(usage());
    return values.help ? 0 : 2;
  }
  const [command, ...rest] = positionals;
  try {
    if (rest.length > 0) throw new CommandLineUsageError(`unexpected argument "${rest[0]}"`);
    const allowed = COMMAND_OPTIONS[command!];
    if (!allowed) throw new CommandLineUsageError(`unknown command "${command}"`);
    for (const [name, value] of Object.entries(values)) {
      if (name === 'help' || value === undefined || value === false) continue;
      if (!allowed.includes(name)) throw new CommandLineUsageError(`--${name} does not apply to "${command}"`);
    }
    if (values.timeout !== undefined && !values.wait) throw new CommandLineUsageError('--timeout needs --wait');

    if (command === 'stacks') {
      if (values.json) out(JSON.stringify(STACKS, null, 2));
      else for (const s of STACKS) out(`${s.name}\t${s.storageUrl}\t${s.label}`);
      return 0;
    }

    const client = (stackArg: string | undefined): PlatformClient => {
      const stack = stackArg ?? env['KBC_URL'];
      if (stack === undefined || stack === '') throw new CommandLineUsageError('--stack is required (or set KBC_URL)');
      const { storageUrl } = resolveStack(stack, io.allowHttpLoopback ?? false);
      return new PlatformClient({
        storageUrl,
        env,
        allowHttpLoopback: io.allowHttpLoopback ?? false,
        ...(io.fetch ? { fetch: io.fetch } : {}),
        ...(io.sleep ? { sleep: io.sleep } : {}),
        ...(io.nowMs ? { nowMs: io.nowMs } : {}),
      });
    };

    if (command === 'services') {
      const index = await client(values.stack).getStorageIndex();
      if (values.json) out(JSON.stringify(index.services, null, 2));
      else for (const s of index.services) out(`${s.id}\t${s.url}`);
      return 0;
    }

    if (command === 'apis') {
      let portal = values.portal;
      if (portal === undefined) {
        const stack = values.stack ?? env['KBC_URL'];
        if (stack === undefined) throw new CommandLineUsageError('--portal URL or --stack NAME is required');
        portal = resolveStack(stack, io.allowHttpLoopback ?? false).portalUrl;
        if (portal === undefined) throw new CommandLineUsageError(`the API portal of ${stack} is not known: pass --portal URL`);
      }
      // The portal index needs no token and no stack: any base URL works for the client.
      const index = await new PlatformClient({
        storageUrl: portal,
        env: {},
        allowHttpLoopback: io.allowHttpLoopback ?? false,
        ...(io.fetch ? { fetch: io.fetch } : {}),
        ...(io.sleep ? { sleep: io.sleep } : {}),
      }).getPortalIndex(portal);
      if (values.json) out(JSON.stringify(index, null, 2));
      else {
        out(`stack ${index.stack}`);
        for (const s of index.services) out(`${s.id}\t${s.apiUrl}\t${s.name}\t${s.openApiSpecUrl}`);
      }
      return 0;
    }

    const timeoutMs = seconds(values.timeout);
    const platform = client(values.stack);
    let job: JobRecord;
    if (command === 'run') {
      const mode = (values.mode ?? 'run') as JobMode;
      if (!['run', 'forceRun', 'debug'].includes(mode))
        throw new CommandLineUsageError(`--mode must be run, forceRun or debug, not "${mode}"`);
      const extra: Record<string, unknown> = {};
      if (values['config-data'] !== undefined) {
        try {
          extra['configData'] = JSON.parse(values['config-data']);
        } catch {
          throw new CommandLineUsageError('--config-data must be a JSON object');
        }
        if (typeof extra['configData'] !== 'object' || extra['configData'] === null || Array.isArray(extra['configData']))
          throw new CommandLineUsageError('--config-data must be a JSON object');
      }
      if (values.row !== undefined) extra['configRowIds'] = values.row;
      if (values.branch !== undefined) extra['branchId'] = values.branch;
      if (values.tag !== undefined) extra['tag'] = values.tag;
      const args: CreateJobArgs = {
        component: required(values.component, 'component'),
        config: required(values.config, 'config'),
        mode,
        extra,
      };
      if (values['parent-run-id'] !== undefined) args.parentRunId = values['parent-run-id'];
      job = await platform.createJob(args);
      if (!values.wait) {
        out(values.json ? JSON.stringify(job, null, 2) : jobLine(job));
        return 0;
      }
      if (!values.json) out(jobLine(job));
    } else {
      job = await platform.getJob(required(values.id, 'id'));
      if (!values.wait || isJobFinished(job)) {
        out(values.json ? JSON.stringify(job, null, 2) : jobLine(job));
        return isJobFinished(job) && !['success', 'warning'].includes(job.status) ? 1 : 0;
      }
      if (!values.json) out(jobLine(job));
    }

    let last = job.status;
    const final = await platform.waitForJob(job, {
      ...(timeoutMs !== undefined ? { timeoutMs } : {}),
      ...(io.pollIntervalMs !== undefined ? { intervalMs: io.pollIntervalMs } : {}),
      onPoll: (polled) => {
        if (polled.status !== last && !values.json && !isJobFinished(polled)) out(jobLine(polled));
        last = polled.status;
      },
    });
    if (values.json) out(JSON.stringify(final, null, 2));
    else out(jobLine(final));
    if (final.status === 'success' || final.status === 'warning') return 0;
    const result = final['result'];
    const message =
      typeof result === 'object' && result !== null && typeof (result as Record<string, unknown>)['message'] === 'string'
        ? `: ${(result as Record<string, string>)['message']}`
        : '';
    err(`${PROGRAM}: job ${final.id} ended with status "${final.status}"${message}`.replace(/\s*\n\s*/g, ' '));
    return 1;
  } catch (e) {
    if (e instanceof CommandLineUsageError) {
      err(`${PROGRAM}: ${e.message} (see --help)`);
      return 2;
    }
    if (e instanceof PlatformUsageError) {
      err(`${PROGRAM}: ${e.message}`);
      return 2;
    }
    const message = e instanceof Error ? e.message : String(e);
    err(`${PROGRAM}: ${message.replace(/\s*\n\s*/g, ' ')}`);
    return e instanceof UserError ? 1 : 2;
  }
}
