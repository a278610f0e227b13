/**
 * A scroller decides the requests of one job instance, page after page (spec 03 §5).
 * Requests are descriptions (endpoint, params, method, and the job's other keys) that
 * the HTTP layer turns into wire requests.
 */
import type { PhpArray, Value } from '../json/value.ts';

export interface JobInstance {
  /** The job's configuration (children, dataField, … included). */
  config: PhpArray;
  /** The endpoint after placeholder substitution. */
  endpoint: string;
  /** The job params after function evaluation (03 §2.1); an empty list when none. */
  params: Value;
}

export interface Scroller {
  firstRequest(job: JobInstance): PhpArray | null;
  /** After a page was output and its children ran; null ends the job instance. */
  nextRequest(job: JobInstance, response: Value, records: readonly Value[]): PhpArray | null;
  /** Back to the initial state (same-response stop, 03 §3.1.1). */
  reset(): void;
  /** A copy in the initial state for a child job instance (03 §4.8, §5.5). */
  forChild(childConfig: PhpArray): Scroller;
}

/** The job request: the job's configuration with evaluated params and the substituted endpoint. */
export function jobRequest(job: JobInstance): PhpArray {
  const request = new (job.config.constructor as typeof PhpArray)(job.config);
  request.set('endpoint', job.endpoint);
  request.set('params', job.params);
  return request;
}
