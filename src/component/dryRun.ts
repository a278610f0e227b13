/**
 * `ex-generic validate` and `ex-generic plan`: the run's checks without the run. Nothing is sent:
 * the HTTP client they build has a transport that refuses every request, so even a login that
 * authentication would send is stopped (and, for `plan`, shown).
 *
 * validate: the reference's checks (configuration, jobs, SSH, AWS, API section, authentication,
 *   pagination, allowed hosts) and the pre-flight findings; exit 0, or 1 on an error (or on a
 *   finding with --strict).
 * plan: the same, then the first request of each top-level job as it would be sent (method, URL,
 *   headers, body; secrets hidden), the login request when authentication logs in first, and
 *   the child jobs that follow.
 */
import { ApplicationError } from '../errors/ApplicationError.ts';
import type { Configuration } from '../config/configurations.ts';
import type { JobNode } from '../jobs/jobNode.ts';
import { HttpClient, type Authenticator } from '../http/client.ts';
import { Transport, type WireRequest } from '../http/transport.ts';
import { getPaginationMethod } from '../pagination/registry.ts';
import { member } from '../php/value.ts';
import { createLogger, type Logger } from '../logging/logger.ts';
import { HIDDEN, isCredentialKey } from '../logging/redact.ts';
import { writeStdout } from '../logging/stdoutWriter.ts';
import { createSshTunnel } from '../ssh/index.ts';
import { sshProxyOf } from '../ssh/options.ts';
import { configurationsOf, preflightChecks, prepareConfiguration, strictFromEnv, type PreparedConfiguration } from './checks.ts';
import { readConfigFile, readInputState, resolveDataDir } from './files.ts';
import { exitCodeFor } from './lifecycle.ts';
import { RunState } from './state.ts';

export interface DryRunOptions {
  env?: NodeJS.ProcessEnv;
  /** Output line sink (stdout by default): log lines and the plan. */
  write?: (line: string) => void;
  nowMs?: () => number;
  strict?: boolean;
}

/** Thrown by the plan transport in place of sending: carries what would have gone on the wire. */
class NotSent extends Error {
  readonly request: WireRequest;
  /** Sent by authentication (a login) rather than as the job's request. */
  readonly login: boolean;
  constructor(request: WireRequest, login: boolean) {
    super('not sent (dry run)');
    this.request = request;
    this.login = login;
  }
}

/** The transport of a dry run: every request ends here, unsent. */
class RefusingTransport extends Transport {
  /** True while authentication runs (what it sends is a login request). */
  authenticating = false;
  override send(request: WireRequest): Promise<never> {
    return Promise.reject(new NotSent(request, this.authenticating));
  }
}

/** A logger that keeps the client's debug request lines (auth headers already hidden) and drops the rest. */
function requestLineRecorder(base: Logger): { logger: Logger; last: () => string | undefined } {
  let last: string | undefined;
  const logger: Logger = {
    debug: (message) => {
      last = message;
    },
    info: () => {},
    warning: (message, context) => base.warning(message, context),
    error: () => {},
    setLevel: () => {},
    isDebug: () => true,
    secrets: base.secrets,
  };
  return { logger, last: () => last };
}

/** Query or form pairs and JSON members under a credential-like name (password, token, …): value hidden. */
function hideCredentialValues(text: string): string {
  const pairs = text.replace(/([?&]|^)([^=&?#\s]+)=([^&#\s]*)/g, (all, sep: string, key: string) => {
    let name = key;
    try {
      name = decodeURIComponent(key.replaceAll('+', ' '));
    } catch {}
    return isCredentialKey(name) ? `${sep}${key}=${HIDDEN}` : all;
  });
  return pairs.replace(/"((?:[^"\\]|\\.)*)"(\s*:\s*)("(?:[^"\\]|\\.)*"|-?[\d.eE+-]+)/g, (all, key: string, colon: string) =>
    isCredentialKey(key) ? `"${key}"${colon}"${HIDDEN}"` : all,
  );
}

/**
 * A request as `plan` prints it: method and URL, the headers as the debug line shows them
 * (authentication headers hidden), the body. Secrets are hidden twice: every registered secret
 * (values of # keys, credential-named values), and any value under a credential-like name even
 * when it was written in plain text (a "password" attribute without #).
 */
function shownRequest(wire: WireRequest, debugLine: string | undefined, secrets: Logger['secrets']): string[] {
  const port = (wire.scheme === 'https' && wire.port === 443) || (wire.scheme === 'http' && wire.port === 80) ? '' : `:${wire.port}`;
  const out = [hideCredentialValues(`${wire.method} ${wire.scheme}://${wire.host}${port}${wire.target}`)];
  for (const header of (debugLine ?? '').split('\r\n').slice(1)) {
    const name = header.slice(0, header.indexOf(':'));
    out.push(`    ${isCredentialKey(name) ? `${name}: ${HIDDEN}` : header}`);
  }
  if (wire.body !== undefined && wire.body.length > 0) {
    const text = hideCredentialValues(wire.body.toString('utf8'));
    out.push(`    body: ${text.length > 500 ? `${text.slice(0, 500)}… (${wire.body.length} bytes)` : text}`);
  }
  return out.map((line) => secrets.redact(line));
}

function childLines(nodes: readonly JobNode[], indent: string, out: string[]): void {
  for (const node of nodes) {
    const names = node.placeholders.length > 0 ? ` (placeholders ${node.placeholders.join(', ')})` : '';
    out.push(`${indent}then for each record: ${node.endpoint}${names} — ${node.path}`);
    childLines(node.children, `${indent}  `, out);
  }
}

/** What reached the (refusing) transport when `send` ran. */
async function whatWouldBeSent(send: () => Promise<unknown>): Promise<NotSent | undefined> {
  try {
    await send();
    return undefined;
  } catch (e) {
    if (e instanceof NotSent) return e;
    throw e;
  }
}

interface Planned {
  configuration: Configuration;
  lines: string[];
}

/** The lines of `plan` for one prepared configuration: each job's first request as it would be sent. */
async function planLines(
  prepared: PreparedConfiguration,
  logger: Logger,
  recorder: ReturnType<typeof requestLineRecorder>,
): Promise<string[]> {
  const { api, authenticator, signer } = prepared;
  const transport = new RefusingTransport({ connectTimeoutMs: api.connectTimeoutMs, requestTimeoutMs: api.requestTimeoutMs });
  const watched: Authenticator | undefined = authenticator && {
    authenticate: async (request, client) => {
      transport.authenticating = true;
      try {
        await authenticator.authenticate(request, client);
      } finally {
        transport.authenticating = false;
      }
    },
  };
  const clientFor = (auth: Authenticator | undefined): HttpClient =>
    new HttpClient({
      transport,
      retry: api.retry,
      logger: recorder.logger,
      ...(auth ? { authenticator: auth } : {}),
      ...(signer ? { signer } : {}),
    });
  const lines: string[] = [];
  const method = member(api.pagination, 'method');
  if (typeof method === 'string' && method !== '') {
    lines.push(`  next pages: ${method} — ${getPaginationMethod(method, method, 'parameters.api.pagination').description}`);
  }
  const indent = (shown: string[]): string[] => shown.map((l) => `    ${l}`);
  try {
    let loginShown = false;
    for (const { node, first } of prepared.jobs) {
      lines.push(`  job ${node.path} (${node.endpoint}):`);
      if (first !== undefined) {
        const stopped = await whatWouldBeSent(() => clientFor(watched).send(first, true));
        const line = recorder.last();
        if (stopped?.login) {
          // Authentication logs in first: the login request is what the first send reached.
          if (!loginShown) {
            lines.push('    login request (sent before the first request, and again when the login expires):');
            lines.push(...indent(shownRequest(stopped.request, line, logger.secrets)));
          }
          loginShown = true;
          const plain = await whatWouldBeSent(() => clientFor(undefined).send(first, false));
          if (plain) {
            lines.push(...indent(shownRequest(plain.request, recorder.last(), logger.secrets)));
            lines.push('    (plus the headers or query parameters the login response supplies)');
          }
        } else if (stopped !== undefined) {
          lines.push(...indent(shownRequest(stopped.request, line, logger.secrets)));
        }
      }
      childLines(node.children, '    ', lines);
    }
  } finally {
    transport.close();
  }
  return lines;
}

/** `validate`; resolves to the exit code. */
export function validate(options: DryRunOptions = {}): Promise<number> {
  return dryRun(false, options);
}

/** `plan`; resolves to the exit code. */
export function plan(options: DryRunOptions = {}): Promise<number> {
  return dryRun(true, options);
}

/** `validate` (plan false) or `plan` (plan true). */
async function dryRun(plan: boolean, options: DryRunOptions): Promise<number> {
  const env = options.env ?? process.env;
  const nowMs = options.nowMs ?? Date.now;
  const write = options.write ?? ((line: string) => writeStdout(`${line}\n`));
  const logger = createLogger({ write });
  const dataDir = resolveDataDir(env);
  try {
    const root = readConfigFile(dataDir);
    logger.secrets.collectFrom(root);
    // A missing state file is normal for a check: its WARNING would only be noise here.
    const state = new RunState(readInputState(dataDir, createLogger({ write: () => {} })), Math.floor(nowMs() / 1000));
    const parameters = member(root, 'parameters');
    const configurations = configurationsOf(root, parameters, logger);
    const findings = preflightChecks(root, configurations, logger, options.strict ?? strictFromEnv(env), Number.POSITIVE_INFINITY);
    const sshProxy = sshProxyOf(parameters);
    if (sshProxy !== undefined) await createSshTunnel(sshProxy, logger).close();
    const results: Planned[] = [];
    for (const configuration of configurations) {
      logger.setLevel(configuration.output.debug ? 'debug' : 'info');
      const recorder = requestLineRecorder(logger);
      const prepared = prepareConfiguration(configuration, { root, parameters, state, logger, requestLogger: recorder.logger, nowMs });
      results.push({ configuration, lines: plan ? await planLines(prepared, logger, recorder) : [] });
    }
    if (plan) {
      write(`Plan (nothing was sent): ${configurations.length} configuration(s).`);
      for (const { configuration, lines } of results) {
        const where =
          configurations.length > 1
            ? `iteration ${configuration.index} (parameters.iterations[${configuration.index}])`
            : 'parameters.config';
        write(`configuration ${where}:`);
        for (const line of lines) write(line);
      }
    }
    logger.info(`The configuration is valid${findings > 0 ? ` with ${findings} warning(s) above` : ''}; no request was sent.`);
    return 0;
  } catch (error) {
    const err = error as Error & { context?: Record<string, unknown>; configPath?: string };
    const context: Record<string, unknown> = { ...(err.context ?? {}) };
    if (err.configPath !== undefined) context['configPath'] = err.configPath;
    logger.error(err instanceof Error ? err.message : String(err), context);
    if (err instanceof ApplicationError && err.hint !== undefined) logger.info(err.hint);
    // A check's answer is valid (0) or not (1): a config.json that is missing or not JSON, or a
    // value the reference would crash on (its application errors), is an invalid configuration.
    return error instanceof ApplicationError ? 1 : exitCodeFor(error);
  }
}
