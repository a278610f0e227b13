import { UserError } from '../errors/UserError.ts';
import type { JobRecord } from './types.ts';

/**
 * `waitForJob` gave up before the job finished; carries the last record read. Beside the client,
 * not in errors/ with the other platform errors: it carries the client's job record (types.ts),
 * and errors/ sits below the client.
 */
export class JobWaitTimeoutError extends UserError {
  readonly job: JobRecord;

  constructor(job: JobRecord, timeoutMs: number) {
    super(`Job ${job.id} did not finish within ${timeoutMs / 1000} s (last status "${job.status}").`);
    this.name = 'JobWaitTimeoutError';
    this.job = job;
  }
}
