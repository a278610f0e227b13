/** A missing or malformed option of the platform client's command line (one line pointing to the help, exit 1). */
export class CommandLineUsageError extends Error {
  /** The command whose help the message points to, when known. */
  readonly command: string | undefined;

  constructor(message: string, command?: string) {
    super(message);
    this.name = 'CommandLineUsageError';
    this.command = command;
  }
}
