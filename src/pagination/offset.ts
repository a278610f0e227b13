/**
 * `offset` pagination (spec 03 §5.3.2): `limit`/`offset` parameters, the offset pointer
 * advancing by the page size until a page has fewer records than the page size.
 */
import { UserError } from '../errors/UserError.ts';
import { isNumeric } from '../php/isNumeric.ts';
import { pjsonOrFalse } from '../php/jsonEncode.ts';
import { isEmpty, member, type Value } from '../php/value.ts';
import type { Logger } from '../logging/logger.ts';
import type { SchemaNode } from '../spec/schemaNode.ts';
import { flagOption, prefetchOption } from './optionNodes.ts';
import { phpIntval } from '../php/intval.ts';
import { OptionReader, shownOption } from './options.ts';
import { type HelperValues, registerPaginationMethod } from './registry.ts';
import { jobRequest, replaceParams, requestWithParams, type JobInstance, type Scroller } from './scroller.ts';

/** The options' schema nodes; the parser below takes its defaults from them (sync actions too). */
export const OFFSET_OPTIONS = {
  limit: {
    type: ['integer', 'string'],
    minimum: 1,
    description:
      'Required. Page size; must be numeric, its integer part is used. A non-empty job parameter named like `limitParam` overrides it.',
    examples: [100],
  },
  limitParam: { type: 'string', default: 'limit', description: 'Name of the page-size parameter.', examples: ['per_page'] },
  offsetParam: { type: 'string', default: 'offset', description: 'Name of the offset parameter.', examples: ['skip'] },
  firstPageParams: flagOption('Send limit/offset on the first page too (truthiness).', true),
  offsetFromJob: flagOption("Start from the job's own `offsetParam` value when it is not empty (truthiness).", false),
  prefetch: prefetchOption,
} as const satisfies Record<string, SchemaNode>;

export interface OffsetOptions {
  limit: number;
  limitParam: string;
  offsetParam: string;
  firstPageParams: boolean;
  offsetFromJob: boolean;
}

export function offsetOptions(options: OptionReader): OffsetOptions {
  const limit = options.get('limit');
  if (isEmpty(limit)) {
    throw new UserError("Missing 'pagination.limit' attribute required for offset pagination", { configPath: options.at('limit') });
  }
  if (!isNumeric(limit)) {
    throw new UserError(`Parameter 'pagination.limit' is not numeric. Value '${pjsonOrFalse(limit!, 'shortest') || ''}'.`, {
      configPath: options.at('limit'),
      context: { value: shownOption(limit) },
    });
  }
  return {
    limit: phpIntval(limit),
    limitParam: options.castString('limitParam', OFFSET_OPTIONS.limitParam.default),
    offsetParam: options.castString('offsetParam', OFFSET_OPTIONS.offsetParam.default),
    firstPageParams: options.flag('firstPageParams', OFFSET_OPTIONS.firstPageParams.default),
    offsetFromJob: options.flag('offsetFromJob', OFFSET_OPTIONS.offsetFromJob.default),
  };
}

export class OffsetScroller implements Scroller {
  private readonly options: OffsetOptions;
  private readonly logger: Logger;
  private pointer = 0;

  constructor(options: OffsetOptions, logger: Logger) {
    this.options = options;
    this.logger = logger;
  }

  /** Page size: the job's own non-empty `limitParam` value, else `limit` (re-read every page). */
  private pageSize(job: JobInstance): number {
    const own = member(job.params, this.options.limitParam);
    return isEmpty(own) ? this.options.limit : phpIntval(own);
  }

  private scrollRequest(job: JobInstance, pointer = this.pointer) {
    return requestWithParams(
      job,
      replaceParams(job.params, [
        [this.options.limitParam, this.pageSize(job)],
        [this.options.offsetParam, pointer],
      ]),
    );
  }

  peek(job: JobInstance, ahead: number) {
    return this.scrollRequest(job, this.pointer + ahead * this.pageSize(job));
  }

  firstRequest(job: JobInstance) {
    if (this.options.offsetFromJob) {
      const start = member(job.params, this.options.offsetParam);
      if (!isEmpty(start)) this.pointer = phpIntval(start);
    }
    return this.options.firstPageParams ? this.scrollRequest(job) : jobRequest(job);
  }

  nextRequest(job: JobInstance, _response: Value, records: readonly Value[]) {
    const size = this.pageSize(job);
    if (records.length < size) {
      this.logger.info('Offset limit reached, stopping scrolling.');
      this.pointer = 0;
      return null;
    }
    this.pointer += size;
    return this.scrollRequest(job);
  }

  reset(): void {
    this.pointer = 0;
  }

  forChild(): Scroller {
    return new OffsetScroller(this.options, this.logger);
  }
}

/** An option of the helper's scroller configuration, absent or null → `fallback`. */
function helperOption(config: ReadonlyMap<string, Value>, key: string, fallback: Value): Value {
  const v = config.get(key);
  return v === undefined || v === null ? fallback : v;
}

/**
 * Spec 05 §4.2: the helper sends `offset` (from the scroller's own `offset` option, else 0)
 * before `limit`, and `limit` even when missing (a null parameter, left out of the URL), which
 * the run refuses.
 */
function helperFirstPage(config: ReadonlyMap<string, Value>, values: HelperValues): [string, Value][] {
  if (!values.truthy(helperOption(config, 'firstPageParams', OFFSET_OPTIONS.firstPageParams.default))) return [];
  return [
    [values.str(helperOption(config, 'offsetParam', OFFSET_OPTIONS.offsetParam.default)), helperOption(config, 'offset', 0)],
    [values.str(helperOption(config, 'limitParam', OFFSET_OPTIONS.limitParam.default)), helperOption(config, 'limit', null)],
  ];
}

registerPaginationMethod({
  method: 'offset',
  helperFirstPage,
  description: 'Sends a page size and an offset; the offset grows by the page size until a page has fewer records than the page size.',
  options: OFFSET_OPTIONS,
  required: ['limit'],
  example: {
    pagination: { method: 'offset', limit: 100 },
    sends: '`users?limit=100&offset=0`, `users?limit=100&offset=100`, … until a page has fewer than 100 records.',
  },
  create: ({ config, logger, path }) => new OffsetScroller(offsetOptions(new OptionReader(config, path)), logger),
});
