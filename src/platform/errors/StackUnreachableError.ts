import { UserError } from '../../errors/UserError.ts';

/** No HTTP answer at all (refused, unresolvable, timed out, TLS failure). */
export class StackUnreachableError extends UserError {
  readonly url: string;

  constructor(url: string, reason: string, cause?: unknown) {
    super(`Cannot reach ${url}: ${reason}`, { cause });
    this.name = 'StackUnreachableError';
    this.url = url;
  }
}
