import { UserError } from '../../errors/UserError.ts';

/**
 * A request with the token would go to a host that is not a service of the token's own stack
 * (01 §5.5 item 1), or over plain http. Raised before anything is sent.
 */
export class UntrustedHostError extends UserError {
  readonly url: string;

  constructor(url: string, reason: string) {
    super(`Refusing to send the Storage API token to ${url}: ${reason}`);
    this.name = 'UntrustedHostError';
    this.url = url;
  }
}
