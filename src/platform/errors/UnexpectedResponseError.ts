import { PlatformApiError } from './PlatformApiError.ts';

/** The exchange whose answer was not what the client reads. */
export interface UnexpectedExchange {
  service: string;
  method: string;
  url: string;
  /** The HTTP status, when the caller has it; a shape check after a 2xx answer says 200. */
  status?: number;
}

/**
 * A platform API answered 2xx, but not with what the client reads: a body that is not JSON, or
 * JSON of another shape (not a job record, not a list of events). The redaction is an argument,
 * so no caller can build one that shows the token an API echoed.
 */
export class UnexpectedResponseError extends PlatformApiError {
  constructor(exchange: UnexpectedExchange, what: string, body: string, redact: (text: string) => string) {
    const status = exchange.status === undefined ? '' : `: HTTP ${exchange.status}`;
    super(
      redact(`${exchange.service}: unexpected answer to ${exchange.method} ${exchange.url}${status}: ${what}.`),
      exchange.status ?? 200,
      redact(body),
    );
    this.name = 'UnexpectedResponseError';
  }
}
