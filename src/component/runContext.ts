/**
 * The start of an extraction (spec 01 §1.6): the checks before any request, then the one run
 * context that every configuration of the run shares.
 */
import { UserError } from '../errors/UserError.ts';
import type { Configuration } from '../config/configurations.ts';
import { sshProxyOf } from '../ssh/options.ts';
import type { RunLimits } from '../jobs/runner.ts';
import { createLogger, type RunLogger } from '../logging/logger.ts';
import { formatBytes, RunStats } from '../logging/runStats.ts';
import type { OutputOffloadStarter } from '../mapping/auto/outputOffload.ts';
import type { OutputWorkerStart } from '../outputWorker/client.ts';
import { outputWorkerMode, outputWorkerOffload } from '../outputWorker/offload.ts';
import { OutputStaging } from '../output/staging.ts';
import { removeStaleStaging } from '../output/staleStaging.ts';
import { member, type Value } from '../php/value.ts';
import { createSshTunnel, type SshTunnel } from '../ssh/index.ts';
import { configurationsOf, preflightChecks, prepareConfiguration, strictFromEnv } from './checks.ts';
import { checkDataDirWritable, readInputState } from './files.ts';
import type { Lifecycle } from './lifecycle.ts';
import { RunState } from './state.ts';

/** What the command hands to a run (tests hand in their clock, sleep and log sink). */
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
  /** The process ends with the run (the command): idle sockets are left to its end (src/http/transport.ts). */
  endsProcess?: boolean;
}

/** The data folder's configuration as read by the command (config.json, spec 01 §1.2). */
export interface RunInput {
  dataDir: string;
  root: Value;
}

/** What every configuration of an extraction shares, built once when the checks have passed. */
export interface RunContext {
  readonly logger: RunLogger;
  /** Counters of the end-of-run summary. */
  readonly stats: RunStats;
  readonly nowMs: () => number;
  readonly sleep: ((ms: number) => Promise<void>) | undefined;
  readonly env: NodeJS.ProcessEnv;
  readonly dataDir: string;
  readonly root: Value;
  readonly parameters: Value | undefined;
  readonly state: RunState;
  /** Opened lazily at the first HTTP attempt and shared by all configurations (01 §6.1). */
  readonly tunnel: SshTunnel | undefined;
  readonly staging: OutputStaging;
  /** The output phase's offload for the automatic parsers (the output worker), if any. */
  readonly outputOffload: OutputOffloadStarter | undefined;
  readonly limits: RunLimits | undefined;
  /** Origins warned about withheld credentials (issue 19 #2): one WARNING per origin per run. */
  readonly withheldFrom: Set<string>;
  readonly endsProcess: boolean;
}

/**
 * Everything before the first request: stale staging removed, state read, configurations built
 * and checked (pre-flight findings, every configuration's start-up checks), the SSH tunnel
 * prepared, the output staged. The tunnel and the staging are handed to the lifecycle.
 */
export function startRun(lifecycle: Lifecycle, input: RunInput, options: RunOptions): { run: RunContext; configurations: Configuration[] } {
  const { logger } = lifecycle;
  const { dataDir, root } = input;
  const env = options.env ?? process.env;
  const nowMs = options.nowMs ?? Date.now;
  const stats = new RunStats(nowMs());
  reportStaleStaging(dataDir, logger);
  const inputState = readInputState(dataDir, logger);
  const parameters = member(root, 'parameters');
  const configurations = configurationsOf(root, parameters, logger);
  preflightChecks(root, configurations, logger, options.strict ?? strictFromEnv(env), undefined, 'warn');
  const sshProxy = sshProxyOf(parameters);
  const tunnel = sshProxy === undefined ? undefined : createSshTunnel(sshProxy, logger, options.sleep ? { sleep: options.sleep } : {});
  if (tunnel !== undefined) lifecycle.closeAtEnd(() => tunnel.close());
  const state = new RunState(inputState, Math.floor(nowMs() / 1000));
  checkConfigurationsUpFront(configurations, { root, parameters, state, nowMs });
  checkDataDirWritable(dataDir);
  const staging = new OutputStaging(dataDir);
  lifecycle.staging = staging;
  const outputOffload = options.outputWorker ? outputWorkerOffload(outputWorkerMode(env), options.outputWorker) : undefined;
  const run: RunContext = {
    logger,
    stats,
    nowMs,
    sleep: options.sleep,
    env,
    dataDir,
    root,
    parameters,
    state,
    tunnel,
    staging,
    outputOffload,
    limits: options.limits,
    withheldFrom: new Set<string>(),
    endsProcess: options.endsProcess === true,
  };
  return { run, configurations };
}

function reportStaleStaging(dataDir: string, logger: RunLogger): void {
  for (const { relative, bytes, failure } of removeStaleStaging(dataDir)) {
    if (failure === undefined) logger.info(`Removed the staging folder ${relative} (${formatBytes(bytes)}) left by an interrupted run.`);
    else logger.warning(`Could not remove the staging folder ${relative} left by an interrupted run: ${failure}`);
  }
}

/**
 * Every configuration's start-up checks before the first request (checks.ts); their log lines
 * come when each configuration really starts, as in the reference.
 */
function checkConfigurationsUpFront(
  configurations: Configuration[],
  shared: { root: Value; parameters: Value | undefined; state: RunState; nowMs: () => number },
): void {
  const quiet = createLogger({ write: () => {} });
  for (const configuration of configurations) {
    try {
      prepareConfiguration(configuration, { ...shared, logger: quiet, requestLogger: quiet });
    } catch (e) {
      if (e instanceof UserError) throw e;
      // A crash of the reference (exit 2) is raised where the reference raises it, when that
      // configuration or job starts: a user error of an earlier configuration or job (exit 1)
      // must come first, as it does there (issue 22 class 4). The run goes on and meets it again.
      break;
    }
  }
}
