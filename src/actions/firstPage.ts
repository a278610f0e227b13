/**
 * First-page pagination parameters (spec 05 §4.2 step 5). The helper never fetches a second
 * page: of the extractor's pagination methods (src/pagination/) only `offset` and `pagenum`
 * contribute, and only their first-page parameters. The defaults the helper shares with the
 * extractor come from the methods' specs; where its rule differs, the code names spec 05.
 */
import { OFFSET_OPTIONS } from '../pagination/offset.ts';
import { PAGENUM_OPTIONS } from '../pagination/pagenum.ts';
import type { Value } from '../php/value.ts';
import { userError } from './envelope.ts';
import { objectAt } from './dialect.ts';
import { pythonStr, pythonTruthy } from './pythonValues.ts';

/** Spec 05 §4.2: `pagenum` adds its first-page parameters only when asked (the extractor's default is true). */
const HELPER_PAGENUM_FIRST_PAGE_PARAMS = false;
/** Spec 05 §4.2: `offset` starts at the scroller's `offset` value, else this; the extractor has no such option. */
const HELPER_OFFSET_START = 0;

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
  if (method === 'offset' && pythonTruthy(option(scroller, 'firstPageParams', OFFSET_OPTIONS.firstPageParams.default))) {
    page.set(
      pythonStr(option(scroller, 'offsetParam', OFFSET_OPTIONS.offsetParam.default)),
      option(scroller, 'offset', HELPER_OFFSET_START),
    );
    // Spec 05 §4.2: sent even without a limit (a null parameter, left out of the URL), which the extractor requires.
    page.set(pythonStr(option(scroller, 'limitParam', OFFSET_OPTIONS.limitParam.default)), option(scroller, 'limit', null));
  } else if (method === 'pagenum' && pythonTruthy(option(scroller, 'firstPageParams', HELPER_PAGENUM_FIRST_PAGE_PARAMS))) {
    const firstPage = option(scroller, 'firstPage', PAGENUM_OPTIONS.firstPage.default);
    page.set(pythonStr(option(scroller, 'pageParam', PAGENUM_OPTIONS.pageParam.default)), firstPage);
    const limit = scroller.get('limit');
    if (pythonTruthy(limit)) page.set(pythonStr(option(scroller, 'limitParam', PAGENUM_OPTIONS.limitParam.default)), limit!);
  }
  const onlyMissing = pythonTruthy(scroller.get('offsetFromJob'));
  for (const [k, v] of page) if (!onlyMissing || !query.has(k)) query.set(k, v);
}
