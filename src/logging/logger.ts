/**
 * Structured log lines in the reference's Monolog format (spec 01 §4.1), on stdout:
 *   [2024-05-01T10:00:00.123456+00:00] logger.INFO: message {context} []
 * winston does the level filtering and transport; the line layout and redaction are ours.
 */
import winston from 'winston';
import TransportStream from 'winston-transport';
import { logJson } from '../php/jsonEncode.ts';
import { SecretRegistry } from './redact.ts';

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

export function createLogger(options: LoggerOptions = {}): Logger {
  const secrets = new SecretRegistry();
  const write = options.write ?? ((line: string) => process.stdout.write(line + '\n'));
  class LineTransport extends TransportStream {
    override log(info: winston.Logform.TransformableInfo, next: () => void): void {
      write(String(info[Symbol.for('message')]));
      next();
    }
  }
  const transport = new LineTransport();
  const logger = winston.createLogger({
    levels: LEVELS,
    level: options.level ?? 'debug',
    format: winston.format.printf((info) => {
      const context = info['context'] as Record<string, unknown> | undefined;
      return formatLine(info.level, String(info.message), context, new Date(), (text) => secrets.redact(text));
    }),
    transports: [transport],
  });
  let current: LevelName = options.level ?? 'debug';
  const log = (level: LevelName) => (message: string, context?: Record<string, unknown>) => {
    logger.log({ level, message, context });
  };
  return {
    debug: log('debug'),
    info: log('info'),
    warning: log('warning'),
    error: log('error'),
    setLevel(level: LevelName) {
      current = level;
      logger.level = level;
    },
    isDebug: () => current === 'debug',
    secrets,
  };
}
