/** A missing or malformed option of the platform client's command line (answered with usage help, exit 2). */
export class CommandLineUsageError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'CommandLineUsageError';
  }
}
