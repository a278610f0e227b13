/**
 * One run of the component (spec 01 §1.6): data folder → configurations → jobs → tables,
 * manifests and state. Nothing reaches `out/` unless the whole run succeeds.
 */
import path from 'node:path';
import { ApplicationError } from '../errors/ApplicationError.ts';
import { UserError } from '../errors/UserError.ts';
import { authenticationOf, headerSourcesOf } from '../config/authOptions.ts';
import { buildApiDescription, evaluateClientHeaders } from '../config/api.ts';
import { attributesOf, type Configuration } from '../config/configurations.ts';
import { awsCredentialsOf, createAuthenticator, createAwsSigner, randomHexNonce } from '../auth/index.ts';
import { flattenContext } from '../functions/index.ts';
import { HttpClient } from '../http/client.ts';
import { Transport } from '../http/transport.ts';
import { pjson } from '../php/jsonEncode.ts';
import { member, PhpArray, phpType, type Value } from '../php/value.ts';
import { createLogger, type Logger } from '../logging/logger.ts';
import { formatBytes, RunStats } from '../logging/runStats.ts';
import { isCredentialKey } from '../logging/redact.ts';
import { createAutoParser, type AutoParser } from '../mapping/auto/index.ts';
import type { OutputOffloadStarter } from '../mapping/auto/outputOffload.ts';
import type { OutputWorkerStart } from '../outputWorker/client.ts';
import { outputWorkerMode, outputWorkerOffload } from '../outputWorker/offload.ts';
import { JobRunner } from '../jobs/runner.ts';
import { bucketOf, type IncrementalOutput } from '../config/outputOptions.ts';
import { concurrencyOf } from '../jobs/concurrency.ts';
import { rateLimitOptions } from '../http/rateLimit/index.ts';
import { OutputStaging } from '../output/staging.ts';
import { removeStaleStaging } from '../output/staleStaging.ts';
import { MappingRouter } from '../mapping/router.ts';
import { headerOnlyTables } from '../mapping/headerOnly.ts';
import type { HeaderList } from '../http/headers.ts';
import { readConfigFile, readInputState, resolveDataDir } from './files.ts';
import { RunState } from './state.ts';
import { createSshTunnel, type SshTunnel } from '../ssh/index.ts';
import { sshProxyOf } from '../ssh/options.ts';
import { allowedHostsOf, checkConfigurationJobUrls, requestChecker } from '../config/allowedHosts.ts';
import { runSyncAction } from '../actions/index.ts';
import { credentialScope } from '../config/credentialOrigins.ts';
import type { RunLimits } from '../jobs/runner.ts';
import { configurationsOf, INCREMENTAL_MESSAGE, preflightChecks, prepareConfiguration, strictFromEnv } from './checks.ts';

export { preflightChecks, strictFromEnv } from './checks.ts';

export interface RunOptions {
  env?: NodeJS.ProcessEnv;
  /** Log line sink (stdout by default). */
  write?: (line: string) => void;
  nowMs?: () => number;
  sleep?: (ms: number) => Promise<void>;
  /**
   * How to start the automatic parser's output worker (the command's entry and heap flags,
   * src/extractor.ts); when and whether is EX_GENERIC_OUTPUT_WORKER's. None: no worker.
   */
  outputWorker?: OutputWorkerStart;
  /** Pre-flight findings stop the run before any request (--strict; default: EX_GENERIC_STRICT=1). */
  strict?: boolean;
  /** A test read (--max-pages, --max-records): tables written, no state. */
  limits?: RunLimits;
}

interface BucketResult {
  bucket: string | null;
  parser: AutoParser;
  router: MappingRouter;
  sink: ReturnType<OutputStaging['sink']>;
  incremental: IncrementalOutput | undefined;
}

function incrementalFlag(v: IncrementalOutput | undefined): boolean {
  if (v === 'invalid') throw new ApplicationError(INCREMENTAL_MESSAGE, { context: { path: 'parameters.config.incrementalOutput' } });
  return v === true;
}

export function manifestJson(bucket: string | null, table: string, incremental: boolean, primaryKey: readonly string[] = []): string {
  const manifest = new PhpArray();
  if (bucket !== null) manifest.set('destination', `in.c-${bucket}.${table}`);
  manifest.set('incremental', incremental);
  if (primaryKey.length > 0) manifest.set('primary_key', [...primaryKey]);
  return pjson(manifest, 'shortest');
}

export function exitCodeFor(error: unknown): number {
  return error instanceof UserError ? 1 : 2;
}

export async function runComponent(options: RunOptions = {}): Promise<number> {
  const env = options.env ?? process.env;
  const nowMs = options.nowMs ?? Date.now;
  const logger = createLogger(options.write ? { write: options.write } : {});
  const stats = new RunStats(nowMs());
  const dataDir = resolveDataDir(env);
  let staging: OutputStaging | undefined;
  let tunnel: SshTunnel | undefined;
  const parsers: AutoParser[] = [];
  const routers: MappingRouter[] = [];
  const onSignal = (signal: NodeJS.Signals): void => {
    staging?.discard();
    logger.error(`Extraction interrupted by ${signal}; no tables or state were written.`);
    process.exit(signal === 'SIGINT' ? 130 : 143);
  };
  process.once('SIGTERM', onSignal);
  process.once('SIGINT', onSignal);
  try {
    const root = readConfigFile(dataDir);
    logger.secrets.collectFrom(root);
    const action = member(root, 'action');
    // Any action other than "run" (even "") is a sync action (05 §1.1): nothing else runs, out/ is untouched.
    if (action !== undefined && action !== null && action !== 'run') {
      if (options.limits !== undefined) throw limitsOnSyncAction(action);
      // --strict is refused like the limits; EX_GENERIC_STRICT is not read here: a setting of the
      // environment meant for runs must not break the UI's actions (README "The command line").
      if (options.strict === true) throw strictOnSyncAction(action);
      return await runSyncAction({
        action,
        configFile: path.join(dataDir, 'config.json'),
        logger,
        ...(options.nowMs ? { nowMs: options.nowMs } : {}),
      });
    }
    for (const { relative, bytes, failure } of removeStaleStaging(dataDir)) {
      if (failure === undefined) logger.info(`Removed the staging folder ${relative} (${formatBytes(bytes)}) left by an interrupted run.`);
      else logger.warning(`Could not remove the staging folder ${relative} left by an interrupted run: ${failure}`);
    }
    const inputState = readInputState(dataDir, logger);
    const parameters = member(root, 'parameters');
    const configurations = configurationsOf(root, parameters, logger);
    preflightChecks(root, configurations, logger, options.strict ?? strictFromEnv(env), undefined, 'warn');
    const sshProxy = sshProxyOf(parameters);
    // Opened lazily at the first HTTP attempt and shared by all configurations (01 §6.1).
    if (sshProxy !== undefined) tunnel = createSshTunnel(sshProxy, logger, options.sleep ? { sleep: options.sleep } : {});
    const state = new RunState(inputState, Math.floor(nowMs() / 1000));
    // Every configuration's start-up checks before the first request (checks.ts); their log
    // lines come when each configuration really starts, as in the reference.
    const quiet = createLogger({ write: () => {} });
    for (const configuration of configurations) {
      try {
        prepareConfiguration(configuration, { root, parameters, state, logger: quiet, requestLogger: quiet, nowMs });
      } catch (e) {
        if (e instanceof UserError) throw e;
        // A crash of the reference (exit 2) is raised where the reference raises it, when that
        // configuration or job starts: a user error of an earlier configuration or job (exit 1)
        // must come first, as it does there (issue 22 class 4). The run goes on and meets it again.
        break;
      }
    }
    staging = new OutputStaging(dataDir);
    const buckets = new Map<string | null, BucketResult>();
    const outputOffload = options.outputWorker ? outputWorkerOffload(outputWorkerMode(env), options.outputWorker) : undefined;
    let previousParser: AutoParser | undefined;
    const bucketOfConfiguration: (string | null)[] = [];
    const withheldFrom = new Set<string>();

    for (const configuration of configurations) {
      const result = await runConfiguration(configuration, {
        root,
        parameters,
        logger,
        state,
        staging,
        buckets,
        previousParser,
        nowMs,
        sleep: options.sleep,
        parsers,
        routers,
        env,
        tunnel,
        outputOffload,
        stats,
        withheldFrom,
        limits: options.limits,
      });
      previousParser = result.parser;
      bucketOfConfiguration[configuration.index] = result.bucket;
    }

    for (const result of buckets.values()) {
      logger.debug(`Processing results for ${result.bucket ?? '__kbc_default'}.`);
      const incremental = incrementalFlag(result.incremental);
      await result.router.finish();
      const keys = result.router.primaryKeys();
      for (const table of result.sink.opened.keys()) {
        // A dropped table (empty name): without a bucket the reference still writes its manifest,
        // `out/tables/.manifest`; with one, the file stays behind in its bucket folder.
        if (table === '') {
          if (result.bucket === null) staging.setManifest('', manifestJson(null, table, incremental));
          continue;
        }
        staging.setManifest(OutputStaging.fileName(result.bucket, table), manifestJson(result.bucket, table, incremental, keys.get(table)));
      }
    }
    writeHeaderOnlyTables(configurations, bucketOfConfiguration, staging);

    const stateText = RunState.encode(state.finish());
    const counts = staging.rowCounts();
    if (staging.commit() === 'copy') logger.debug('out/tables is on another file system than out/: the tables were copied into place.');
    staging = undefined;
    if (options.limits === undefined) RunState.write(dataDir, stateText);
    else
      logger.warning(
        `Test read (${describeLimits(options.limits)}): the tables hold a sample of the data, not all of it; out/state.json was not written.`,
      );
    logger.flushRepeats();
    const summary = stats.summary(counts, nowMs());
    logger.info(summary.message, summary.context);
    logger.info('Extractor finished successfully.');
    return 0;
  } catch (error) {
    staging?.discard();
    const code = exitCodeFor(error);
    const err = error as Error & { context?: Record<string, unknown>; configPath?: string };
    const context: Record<string, unknown> = { ...(err.context ?? {}) };
    if (err instanceof UserError && err.configPath !== undefined) context['configPath'] = err.configPath;
    if (code === 2 && !(err instanceof ApplicationError)) {
      context['exception'] = err?.constructor?.name ?? typeof err;
      context['trace'] = String(err?.stack ?? '')
        .split('\n')
        .slice(0, 6)
        .join(' | ');
    }
    logger.flushRepeats();
    logger.error(err instanceof Error ? err.message : String(err), context);
    return code;
  } finally {
    await tunnel?.close();
    for (const router of routers) router.close();
    for (const parser of parsers) parser.close();
    process.removeListener('SIGTERM', onSignal);
    process.removeListener('SIGINT', onSignal);
  }
}

function actionName(action: Value): string {
  return typeof action === 'string' ? JSON.stringify(action) : `of type ${phpType(action)}`;
}

/** A test read asked for a sync action: rather than ignore the limits silently, the command is refused. */
function limitsOnSyncAction(action: Value): UserError {
  const name = actionName(action);
  return new UserError(
    `--max-pages and --max-records apply to a run, not to the sync action ${name} set by "action" in config.json: remove them, or set "action" to "run".`,
    { configPath: 'action' },
  );
}

/**
 * Strict mode asked for a sync action: an action answers the UI with the helper's JSON (spec 05),
 * which has no place for the configuration warnings, so they are not checked; refused, not ignored.
 */
function strictOnSyncAction(action: Value): UserError {
  return new UserError(
    `--strict applies to a run (and to validate and plan), not to the sync action ${actionName(action)} set by "action" in config.json: remove it, or set "action" to "run".`,
    { configPath: 'action' },
  );
}

function describeLimits(limits: RunLimits): string {
  const parts: string[] = [];
  if (limits.maxPages !== undefined) parts.push(`at most ${limits.maxPages} page(s) per job`);
  if (limits.maxRecords !== undefined) parts.push(`at most ${limits.maxRecords} record(s) per job`);
  return parts.join(', ');
}

/**
 * Header-only tables for mapped tables that received no rows (spec 04 §7.10); their manifests
 * put `incremental` first (01 §1.4).
 */
function writeHeaderOnlyTables(configurations: Configuration[], bucketOfConfiguration: (string | null)[], staging: OutputStaging): void {
  for (const { output, index } of configurations) {
    const { mappings } = output;
    if (mappings === undefined) continue;
    const bucket = bucketOfConfiguration[index] ?? null;
    for (const table of headerOnlyTables(mappings, bucket)) {
      if (staging.hasTable(table.file)) continue;
      staging.addHeaderOnly(table.file, table.header);
      const manifest = new PhpArray([['incremental', incrementalFlag(output.incremental)]]);
      if (table.destination !== null) manifest.set('destination', table.destination);
      if (table.primaryKey.length > 0) manifest.set('primary_key', [...table.primaryKey]);
      staging.setManifest(table.file, pjson(manifest, 'shortest'));
    }
  }
}

interface ConfigurationRun {
  root: Value;
  parameters: Value | undefined;
  logger: Logger;
  state: RunState;
  staging: OutputStaging;
  buckets: Map<string | null, BucketResult>;
  previousParser: AutoParser | undefined;
  nowMs: () => number;
  sleep: ((ms: number) => Promise<void>) | undefined;
  parsers: AutoParser[];
  routers: MappingRouter[];
  env: NodeJS.ProcessEnv;
  tunnel: SshTunnel | undefined;
  /** The output phase's offload for the automatic parsers (the output worker), if any. */
  outputOffload: OutputOffloadStarter | undefined;
  /** Counters of the end-of-run summary. */
  stats: RunStats;
  limits: RunLimits | undefined;
  /** Origins warned about withheld credentials (issue 19 #2): one WARNING per origin per run. */
  withheldFrom: Set<string>;
}

async function runConfiguration(
  configuration: Configuration,
  run: ConfigurationRun,
): Promise<{ parser: AutoParser; bucket: string | null }> {
  const { config, output } = configuration;
  const { logger } = run;
  logger.setLevel(output.debug ? 'debug' : 'info');
  const api = buildApiDescription(run.parameters, config, logger, configuration.pathOf);
  const allowedHosts = allowedHostsOf(member(run.root, 'image_parameters'));
  if (allowedHosts) checkConfigurationJobUrls(allowedHosts, api.baseUrl, run.parameters, configuration);
  let clientHeaders: HeaderList | undefined;
  const authenticator = createAuthenticator({
    options: authenticationOf(api, config, run.root, logger, headerSourcesOf(api, config)),
    attributes: attributesOf(config),
    baseUrl: api.baseUrl,
    logger,
    nowMs: run.nowMs,
    nonce: randomHexNonce,
    clientHeaders: () => clientHeaders ?? evaluateClientHeaders(api.headerDefinitions, config, configuration.pathOf),
  });
  const bucket = bucketOf(output, api.name);
  let entry = run.buckets.get(bucket);
  if (!entry) {
    const parser = createAutoParser({
      state: run.state.input,
      compatLevel: output.compatLevel,
      spoolDir: run.staging.spoolDir,
      logger,
      ...(run.previousParser ? { inherit: run.previousParser } : {}),
      ...(run.outputOffload ? { outputOffload: run.outputOffload } : {}),
    });
    run.parsers.push(parser);
    const sink = run.staging.sink(bucket, (header) =>
      logger.warning(
        `A table whose name sanitises to an empty string is not written (columns ${header.map((h) => `"${h}"`).join(',') || 'none'}), as the reference does. ` +
          'Name it with a "dataType" of ASCII letters or digits, or map it with "mappings", to keep its rows.',
      ),
    );
    const router = new MappingRouter({ mappings: output.mappings, auto: parser, sink, spoolDir: run.staging.spoolDir });
    run.routers.push(router);
    entry = { bucket, parser, router, sink, incremental: undefined };
    run.buckets.set(bucket, entry);
  }
  entry.incremental = output.incremental;

  clientHeaders = evaluateClientHeaders(api.headerDefinitions, config, configuration.pathOf);
  // Headers named like credentials (Authorization, X-Api-Key, X-Auth-Token …) carry secrets even
  // when their value is not a # attribute: registered before the first request (issue 19 #1).
  for (const { name, values } of clientHeaders.entries) if (isCredentialKey(name)) for (const v of values) logger.secrets.addHeaderValue(v);
  const aws = awsCredentialsOf(run.parameters);
  const signer = aws === undefined ? undefined : createAwsSigner(aws, run.nowMs);
  const transport = new Transport({
    connectTimeoutMs: api.connectTimeoutMs,
    requestTimeoutMs: api.requestTimeoutMs,
    ...(api.caCertificate !== undefined ? { ca: api.caCertificate } : {}),
    ...(api.clientCertificate !== undefined ? { cert: api.clientCertificate.cert, key: api.clientCertificate.key } : {}),
    ...(run.tunnel ? { connect: run.tunnel.connect } : {}),
  });
  const client = new HttpClient({
    transport,
    retry: api.retry,
    logger,
    ...(authenticator ? { authenticator } : {}),
    ...(signer ? { signer } : {}),
    ...(run.tunnel ? { beforeRetry: run.tunnel.beforeRetry } : {}),
    ...(run.sleep ? { sleep: run.sleep } : {}),
    nowMs: run.nowMs,
    ...(allowedHosts ? { checkUrl: requestChecker(allowedHosts) } : {}),
    concurrency: concurrencyOf(api.api, run.env),
    rateLimit: rateLimitOptions(api.api),
    stats: run.stats,
    credentialScope: credentialScope(api.api, api.baseUrl, allowedHosts, config.get('jobs')),
    withheldFrom: run.withheldFrom,
  });
  const runner = new JobRunner({
    jobs: configuration.run,
    userData: configuration.userData,
    api,
    client,
    settings: { baseUrl: api.baseUrl, clientHeaders, defaultOptions: api.defaultOptions },
    sink: entry.router,
    logger,
    functions: { attr: flattenContext(attributesOf(config)), time: flattenContext(run.state.timeValues()) },
    compatLevel: output.compatLevel,
    nowMs: run.nowMs,
    stats: run.stats,
    ...(run.limits ? { limits: run.limits } : {}),
    pathOf: configuration.pathOf,
  });
  try {
    await runner.run();
  } finally {
    transport.close();
    // The effective rate per host whose requests were paced or answered 429 (README "Rate limits").
    for (const line of client.rateLimiter.summary()) logger.info(line);
  }
  if (output.mappings === undefined) {
    const { struct, version } = entry.parser.stateEntries();
    run.state.mergeParser(struct, version);
  }
  return { parser: entry.parser, bucket };
}
