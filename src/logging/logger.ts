/**
 * Structured log lines in the reference's Monolog format (spec 01 §4.1), on stdout:
 *   [2024-05-01T10:00:00.123456+00:00] logger.INFO: message {context} []
 * The level filter is one comparison and each line one synchronous write: winston did both
 * before, and loading its tree (formats, colours, exception handlers — none of them used) was
 * ~12–20 ms of a one-request job's start (docs/performance.md, issue 28).
 */
import { logJson } from '../php/jsonEncode.ts';
import { SecretRegistry } from './redact.ts';
import { count } from './runStats.ts';
import { writeStdout } from './stdoutWriter.ts';

export const LEVELS = { emergency: 0, alert: 1, critical: 2, error: 3, warning: 4, notice: 5, info: 6, debug: 7 } as const;
export type LevelName = keyof typeof LEVELS;

export interface Logger {
  debug(message: string, context?: Record<string, unknown>): void;
  info(message: string, context?: Record<string, unknown>): void;
  warning(message: string, context?: Record<string, unknown>): void;
  error(message: string, context?: Record<string, unknown>): void;
  setLevel(level: LevelName): void;
  isDebug(): boolean;
  readonly secrets: SecretRegistry;
}

function timestamp(now: Date): string {
  // Monolog prints microseconds; JavaScript clocks give milliseconds.
  return now.toISOString().replace('Z', '000+00:00');
}

function singleLine(text: string): string {
  return text.replace(/\r\n|\r|\n/g, ' ');
}

/**
 * One log line. `redact` applies to the message and the context only: the line's own frame
 * (timestamp, `logger.LEVEL:`) is never touched by secret redaction.
 */
export function formatLine(
  level: string,
  message: string,
  context: Record<string, unknown> | undefined,
  now = new Date(),
  redact: (text: string) => string = (text) => text,
): string {
  const ctx = context && Object.keys(context).length > 0 ? redact(logJson(context)) : '[]';
  return `[${timestamp(now)}] logger.${level.toUpperCase()}: ${singleLine(redact(message))} ${singleLine(ctx)} []`;
}

export interface LoggerOptions {
  /** Where lines go; defaults to stdout. Tests pass a collector. */
  write?: (line: string) => void;
  level?: LevelName;
}

/** The run's own logger: a Logger that also collapses repeated warnings. */
export interface RunLogger extends Logger {
  /** One WARNING line per warning that was repeated since the last flush: "… repeated 1,999 times". */
  flushRepeats(): void;
}

/** Distinct warnings tracked for collapsing; past this, new ones are printed and not tracked. */
const MAX_TRACKED_WARNINGS = 10_000;

export function createLogger(options: LoggerOptions = {}): RunLogger {
  const secrets = new SecretRegistry();
  // Without creating `process.stdout` (src/logging/stdoutWriter.ts).
  const write = options.write ?? ((line: string) => writeStdout(`${line}\n`));
  let current: LevelName = options.level ?? 'debug';
  const log = (level: LevelName) => (message: string, context?: Record<string, unknown>) => {
    if (LEVELS[level] > LEVELS[current]) return;
    write(formatLine(level, message, context, new Date(), (text) => secrets.redact(text)));
  };
  // Identical warnings (same text) are printed once; the repeats are counted and reported by
  // flushRepeats(), so one problem on 2,000 pages does not bury the log.
  const repeats = new Map<string, number>();
  const warning = log('warning');
  return {
    debug: log('debug'),
    info: log('info'),
    warning(message: string, context?: Record<string, unknown>) {
      const seen = repeats.get(message);
      if (seen !== undefined) {
        repeats.set(message, seen + 1);
        return;
      }
      if (repeats.size < MAX_TRACKED_WARNINGS) repeats.set(message, 0);
      warning(message, context);
    },
    flushRepeats() {
      for (const [message, times] of repeats)
        if (times > 0) warning(`${message} … repeated ${times === 1 ? 'once' : `${count(times)} times`}`);
      repeats.clear();
    },
    error: log('error'),
    setLevel(level: LevelName) {
      current = level;
    },
    isDebug: () => current === 'debug',
    secrets,
  };
}
