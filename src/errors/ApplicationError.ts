/** An internal or platform-level failure (the reference's "application error"): exit code 2. */
export class ApplicationError extends Error {
  readonly context: Record<string, unknown>;

  constructor(message: string, options: { context?: Record<string, unknown>; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'ApplicationError';
    this.context = options.context ?? {};
  }
}
