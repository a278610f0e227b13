import { UserError } from './UserError.ts';

/** A final HTTP status ≥ 400 after retries (spec 01 §3.13). */
export class HttpError extends UserError {
  readonly status: number;
  readonly body: string;
  /** The message without the `The API request failed: [status] ` prefix (used by ignoreErrors). */
  readonly summary: string;

  constructor(status: number, summary: string, body: string, context: Record<string, unknown>) {
    super(`The API request failed: [${status}] ${summary}`, { context });
    this.name = 'HttpError';
    this.status = status;
    this.body = body;
    this.summary = summary;
  }
}
