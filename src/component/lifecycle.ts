/**
 * The lifecycle of the `run` command, around a sync action or an extraction alike: SIGTERM, SIGINT
 * and the command's other reasons to stop at once (memory running out, src/extractor.ts) end it
 * through one path with nothing written, a failure is logged as the reference logs it and gives
 * the exit code of its class, and what the run opened is closed whatever the outcome.
 */
import { ApplicationError } from '../errors/ApplicationError.ts';
import { UserError } from '../errors/UserError.ts';
import { formatLine, type RunLogger } from '../logging/logger.ts';
import type { OutputStaging } from '../output/staging.ts';

/** A user error (the configuration, the API's answers) exits 1; anything else is the extractor's failure, 2. */
export function exitCodeFor(error: unknown): number {
  return error instanceof UserError ? 1 : 2;
}

/** A sync action under way, as an abrupt end needs to know it. */
export interface SyncActionUnderWay {
  /** The action's name as config.json gives it. */
  name: string;
  /** True once its answer is being written: the answer is then let finish, never cut. */
  answering: boolean;
}

/** Why a run ends at once, before its body does: the ERROR line it leaves and the exit code. */
export interface AbruptEnd {
  /** The ERROR line of an extraction. */
  extraction: string;
  /** The ERROR line of the sync action `name` that has not answered yet. */
  syncAction: (name: string) => string;
  exitCode: number;
}

/**
 * Watches for a reason to end the run at once and calls `end` with it; returns the function that
 * stops watching. The lifecycle watches SIGTERM and SIGINT itself; the command adds its own.
 */
export type AbruptEndWatch = (end: (why: AbruptEnd) => void) => () => void;

function interruptedBy(signal: NodeJS.Signals): AbruptEnd {
  return {
    extraction: `Extraction interrupted by ${signal}; no tables or state were written.`,
    syncAction: (name) =>
      `The sync action "${name}" was interrupted by ${signal} before it answered; nothing was printed. Run the action again.`,
    exitCode: signal === 'SIGINT' ? 130 : 143,
  };
}

const watchSignals: AbruptEndWatch = (end) => {
  const onSignal = (signal: NodeJS.Signals): void => end(interruptedBy(signal));
  process.once('SIGTERM', onSignal);
  process.once('SIGINT', onSignal);
  return () => {
    process.removeListener('SIGTERM', onSignal);
    process.removeListener('SIGINT', onSignal);
  };
};

/** What the lifecycle must undo or close for the run it wraps. */
export class Lifecycle {
  readonly logger: RunLogger;
  /**
   * The extraction's staged output while it can still be thrown away: set when it is created,
   * cleared once committed. An abrupt end or a failure discards it, so nothing reaches `out/`.
   */
  staging: OutputStaging | undefined;
  /** Set while a sync action runs: an abrupt end then ends it in the action's own words. */
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

  /**
   * Ends the process now (a signal, memory running out): the staged output is discarded, so
   * nothing reaches `out/`, and one ERROR line says why. During a sync action stdout stays empty
   * — the UI reads it as JSON, and half an answer would be worse than none — and the line goes to
   * stderr (docs/sync-actions.md, "Interrupted"); an answer already being written is let finish.
   */
  end(why: AbruptEnd): void {
    const action = this.syncAction;
    if (action !== undefined) {
      if (action.answering) return;
      process.stderr.write(`${formatLine('error', why.syncAction(action.name), undefined)}\n`);
    } else {
      this.staging?.discard();
      this.logger.error(why.extraction);
    }
    process.exit(why.exitCode);
  }
}

/**
 * Runs `body` under the lifecycle; resolves to its exit code, or to the failure's. `watches` are
 * the command's reasons to end the run at once besides SIGTERM and SIGINT.
 */
export async function underLifecycle(
  logger: RunLogger,
  body: (lifecycle: Lifecycle) => Promise<number>,
  watches: readonly AbruptEndWatch[] = [],
): Promise<number> {
  const lifecycle = new Lifecycle(logger);
  const end = (why: AbruptEnd): void => lifecycle.end(why);
  const stopWatching = [watchSignals, ...watches].map((watch) => watch(end));
  try {
    return await body(lifecycle);
  } catch (error) {
    lifecycle.staging?.discard();
    logFailure(logger, error);
    return exitCodeFor(error);
  } finally {
    await lifecycle.close();
    for (const stop of stopWatching) stop();
  }
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
