import { CurlError } from './CurlError.ts';

/**
 * The SSH tunnel could not be opened (spec 01 §6.1): a user error (exit 1).
 *
 * It extends CurlError (curl 97, "proxy handshake error", not in the default retry codes) so
 * that it crosses the HTTP transport unchanged: the transport passes CurlErrors through and
 * classifies every other connect failure as a network error, which would lose this message.
 */
export class SshTunnelError extends CurlError {
  /** The ERROR line's context names the section to check. */
  override readonly configPath: string | undefined = 'parameters.sshProxy';

  constructor(message: string, cause?: unknown) {
    super(97, message, 0, cause);
    this.name = 'SshTunnelError';
    this.message = message;
  }
}
