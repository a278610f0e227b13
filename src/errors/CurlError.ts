import { UserError } from './UserError.ts';

/**
 * A network failure, classified into the curl error number the reference would report
 * (spec 01 §3.12): retry configuration matches on these numbers.
 */
export class CurlError extends UserError {
  readonly curlCode: number;
  readonly detail: string;
  /** Bytes of the response received before the failure (0 = nothing). */
  readonly bytesReceived: number;

  constructor(curlCode: number, detail: string, bytesReceived = 0, cause?: unknown) {
    super(`CURL error ${curlCode}: ${detail}`, { cause });
    this.name = 'CurlError';
    this.curlCode = curlCode;
    this.detail = detail;
    this.bytesReceived = bytesReceived;
  }
}
