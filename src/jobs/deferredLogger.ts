/**
 * A logger that keeps its lines until `replay()` (prefetched requests, see prefetch.ts): the lines
 * of a request sent ahead of its turn reach the real logger only when the request's turn comes,
 * so the log reads exactly as in a sequential run.
 */
import type { LevelName, Logger } from '../logging/logger.ts';

type Line = [level: 'debug' | 'info' | 'warning' | 'error', message: string, context: Record<string, unknown> | undefined];

export class DeferredLogger implements Logger {
  private readonly target: Logger;
  private lines: Line[] = [];

  constructor(target: Logger) {
    this.target = target;
  }

  get secrets(): Logger['secrets'] {
    return this.target.secrets;
  }

  debug(message: string, context?: Record<string, unknown>): void {
    this.lines.push(['debug', message, context]);
  }

  info(message: string, context?: Record<string, unknown>): void {
    this.lines.push(['info', message, context]);
  }

  warning(message: string, context?: Record<string, unknown>): void {
    this.lines.push(['warning', message, context]);
  }

  error(message: string, context?: Record<string, unknown>): void {
    this.lines.push(['error', message, context]);
  }

  setLevel(level: LevelName): void {
    this.target.setLevel(level);
  }

  isDebug(): boolean {
    return this.target.isDebug();
  }

  /** Writes the kept lines to the real logger, in order, once. */
  replay(): void {
    const lines = this.lines;
    this.lines = [];
    for (const [level, message, context] of lines) {
      if (context === undefined) this.target[level](message);
      else this.target[level](message, context);
    }
  }
}
