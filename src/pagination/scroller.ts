/**
 * A scroller decides the requests of one job instance, page after page (spec 03 §5).
 * Requests are descriptions (endpoint, params, method, and the job's other keys) that
 * the HTTP layer turns into wire requests.
 */
import { PhpArray, type Value } from '../php/value.ts';

export interface JobInstance {
  /** The job's configuration (children, dataField, … included). */
  config: PhpArray;
  /** The endpoint after placeholder substitution. */
  endpoint: string;
  /**
   * The job params after function evaluation (03 §2.1); an empty list when none. A scroller
   * may replace it for the rest of the instance (`cursor` sets its parameter permanently).
   */
  params: Value;
  /** Config path of the job (`parameters.config.jobs[0].children[1]`), for messages. */
  path?: string;
}

export interface Scroller {
  firstRequest(job: JobInstance): PhpArray | null;
  /** After a page was output and its children ran; null ends the job instance. */
  nextRequest(job: JobInstance, response: Value, records: readonly Value[]): PhpArray | null;
  /** Back to the initial state (same-response stop, 03 §3.1.1). */
  reset(): void;
  /** A copy in the initial state for a child job instance (03 §4.8, §5.5). */
  forChild(childConfig: PhpArray): Scroller;
  /**
   * The request `ahead` pages after the current one, if every page until then is full and no
   * stop condition ends the job first; null when the method cannot tell (pages fetched ahead,
   * jobs/pagePrefetch.ts). Changes nothing: the real nextRequest still decides.
   */
  peek?(job: JobInstance, ahead: number): PhpArray | null;
}

/** The job request: the job's configuration with evaluated params and the substituted endpoint. */
export function jobRequest(job: JobInstance): PhpArray {
  const request = new PhpArray(job.config);
  request.set('endpoint', job.endpoint);
  request.set('params', job.params);
  return request;
}

/** The job request with other params (the job's method, headers… kept). */
export function requestWithParams(job: JobInstance, params: Value, endpoint: Value = job.endpoint): PhpArray {
  const request = new PhpArray(job.config);
  request.set('endpoint', endpoint);
  request.set('params', params);
  return request;
}

/** A parameter map as a configuration map (a list gets its indexes as keys). */
export function paramsMap(params: Value | undefined): PhpArray {
  if (params instanceof Map) return new PhpArray(params);
  if (Array.isArray(params)) return new PhpArray(params.map((v, i) => [String(i), v] as const));
  return new PhpArray();
}

/**
 * PHP `array_replace($params, $entries)`: same keys replaced in place, new keys appended in
 * the order given.
 */
export function replaceParams(params: Value | undefined, entries: Iterable<readonly [string, Value]>): PhpArray {
  const out = paramsMap(params);
  for (const [k, v] of entries) out.set(k, v);
  return out;
}
