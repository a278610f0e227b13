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
  /** After goLive(): lines go straight to the real logger. */
  private live = false;

  constructor(target: Logger) {
    this.target = target;
  }

  get secrets(): Logger['secrets'] {
    return this.target.secrets;
  }

  debug(message: string, context?: Record<string, unknown>): void {
    this.keep(['debug', message, context]);
  }

  info(message: string, context?: Record<string, unknown>): void {
    this.keep(['info', message, context]);
  }

  warning(message: string, context?: Record<string, unknown>): void {
    this.keep(['warning', message, context]);
  }

  error(message: string, context?: Record<string, unknown>): void {
    this.keep(['error', message, context]);
  }

  private keep(line: Line): void {
    if (this.live) this.write(line);
    else this.lines.push(line);
  }

  private write([level, message, context]: Line): void {
    if (context === undefined) this.target[level](message);
    else this.target[level](message, context);
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
    for (const line of lines) this.write(line);
  }

  /**
   * The request's turn has come while it may still be under way (retrying): the kept lines are
   * written now and later ones as they come, so a long retry is not silent until it ends.
   */
  goLive(): void {
    this.replay();
    this.live = true;
  }
}
