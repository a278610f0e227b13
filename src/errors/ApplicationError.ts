/** An internal or platform-level failure (the reference's "application error"): exit code 2. */
export class ApplicationError extends Error {
  readonly context: Record<string, unknown>;
  /**
   * A line for a person at a terminal, logged (INFO) after the error: the error's own message
   * stays the reference's, which the platform and its users may match on.
   */
  readonly hint: string | undefined;

  constructor(message: string, options: { context?: Record<string, unknown>; cause?: unknown; hint?: string } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'ApplicationError';
    this.context = options.context ?? {};
    this.hint = options.hint;
  }
}
