/** Opening the SSH tunnel failed in a way another attempt cannot fix (the key itself is unusable). */
export class SshFatalOpenError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'SshFatalOpenError';
  }
}
