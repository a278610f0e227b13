/**
 * Builds the scroller of a top-level job from `api.pagination` (spec 03 §5.1): the method's
 * scroller wrapped by the stop conditions configured next to it (§5.2). Importing the method
 * files registers them.
 */
import { pjsonOrFalse } from '../php/jsonEncode.ts';
import { isEmpty, member, PhpArray, type Value } from '../php/value.ts';
import type { Logger } from '../logging/logger.ts';
import './offset.ts';
import './pagenum.ts';
import './responseUrl.ts';
import './responseParam.ts';
import './cursor.ts';
import './multiple.ts';
import './zendeskResponseUrl.ts';
import { NoScroller } from './none.ts';
import { getPaginationMethod } from './registry.ts';
import type { Scroller } from './scroller.ts';
import { wrapStopConditions } from './stopConditions.ts';

export type { JobInstance, Scroller } from './scroller.ts';
export { paginationMethods, paginationMethodSpecs } from './registry.ts';
export { prefetchOption } from './optionNodes.ts';
export { STOP_CONDITION_OPTIONS } from './stopConditions.ts';

export function createScroller(
  pagination: Value | undefined,
  logger: Logger,
  nowMs: () => number = Date.now,
  path = 'parameters.api.pagination',
): Scroller {
  if (!(pagination instanceof PhpArray) || pagination.size === 0) return new NoScroller();
  const method = member(pagination, 'method');
  let scroller: Scroller;
  if (isEmpty(method)) {
    scroller = new NoScroller();
  } else {
    const name = typeof method === 'string' ? method : pjsonOrFalse(method!, 'shortest') || '';
    const spec = getPaginationMethod(name, name, path);
    scroller = spec.create({
      config: pagination,
      logger,
      path,
      nowMs,
      build: (config, childPath) => createScroller(config, logger, nowMs, childPath),
    });
  }
  return wrapStopConditions(scroller, pagination, path, logger, nowMs);
}
