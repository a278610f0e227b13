import { UserError } from '../../errors/UserError.ts';

/** A platform API answered with a non-2xx status, or with a body of the wrong shape (01 §5.5). */
export class PlatformApiError extends UserError {
  readonly status: number;
  /** Response body text (the token, if echoed, is already replaced by `[hidden]`). */
  readonly body: string;

  constructor(message: string, status: number, body: string) {
    super(message, { context: { status } });
    this.name = 'PlatformApiError';
    this.status = status;
    this.body = body;
  }
}
