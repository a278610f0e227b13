/**
 * A problem the user can fix (configuration, API answers, network): exit code 1.
 * `configPath` names the configuration location the message is about, when there is one.
 */
export class UserError extends Error {
  readonly context: Record<string, unknown>;
  readonly configPath: string | undefined;

  constructor(message: string, options: { context?: Record<string, unknown>; configPath?: string; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'UserError';
    this.context = options.context ?? {};
    this.configPath = options.configPath;
  }
}
