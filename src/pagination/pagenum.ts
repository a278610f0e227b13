/**
 * `pagenum` pagination (spec 03 §5.3.3): a page number parameter (and optionally a page
 * size) until an empty page, or a page shorter than the page size.
 */
import { isEmpty, member, type Value } from '../php/value.ts';
import type { Logger } from '../logging/logger.ts';
import type { SchemaNode } from '../spec/schemaNode.ts';
import { flagOption, prefetchOption } from './optionNodes.ts';
import { phpIntval } from '../php/intval.ts';
import { OptionReader } from './options.ts';
import { type HelperValues, registerPaginationMethod } from './registry.ts';
import { jobRequest, replaceParams, requestWithParams, type JobInstance, type Scroller } from './scroller.ts';

/** The options' schema nodes; the parser below takes its defaults from them (sync actions too). */
export const PAGENUM_OPTIONS = {
  pageParam: { type: 'string', default: 'page', description: 'Name of the page-number parameter.', examples: ['p'] },
  limit: {
    type: ['integer', 'string'],
    minimum: 1,
    description: 'Page size (integer value); none by default. A non-empty job parameter named like `limitParam` overrides it.',
    examples: [100],
  },
  limitParam: { type: 'string', default: 'limit', description: 'Name of the page-size parameter.', examples: ['per_page'] },
  firstPage: {
    type: 'integer',
    minimum: 0,
    default: 1,
    description: 'Number of the first page (integer value, 0 allowed).',
    examples: [0],
  },
  firstPageParams: flagOption('Send the page parameters on the first page too (truthiness).', true),
  prefetch: prefetchOption,
} as const satisfies Record<string, SchemaNode>;

export interface PagenumOptions {
  pageParam: string;
  limit: number | null;
  limitParam: string;
  firstPage: number;
  firstPageParams: boolean;
}

export function pagenumOptions(options: OptionReader): PagenumOptions {
  const limit = options.get('limit');
  const firstPage = options.get('firstPage');
  return {
    pageParam: options.castString('pageParam', PAGENUM_OPTIONS.pageParam.default),
    limit: isEmpty(limit) ? null : phpIntval(limit),
    limitParam: options.castString('limitParam', PAGENUM_OPTIONS.limitParam.default),
    // Only absent or null falls back (0 is a first page), so not castString's empty() rule.
    firstPage: firstPage === undefined || firstPage === null ? PAGENUM_OPTIONS.firstPage.default : phpIntval(firstPage),
    firstPageParams: options.flag('firstPageParams', PAGENUM_OPTIONS.firstPageParams.default),
  };
}

export class PagenumScroller implements Scroller {
  private readonly options: PagenumOptions;
  private readonly logger: Logger;
  private page: number;

  constructor(options: PagenumOptions, logger: Logger) {
    this.options = options;
    this.logger = logger;
    this.page = options.firstPage;
  }

  /** Page size: the job's own non-empty `limitParam` value, else `limit`, else none. */
  private pageSize(job: JobInstance): number | null {
    const own = member(job.params, this.options.limitParam);
    return isEmpty(own) ? this.options.limit : phpIntval(own);
  }

  private pageRequest(job: JobInstance, page = this.page) {
    const size = this.pageSize(job);
    const entries: [string, Value][] = [[this.options.pageParam, page]];
    if (size !== null) entries.push([this.options.limitParam, size]);
    return requestWithParams(job, replaceParams(job.params, entries));
  }

  firstRequest(job: JobInstance) {
    return this.options.firstPageParams ? this.pageRequest(job) : jobRequest(job);
  }

  peek(job: JobInstance, ahead: number) {
    return this.pageRequest(job, this.page + ahead);
  }

  nextRequest(job: JobInstance, _response: Value, records: readonly Value[]) {
    const size = this.pageSize(job);
    if (size === null && records.length === 0) {
      this.logger.info('Pagination stopped, response is empty.');
      this.reset();
      return null;
    }
    if (size !== null && records.length < size) {
      this.logger.info('Pagination stopped, response is smaller than limit.');
      this.reset();
      return null;
    }
    this.page += 1;
    return this.pageRequest(job);
  }

  reset(): void {
    this.page = this.options.firstPage;
  }

  forChild(): Scroller {
    return new PagenumScroller(this.options, this.logger);
  }
}

/**
 * Spec 05 §4.2: the helper sends the first page's parameters only when `firstPageParams` is
 * truthy (default false, the run's is true), and `limit` only when truthy.
 */
function helperFirstPage(config: ReadonlyMap<string, Value>, values: HelperValues): [string, Value][] {
  const option = (key: string, fallback: Value): Value => config.get(key) ?? fallback;
  if (!values.truthy(config.get('firstPageParams'))) return [];
  const page: [string, Value][] = [
    [values.str(option('pageParam', PAGENUM_OPTIONS.pageParam.default)), option('firstPage', PAGENUM_OPTIONS.firstPage.default)],
  ];
  const limit = config.get('limit');
  if (values.truthy(limit)) page.push([values.str(option('limitParam', PAGENUM_OPTIONS.limitParam.default)), limit!]);
  return page;
}

registerPaginationMethod({
  method: 'pagenum',
  helperFirstPage,
  description: 'Sends a page number (and a page size when one is known); stops on an empty page, or on a page shorter than the page size.',
  options: PAGENUM_OPTIONS,
  example: {
    pagination: { method: 'pagenum', pageParam: 'page', limit: 50, limitParam: 'per_page' },
    sends: '`users?page=1&per_page=50`, `users?page=2&per_page=50`, … until a page has fewer than 50 records.',
  },
  create: ({ config, logger, path }) => new PagenumScroller(pagenumOptions(new OptionReader(config, path)), logger),
});
