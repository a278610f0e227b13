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
import { createContext, type ActionContext } from './context.ts';
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

/** The helper's process limit (Symfony Process's default, §1.2). */
export const SYNC_ACTION_TIMEOUT_MS = 60_000;

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
  timeoutMs?: number;
}

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
        { nowMs: run.nowMs ?? Date.now },
        // Retry pauses stop a little before the limit, so the last failure can still be reported.
        { signal: controller.signal, deadlineMs: Date.now() + limitMs - Math.min(5000, limitMs / 6) },
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
    if (outcome !== TIME_UP && writeAnswer(outcome, stdout)) return 0;
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
 * Encodes the whole answer before writing any of it: an answer cut by the time limit is not
 * printed at all (the reference discards a killed helper's output, §1.2). False when the time
 * ran out while encoding.
 */
function writeAnswer(answer: Value, sink: AnswerSink): boolean {
  let chunks: Buffer[];
  try {
    chunks = pythonJsonChunks(answer, { checkTime: checkActionTime });
  } catch (error) {
    if (error instanceof TimeLimitReached) return false;
    throw error;
  }
  for (const chunk of chunks) sink(chunk);
  return true;
}
