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
import { attributesOf, buildConfigurations, type Configuration } from '../config/configurations.ts';
import { buildApiDescription, evaluateClientHeaders } from '../config/api.ts';
import { allowedHostsOf, checkJobUrls } from '../config/allowedHosts.ts';
import { jobTree, type JobNode } from '../config/jobTree.ts';
import { awsSignerFromParameters, createAuthenticator, randomHexNonce } from '../auth/index.ts';
import { flattenContext } from '../functions/index.ts';
import { HttpClient, type Authenticator } from '../http/client.ts';
import { Transport, type WireRequest } from '../http/transport.ts';
import { buildRequest } from '../http/request.ts';
import { evaluateParams } from '../jobs/evaluation.ts';
import { createScroller } from '../pagination/index.ts';
import { isEmpty, member, type Value } from '../php/value.ts';
import { createLogger, type Logger } from '../logging/logger.ts';
import { createSshTunnel } from '../ssh/index.ts';
import { readConfigFile, readInputState, resolveDataDir } from './files.ts';
import { checkPlatformSections } from './platformSections.ts';
import { exitCodeFor, preflightChecks, strictFromEnv } from './run.ts';
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

function shownRequest(wire: WireRequest, debugLine: string | undefined, secrets: Logger['secrets']): string[] {
  const port = (wire.scheme === 'https' && wire.port === 443) || (wire.scheme === 'http' && wire.port === 80) ? '' : `:${wire.port}`;
  const out = [`${wire.method} ${wire.scheme}://${wire.host}${port}${wire.target}`];
  const headers = (debugLine ?? '').split('\r\n').slice(1);
  for (const header of headers) out.push(`    ${header}`);
  if (wire.body !== undefined && wire.body.length > 0) {
    const text = wire.body.toString('utf8');
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

interface Prepared {
  configuration: Configuration;
  lines: string[];
}

async function checkConfiguration(
  configuration: Configuration,
  root: Value,
  parameters: Value | undefined,
  state: RunState,
  logger: Logger,
  nowMs: () => number,
  plan: boolean,
): Promise<Prepared> {
  const { config } = configuration;
  const api = buildApiDescription(parameters, config, logger);
  const allowedHosts = allowedHostsOf(member(root, 'image_parameters'));
  if (allowedHosts) checkJobUrls(allowedHosts, api.baseUrl, member(member(parameters, 'config'), 'jobs'));
  const clientHeaders = evaluateClientHeaders(api.headerDefinitions, config);
  const recorder = requestLineRecorder(logger);
  const authenticator = createAuthenticator({
    config: api.authentication,
    legacyQuery: api.api.get('query'),
    attributes: attributesOf(config),
    oauthCredentials: member(member(member(root, 'authorization'), 'oauth_api'), 'credentials'),
    baseUrl: api.baseUrl,
    logger: recorder.logger,
    nowMs,
    nonce: randomHexNonce,
    clientHeaders: () => clientHeaders,
  });
  const signer = awsSignerFromParameters(parameters, nowMs);
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
      nowMs,
    });
  const functions = { attr: flattenContext(attributesOf(config)), time: flattenContext(state.timeValues()) };
  const settings = { baseUrl: api.baseUrl, clientHeaders, defaultOptions: api.defaultOptions };
  const lines: string[] = [];
  const origin = configuration.pathOf('jobs').replace(/\.jobs$/, '');
  try {
    let loginShown = false;
    for (const node of jobTree(config.get('jobs'), origin)) {
      // Built like the run builds it: the pagination (checked here), params, the first request.
      const scroller = createScroller(api.pagination, recorder.logger, nowMs);
      const params = evaluateParams(node.config.get('params'), functions, nowMs, `${node.path}.params`);
      const first = scroller.firstRequest({ config: node.config, endpoint: node.endpoint, params, path: node.path });
      if (!plan || first === null) continue;
      const prepared = buildRequest(first, settings);
      const stopped = await whatWouldBeSent(() => clientFor(watched).send(prepared, true));
      const line = recorder.last();
      const indent = (shown: string[]): string[] => shown.map((l) => `    ${l}`);
      lines.push(`  job ${node.path} (${node.endpoint}):`);
      if (stopped?.login) {
        // Authentication logs in first: the login request is what the first send reached.
        if (!loginShown)
          lines.push(
            '    login request (sent before the first request, and again when the login expires):',
            ...indent(shownRequest(stopped.request, line, logger.secrets)),
          );
        loginShown = true;
        const plain = await whatWouldBeSent(() => clientFor(undefined).send(prepared, false));
        if (plain)
          lines.push(
            ...indent(shownRequest(plain.request, recorder.last(), logger.secrets)),
            '    (plus the headers or query parameters the login response supplies)',
          );
      } else if (stopped !== undefined) {
        lines.push(...indent(shownRequest(stopped.request, line, logger.secrets)));
      }
      childLines(node.children, '    ', lines);
    }
  } finally {
    transport.close();
  }
  return { configuration, lines };
}

/** `validate` (plan false) or `plan` (plan true); resolves to the exit code. */
export async function dryRun(plan: boolean, options: DryRunOptions = {}): Promise<number> {
  const env = options.env ?? process.env;
  const nowMs = options.nowMs ?? Date.now;
  const write = options.write ?? ((line: string) => process.stdout.write(line + '\n'));
  const logger = createLogger({ write });
  const dataDir = resolveDataDir(env);
  try {
    const root = readConfigFile(dataDir);
    logger.secrets.collectFrom(root);
    const state = new RunState(readInputState(dataDir, logger), Math.floor(nowMs() / 1000));
    const parameters = member(root, 'parameters');
    const configurations = buildConfigurations(parameters);
    checkPlatformSections(parameters);
    const findings = preflightChecks(root, configurations, logger, options.strict ?? strictFromEnv(env));
    const sshProxy = member(parameters, 'sshProxy');
    if (sshProxy !== undefined && sshProxy !== null) await createSshTunnel(sshProxy, logger).close();
    const results: Prepared[] = [];
    for (const configuration of configurations) {
      logger.setLevel(isEmpty(configuration.config.get('debug')) ? 'info' : 'debug');
      results.push(await checkConfiguration(configuration, root, parameters, state, logger, nowMs, plan));
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
    return exitCodeFor(error);
  }
}
