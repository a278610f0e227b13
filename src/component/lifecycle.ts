/**
 * The lifecycle of the `run` command, around a sync action or an extraction alike: SIGTERM and
 * SIGINT end it with nothing written, a failure is logged as the reference logs it and gives the
 * exit code of its class, and what the run opened is closed whatever the outcome.
 */
import { ApplicationError } from '../errors/ApplicationError.ts';
import { UserError } from '../errors/UserError.ts';
import { formatLine, type RunLogger } from '../logging/logger.ts';
import type { OutputStaging } from '../output/staging.ts';

/** A user error (the configuration, the API's answers) exits 1; anything else is the extractor's failure, 2. */
export function exitCodeFor(error: unknown): number {
  return error instanceof UserError ? 1 : 2;
}

/** A sync action under way, as the signal handler needs to know it. */
export interface SyncActionUnderWay {
  /** The action's name as config.json gives it. */
  name: string;
  /** True once its answer is being written: the answer is then let finish, never cut. */
  answering: boolean;
}

/** What the lifecycle must undo or close for the run it wraps. */
export class Lifecycle {
  readonly logger: RunLogger;
  /**
   * The extraction's staged output while it can still be thrown away: set when it is created,
   * cleared once committed. A signal or a failure discards it, so nothing reaches `out/`.
   */
  staging: OutputStaging | undefined;
  /** Set while a sync action runs: a signal then ends it in the action's own words. */
  syncAction: SyncActionUnderWay | undefined;
  private readonly closers: (() => void | Promise<void>)[] = [];

  constructor(logger: RunLogger) {
    this.logger = logger;
  }

  /** Closed when the run ends, in the order registered, after a failure has been logged. */
  closeAtEnd(close: () => void | Promise<void>): void {
    this.closers.push(close);
  }

  async close(): Promise<void> {
    for (const close of this.closers) await close();
  }
}

/** Runs `body` under the lifecycle; resolves to its exit code, or to the failure's. */
export async function underLifecycle(logger: RunLogger, body: (lifecycle: Lifecycle) => Promise<number>): Promise<number> {
  const lifecycle = new Lifecycle(logger);
  const onSignal = (signal: NodeJS.Signals): void => {
    if (lifecycle.syncAction) {
      interruptSyncAction(lifecycle.syncAction, signal);
      return;
    }
    lifecycle.staging?.discard();
    logger.error(`Extraction interrupted by ${signal}; no tables or state were written.`);
    process.exit(signal === 'SIGINT' ? 130 : 143);
  };
  process.once('SIGTERM', onSignal);
  process.once('SIGINT', onSignal);
  try {
    return await body(lifecycle);
  } catch (error) {
    lifecycle.staging?.discard();
    logFailure(logger, error);
    return exitCodeFor(error);
  } finally {
    await lifecycle.close();
    process.removeListener('SIGTERM', onSignal);
    process.removeListener('SIGINT', onSignal);
  }
}

/**
 * A signal during a sync action (docs/sync-actions.md, "Interrupted"): stdout stays empty, so
 * the UI never reads half an answer as JSON; one ERROR line on stderr names the action; the exit
 * code is an interrupted run's (143, 130). An answer already being written is let finish.
 */
function interruptSyncAction(action: SyncActionUnderWay, signal: NodeJS.Signals): void {
  if (action.answering) return;
  const message = `The sync action "${action.name}" was interrupted by ${signal} before it answered; nothing was printed. Run the action again.`;
  process.stderr.write(`${formatLine('error', message, undefined)}\n`);
  process.exit(signal === 'SIGINT' ? 130 : 143);
}

/**
 * The failure's ERROR line: its message and context (with the configuration path of a user
 * error); an unexpected exception (exit 2 without an application error) adds its class and the
 * first lines of its stack.
 */
function logFailure(logger: RunLogger, error: unknown): void {
  const err = error as Error & { context?: Record<string, unknown>; configPath?: string };
  const context: Record<string, unknown> = { ...(err.context ?? {}) };
  if (err instanceof UserError && err.configPath !== undefined) context['configPath'] = err.configPath;
  if (exitCodeFor(error) === 2 && !(err instanceof ApplicationError)) {
    context['exception'] = err?.constructor?.name ?? typeof err;
    context['trace'] = String(err?.stack ?? '')
      .split('\n')
      .slice(0, 6)
      .join(' | ');
  }
  logger.flushRepeats();
  logger.error(err instanceof Error ? err.message : String(err), context);
  if (err instanceof ApplicationError && err.hint !== undefined) logger.info(err.hint);
}
