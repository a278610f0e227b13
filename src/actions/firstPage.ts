/**
 * First-page pagination parameters (spec 05 §4.2 step 5). The helper never fetches a second
 * page: of the extractor's pagination methods (src/pagination/) only `offset` and `pagenum`
 * contribute, and only their first-page parameters, with the helper's defaults (`pagenum` adds
 * nothing unless `firstPageParams` is true; `offset` adds even without a `limit`).
 */
import type { Value } from '../php/value.ts';
import { userError } from './envelope.ts';
import { objectAt } from './dialect.ts';
import { pythonStr, pythonTruthy } from './pythonValues.ts';

function option(scroller: Map<string, Value>, key: string, fallback: Value): Value {
  const v = scroller.get(key);
  return v === undefined || v === null ? fallback : v;
}

/** The scroller configuration of a job, or undefined without pagination. */
function scrollerOf(api: Map<string, Value>, job: Map<string, Value>): Map<string, Value> | undefined {
  const pagination = objectAt(api, 'pagination');
  const scrollers = objectAt(pagination, 'scrollers');
  const name = pythonStr(job.get('scroller') ?? 'common');
  const named = scrollers.size > 0 ? scrollers : pagination.size > 0 ? new Map([['common', pagination as Value]]) : undefined;
  if (named === undefined) return undefined;
  const found = named.get(name);
  if (!(found instanceof Map)) throw userError(`Paginator '${name}' not found in the configuration.`);
  return found;
}

/** Adds the first page's parameters to the query parameters (in place). */
export function addFirstPageParameters(query: Map<string, Value>, api: Map<string, Value>, job: Map<string, Value>): void {
  const scroller = scrollerOf(api, job);
  if (!scroller) return;
  const page = new Map<string, Value>();
  const method = scroller.get('method');
  if (method === 'offset' && pythonTruthy(option(scroller, 'firstPageParams', true))) {
    page.set(pythonStr(option(scroller, 'offsetParam', 'offset')), option(scroller, 'offset', 0));
    page.set(pythonStr(option(scroller, 'limitParam', 'limit')), option(scroller, 'limit', null));
  } else if (method === 'pagenum' && pythonTruthy(option(scroller, 'firstPageParams', false))) {
    page.set(pythonStr(option(scroller, 'pageParam', 'page')), option(scroller, 'firstPage', 1));
    if (pythonTruthy(scroller.get('limit'))) page.set(pythonStr(option(scroller, 'limitParam', 'limit')), scroller.get('limit')!);
  }
  const onlyMissing = pythonTruthy(scroller.get('offsetFromJob'));
  for (const [k, v] of page) if (!onlyMissing || !query.has(k)) query.set(k, v);
}
