/**
 * First-page pagination parameters (spec 05 §4.2 step 5), from src/pagination for every
 * registered method: the helper never fetches a second page, so only the first request matters.
 * A method whose helper rule differs from the run's says so in its spec (`helperFirstPage`:
 * offset, pagenum); any other method's scroller gives its own first request, so a new method
 * works here with no change in this folder. Which scroller configuration a job uses is the
 * helper's rule, except that a job without `scroller` under named scrollers takes what the run
 * takes (the `default` entry, or none) instead of failing with `Paginator 'common' not found`.
 */
import { UserError } from '../errors/UserError.ts';
import { createScroller, paginationMethodSpecs } from '../pagination/index.ts';
import { PhpArray, type Value } from '../php/value.ts';
import type { ActionContext } from './context.ts';
import { objectAt } from './dialect.ts';
import { userError } from './envelope.ts';
import { linesLogger } from './helperHttp.ts';
import { pythonStr, pythonTruthy } from './pythonValues.ts';

const PYTHON_VALUES = { str: pythonStr, truthy: pythonTruthy };

/** The scroller configuration of a job, or undefined without pagination. */
function scrollerOf(pagination: Map<string, Value>, job: Map<string, Value>): Map<string, Value> | undefined {
  const scrollers = objectAt(pagination, 'scrollers');
  const named = pythonTruthy(job.get('scroller'));
  if (scrollers.size > 0 && !named) {
    const fallback = pagination.get('default');
    return typeof fallback === 'string' ? objectAt(scrollers, fallback) : undefined;
  }
  const name = named ? pythonStr(job.get('scroller')) : 'common';
  const table = scrollers.size > 0 ? scrollers : pagination.size > 0 ? new Map([['common', pagination as Value]]) : undefined;
  if (table === undefined) return undefined;
  const found = table.get(name);
  if (!(found instanceof Map)) throw userError(`Paginator '${name}' not found in the configuration.`);
  return found;
}

/** Objects as the extractor's configuration maps, all the way down (the scrollers read PhpArrays). */
function phpArrays(v: Value): Value {
  if (Array.isArray(v)) return v.map(phpArrays);
  if (v instanceof Map) return new PhpArray([...v].map(([k, e]) => [k, phpArrays(e)] as const));
  return v;
}

/** The run's first request of this job: its params where they differ from the job's query. */
function scrollerFirstPage(
  ctx: ActionContext,
  scroller: Map<string, Value>,
  job: Map<string, Value>,
  query: Map<string, Value>,
): [string, Value][] {
  const logger = linesLogger((message) => ctx.debugLog.push(message));
  let request: PhpArray | null;
  try {
    const config = phpArrays(job) as PhpArray;
    request = createScroller(phpArrays(scroller), logger, ctx.env.nowMs).firstRequest({
      config,
      endpoint: '',
      params: new PhpArray(query),
    });
  } catch (error) {
    // The helper answers whatever the pagination says; the run's objection is shown, not raised.
    if (!(error instanceof UserError)) throw error;
    ctx.debugLog.push(`Pagination not applied to the first page: ${error.message}`);
    return [];
  }
  const params = request?.get('params');
  if (!(params instanceof Map)) return [];
  return [...params].filter(([k, v]) => query.get(k) !== v);
}

/** Adds the first page's parameters to the query parameters (in place). */
export function addFirstPageParameters(ctx: ActionContext, query: Map<string, Value>, job: Map<string, Value>): void {
  const scroller = scrollerOf(ctx.configuration.pagination, job);
  if (!scroller) return;
  const method = scroller.get('method');
  const spec = paginationMethodSpecs().find((s) => s.method === method);
  if (spec === undefined) return;
  const page = spec.helperFirstPage ? spec.helperFirstPage(scroller, PYTHON_VALUES) : scrollerFirstPage(ctx, scroller, job, query);
  const onlyMissing = pythonTruthy(scroller.get('offsetFromJob'));
  for (const [k, v] of page) if (!onlyMissing || !query.has(k)) query.set(k, v);
}
