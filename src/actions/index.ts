/**
 * Sync actions (spec 05): any `action` other than `run` in config.json, `""` included. The
 * answer is one Python-style JSON document on stdout without a trailing newline, exit 0 — also
 * when the action fails, which prints the exception envelope (§1.3). An unknown action exits 2;
 * an action still running after 60 s is stopped and exits 2 (§1.2). Nothing is written to
 * `out/`, and no JavaScript stack ever reaches stdout or stderr. Importing this module
 * registers every action.
 */
import fs from 'node:fs';
import type { Logger } from '../logging/logger.ts';
import { decodeJson, decodeUtf8Lossy } from '../php/jsonDecode.ts';
import type { Value } from '../php/value.ts';
import { type ActionContext, createContext } from './context.ts';
import { abortablePause, type ActionClock, type AnswerDeadlines } from './helperHttp.ts';
import { exceptionEnvelope } from './envelope.ts';
import { pythonJsonChunks, pythonStr } from './pythonValues.ts';
import { checkActionTime, startActionClock, TimeLimitReached } from './timeLimit.ts';
import { getSyncAction, syncActionNames } from './registry.ts';
import { maskSecrets, secretsOf } from './secrets.ts';
import './performFunction.ts';
import './loadFromCurl.ts';
import './testRequest.ts';
import './inferMapping.ts';

export { syncActionNames, syncActionSpecs } from './registry.ts';

/** The helper's process limit (Symfony Process's default, §1.2): the last resort. */
export const SYNC_ACTION_TIMEOUT_MS = 60_000;

/**
 * The platform waits 30 s for a sync action's answer (spec 07 §2.2), container start included.
 * Retry pauses end by 25 s from the action's start and every attempt by 28 s: the last response
 * or network failure is then answered, with 2 s left to encode it and exit
 * (docs/sync-actions.md, "Answering within the platform's 30 s").
 */
export const ANSWER_BUDGET_MS = 25_000;
const ATTEMPT_GRACE_MS = 3_000;

export interface SyncActionRun {
  /** `action` of config.json (not null, not "run"). */
  action: Value;
  /**
   * config.json, read again here with JSON objects kept as objects (`{}` stays `{}`): the
   * helper is Python, whose dicts the answers echo (the extractor reads `{}` as PHP `[]`).
   */
  configFile: string;
  logger: Logger;
  writeStdout?: (text: string) => void;
  writeStderr?: (text: string) => void;
  nowMs?: () => number;
  /** The hard limit (default SYNC_ACTION_TIMEOUT_MS). */
  timeoutMs?: number;
  /** Called once the answer is encoded, just before its first byte is written. */
  onAnswer?: () => void;
  /** Retry pauses end by this many ms from the start (default ANSWER_BUDGET_MS), attempts 3 s later. */
  budgetMs?: number;
  /** The requests' clock and retry pauses (default: the real ones; tests move it without waiting). */
  clock?: ActionClock;
}

const REAL_CLOCK: ActionClock = { nowMs: () => Date.now(), pause: abortablePause };

/** What the answer's writer receives: the bytes of the answer, chunk by chunk. */
type AnswerSink = (chunk: Buffer) => void;

/** Runs the action; resolves to the exit code. */
export async function runSyncAction(run: SyncActionRun): Promise<number> {
  const stdout: AnswerSink = run.writeStdout
    ? (chunk) => run.writeStdout!(chunk.toString('latin1'))
    : (chunk) => process.stdout.write(chunk);
  const stderr = run.writeStderr ?? ((t: string) => process.stderr.write(t));
  const name = typeof run.action === 'string' ? run.action : pythonStr(run.action);
  const spec = getSyncAction(name === '' ? 'test_request' : name);
  if (!spec) {
    const message = `The defined action ${name} is not implemented!`;
    run.logger.error(`${message} Known actions: ${syncActionNames().join(', ')}, or "run" for an extraction.`, {
      configPath: 'action',
    });
    stderr(`${message}\n`);
    return 2;
  }
  const limitMs = run.timeoutMs ?? SYNC_ACTION_TIMEOUT_MS;
  const clock = run.clock ?? REAL_CLOCK;
  const stopClock = startActionClock(limitMs);
  const controller = new AbortController();
  const debugLog = ['Component initialized'];
  if (name === '') debugLog.push('No action defined in the configuration, using the default run action.');
  let context: ActionContext | undefined;
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<typeof TIME_UP>((resolve) => {
    timer = setTimeout(() => {
      controller.abort(new Error('time limit'));
      resolve(TIME_UP);
    }, limitMs);
  });
  const answer = (async (): Promise<Value | typeof TIME_UP> => {
    try {
      context = createContext(
        name,
        decodeJson(decodeUtf8Lossy(fs.readFileSync(run.configFile)), 'response'),
        { nowMs: run.nowMs ?? Date.now, derivedSecrets: new Set() },
        {
          signal: controller.signal,
          deadlines: answerDeadlines(clock.nowMs(), limitMs, run.budgetMs ?? ANSWER_BUDGET_MS),
          clock,
        },
        debugLog,
      );
      return await spec.run(context);
    } catch (error) {
      if (error instanceof TimeLimitReached) return TIME_UP;
      // Masked, unlike the reference (§1.4): an error text may quote a URL with a token.
      const secrets = context ? secretsOf(context) : [];
      return exceptionEnvelope(error, spec.name, (text) => maskSecrets(text, secrets));
    }
  })();
  try {
    const outcome = await Promise.race([answer, timedOut]);
    if (outcome !== TIME_UP && writeAnswer(outcome, stdout, run.onAnswer)) return 0;
    run.logger.error(`Unexpected error: The sync action "${spec.name}" exceeded the timeout of ${Math.round(limitMs / 1000)} seconds.`, {
      configPath: 'action',
    });
    return 2;
  } finally {
    clearTimeout(timer);
    stopClock();
    for (const close of (context as ActionContext | undefined)?.cleanup ?? []) close();
  }
}

const TIME_UP = Symbol('time limit reached');

/**
 * Retry pauses end by the budget, and a little before a shorter hard limit, so that the last
 * failure can still be reported; attempts end 3 s after the budget (the hard limit, if lower,
 * comes first and exits 2).
 */
function answerDeadlines(startMs: number, limitMs: number, budgetMs: number): AnswerDeadlines {
  const retriesFor = Math.min(budgetMs, limitMs - Math.min(5000, limitMs / 6));
  return {
    retriesEndBy: startMs + retriesFor,
    attemptsEndBy: startMs + budgetMs + ATTEMPT_GRACE_MS,
    budgetSeconds: retriesFor / 1000,
  };
}

/**
 * Encodes the whole answer before writing any of it: an answer cut by the time limit is not
 * printed at all (the reference discards a killed helper's output, §1.2). False when the time
 * ran out while encoding.
 */
function writeAnswer(answer: Value, sink: AnswerSink, onAnswer: (() => void) | undefined): boolean {
  let chunks: Buffer[];
  try {
    chunks = pythonJsonChunks(answer, { checkTime: checkActionTime });
  } catch (error) {
    if (error instanceof TimeLimitReached) return false;
    throw error;
  }
  onAnswer?.();
  for (const chunk of chunks) sink(chunk);
  return true;
}
