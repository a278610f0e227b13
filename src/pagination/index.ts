/**
 * Builds the scroller of a top-level job from `api.pagination` (spec 03 §5.1). Importing the
 * method files registers them.
 */
import { pjson } from '../json/encode.ts';
import { isEmpty, member, PhpArray, type Value } from '../json/value.ts';
import type { Logger } from '../logging/logger.ts';
import { NoScroller } from './none.ts';
import { getPaginationMethod } from './registry.ts';
import type { Scroller } from './scroller.ts';

export function createScroller(pagination: Value | undefined, logger: Logger, nowMs: () => number = Date.now, path = 'parameters.api.pagination'): Scroller {
  const method = member(pagination, 'method');
  if (isEmpty(method)) return new NoScroller();
  const name = typeof method === 'string' ? method : pjson(method!, 'shortest');
  const spec = getPaginationMethod(name, name, path);
  return spec.create({
    config: pagination as PhpArray,
    logger,
    path,
    nowMs,
    build: (config, childPath) => createScroller(config, logger, nowMs, childPath),
  });
}
