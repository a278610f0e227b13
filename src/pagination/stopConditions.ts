/**
 * The stop-condition wrappers (spec 03 §5.2, §5.4). Each wraps a scroller; after a page, they
 * are consulted outermost first — limitStop, forceStop, nextPageFlag — then the method itself,
 * and the first "stop" wins (later ones are not consulted and do not update their counters).
 * A stop decided by a wrapper does not reset the wrapped method's state (§5.5 rule 5).
 */
import { UserError } from '../errors/UserError.ts';
import { phpStrtotime } from '../functions/strtotime/index.ts';
import { lookup } from '../php/pathLookup.ts';
import { pjsonOrFalse } from '../php/jsonEncode.ts';
import { isEmpty, isInt, JsonObject, type PhpArray, PhpFloat, phpType, truthy, type Value } from '../php/value.ts';
import type { Logger } from '../logging/logger.ts';
import type { SchemaNode } from '../spec/schemaNode.ts';
import { phpIntval } from '../php/intval.ts';
import { numericValue, OptionReader } from './options.ts';
import { strictType } from './optionNodes.ts';
import type { JobInstance, Scroller } from './scroller.ts';

// ---------------------------------------------------------------------------------------------
// nextPageFlag

const nextPageFlagNode = {
  type: 'object',
  description: 'Stop on a flag in the response: stop when the member `field` equals `stopOn` (missing → `ifNotSet`).',
  properties: {
    field: { type: 'string', description: 'Name of the flag member in the response (no path).', examples: ['hasMore'], ...strictType },
    stopOn: { type: 'boolean', description: 'Stop when the flag (truthiness) equals this.', examples: [false] },
    // Not a schema default: the fallback is the value of another option.
    ifNotSet: { type: 'boolean', description: 'Flag value when the member is missing or null. Default: stopOn.', examples: [true] },
  },
  required: ['field', 'stopOn'],
  additionalProperties: false,
  examples: [{ field: 'hasMore', stopOn: false }],
} as const satisfies SchemaNode;

export interface NextPageFlagOptions {
  field: string;
  stopOn: boolean;
  ifNotSet: boolean;
}

export function nextPageFlagOptions(options: OptionReader): NextPageFlagOptions {
  const field = options.strictString('field');
  if (field === undefined) throw new UserError("'field' has to be specified for 'nextPageFlag'", { configPath: options.at('field') });
  const stopOn = options.get('stopOn');
  if (stopOn === undefined || stopOn === null) {
    throw new UserError("'stopOn' value must be set to a boolean value for 'nextPageFlag'", { configPath: options.at('stopOn') });
  }
  if (typeof stopOn !== 'boolean') {
    throw new UserError(`'stopOn' value must be set to a boolean value for 'nextPageFlag', given '${phpType(stopOn)}' type.`, {
      configPath: options.at('stopOn'),
    });
  }
  const ifNotSet = options.get('ifNotSet');
  if (ifNotSet !== undefined && ifNotSet !== null && typeof ifNotSet !== 'boolean') {
    throw new UserError(`'ifNotSet' value must be boolean, given '${phpType(ifNotSet)}' type.`, { configPath: options.at('ifNotSet') });
  }
  return { field, stopOn, ifNotSet: typeof ifNotSet === 'boolean' ? ifNotSet : stopOn };
}

export class NextPageFlag implements Scroller {
  private readonly inner: Scroller;
  private readonly options: NextPageFlagOptions;
  private readonly logger: Logger;

  constructor(inner: Scroller, options: NextPageFlagOptions, logger: Logger) {
    this.inner = inner;
    this.options = options;
    this.logger = logger;
  }

  firstRequest(job: JobInstance) {
    return this.inner.firstRequest(job);
  }

  nextRequest(job: JobInstance, response: Value, records: readonly Value[]) {
    const { field, stopOn, ifNotSet } = this.options;
    const value = response instanceof JsonObject ? response.get(field) : undefined;
    const flag = value === undefined || value === null ? ifNotSet : truthy(value);
    if (flag === stopOn) {
      this.logger.info(`Stopping scrolling because '${field}' is '${flag ? 'true' : 'false'}'`);
      return null;
    }
    return this.inner.nextRequest(job, response, records);
  }

  reset(): void {
    this.inner.reset();
  }

  peek(job: JobInstance, ahead: number) {
    return this.inner.peek?.(job, ahead) ?? null;
  }

  forChild(childConfig: PhpArray): Scroller {
    return new NextPageFlag(this.inner.forChild(childConfig), this.options, this.logger);
  }
}

// ---------------------------------------------------------------------------------------------
// forceStop

const forceStopNode = {
  type: 'object',
  description: 'Stop after a number of pages, a time or a volume per job instance.',
  properties: {
    pages: { type: 'integer', minimum: 1, description: 'At most this many pages (requests).', examples: [10], ...strictType },
    time: {
      type: ['integer', 'string'],
      minimum: 1,
      description: 'Seconds, or a relative time such as "1 hour".',
      examples: [3600, '30 minutes'],
    },
    volume: { type: 'integer', minimum: 1, description: 'Stop once the re-encoded responses exceed this many bytes.', examples: [1000000] },
  },
  additionalProperties: false,
  examples: [{ pages: 2 }],
} as const satisfies SchemaNode;

export interface ForceStopOptions {
  /** Maximum pages per job instance (null: inactive). */
  pages: number | null;
  /** Maximum seconds since the job instance's first request (null: inactive). */
  time: number | null;
  /** Maximum total of pjson(response) bytes (null: inactive). */
  volume: number | null;
}

function timeLimit(v: Value): number {
  if (isInt(v)) return Number(v);
  if (v instanceof PhpFloat) return Math.trunc(v.value);
  if (typeof v === 'string') {
    // PHP strtotime(T, 0): a relative time from the epoch; unparsable → false → 0.
    const seconds = phpStrtotime(v, 0n);
    return seconds === false ? 0 : Number(seconds);
  }
  return 0;
}

export function forceStopOptions(options: OptionReader): ForceStopOptions {
  const pages = options.get('pages');
  if (!isEmpty(pages) && !isInt(pages)) {
    throw options.wrongType('pages', 'an integer', 'Write a whole number without quotes, e.g. 10.');
  }
  const time = options.get('time');
  const volume = options.get('volume');
  return {
    pages: isEmpty(pages) ? null : Number(pages),
    time: isEmpty(time) ? null : timeLimit(time!),
    volume: isEmpty(volume) ? null : phpIntval(volume),
  };
}

export class ForceStop implements Scroller {
  private readonly inner: Scroller;
  private readonly options: ForceStopOptions;
  private readonly logger: Logger;
  private readonly nowMs: () => number;
  private pageCount = 1;
  private startSeconds = 0;
  private volumeTotal = 0;

  constructor(inner: Scroller, options: ForceStopOptions, logger: Logger, nowMs: () => number) {
    this.inner = inner;
    this.options = options;
    this.logger = logger;
    this.nowMs = nowMs;
  }

  private nowSeconds(): number {
    return Math.floor(this.nowMs() / 1000);
  }

  firstRequest(job: JobInstance) {
    // Re-initialised at every job instance's first request; the volume total is not (§5.5 rule 6).
    this.pageCount = 1;
    this.startSeconds = this.nowSeconds();
    return this.inner.firstRequest(job);
  }

  nextRequest(job: JobInstance, response: Value, records: readonly Value[]) {
    const { pages, time, volume } = this.options;
    // A response holding INF/NaN measures 0 bytes: PHP's json_encode gives false, strlen("") = 0.
    this.volumeTotal += Buffer.byteLength(pjsonOrFalse(response, 'shortest') || '');
    if (pages !== null && this.pageCount >= pages) {
      this.logger.info(`Force stopping: page limit reached (${pages} pages).`);
      return null;
    }
    if (time !== null && this.nowSeconds() >= this.startSeconds + time) {
      this.logger.info(`Force stopping: time limit reached (${time} seconds).`);
      return null;
    }
    if (volume !== null && this.volumeTotal > volume) {
      this.logger.info(`Force stopping: volume limit reached (${volume} bytes).`);
      return null;
    }
    this.pageCount += 1;
    return this.inner.nextRequest(job, response, records);
  }

  reset(): void {
    this.pageCount = 1;
    this.startSeconds = 0;
    this.volumeTotal = 0;
    this.inner.reset();
  }

  peek(job: JobInstance, ahead: number) {
    // pageCount pages are out; the page limit allows `pages` in all.
    if (this.options.pages !== null && this.pageCount + ahead > this.options.pages) return null;
    return this.inner.peek?.(job, ahead) ?? null;
  }

  forChild(childConfig: PhpArray): Scroller {
    return new ForceStop(this.inner.forChild(childConfig), this.options, this.logger, this.nowMs);
  }
}

// ---------------------------------------------------------------------------------------------
// limitStop

const limitStopNode = {
  type: 'object',
  description: 'Stop once the records fetched reach a count: a fixed `count`, or the number at `field` in the response.',
  properties: {
    field: { type: 'string', description: 'Path of the total in the response.', examples: ['meta.total'], ...strictType },
    count: { type: 'integer', description: 'Fixed total.', examples: [1000] },
  },
  additionalProperties: false,
  examples: [{ field: 'meta.total' }],
} as const satisfies SchemaNode;

export interface LimitStopOptions {
  field: string | null;
  count: number;
}

export function limitStopOptions(options: OptionReader): LimitStopOptions {
  const field = options.get('field');
  const count = options.get('count');
  if (isEmpty(field) && isEmpty(count)) {
    throw new UserError("One of 'limitStop.field' or 'limitStop.count' attributes is required.", { configPath: options.path });
  }
  if (!isEmpty(field) && !isEmpty(count)) {
    throw new UserError("Specify only one of 'limitStop.field' or 'limitStop.count'.", { configPath: options.path });
  }
  return { field: options.strictString('field') ?? null, count: phpIntval(count) };
}

/** PHP 7 `$total >= $limit` for the kinds of values a response can hold. */
function limitReached(total: number, limit: Value): boolean {
  const n = numericValue(limit);
  if (n !== null) return total >= n;
  if (limit === null || typeof limit === 'string') return true; // null → false; non-numeric string → 0
  if (typeof limit === 'boolean') return total !== 0 || !limit;
  if (Array.isArray(limit)) return false; // an array is always greater
  return total >= 1; // an object compares as 1
}

export class LimitStop implements Scroller {
  private readonly inner: Scroller;
  private readonly options: LimitStopOptions;
  private readonly logger: Logger;
  private total = 0;

  constructor(inner: Scroller, options: LimitStopOptions, logger: Logger) {
    this.inner = inner;
    this.options = options;
    this.logger = logger;
  }

  firstRequest(job: JobInstance) {
    this.total = 0;
    return this.inner.firstRequest(job);
  }

  nextRequest(job: JobInstance, response: Value, records: readonly Value[]) {
    this.total += records.length;
    const limit: Value = this.options.field === null ? this.options.count : lookup(this.options.field, response, '.');
    if (limitReached(this.total, limit)) {
      this.logger.info(`Limit reached, stopping scrolling. Current count: ${this.total}, limit: ${phpIntval(limit)}`);
      return null;
    }
    return this.inner.nextRequest(job, response, records);
  }

  reset(): void {
    this.total = 0;
    this.inner.reset();
  }

  peek(job: JobInstance, ahead: number) {
    return this.inner.peek?.(job, ahead) ?? null;
  }

  forChild(childConfig: PhpArray): Scroller {
    return new LimitStop(this.inner.forChild(childConfig), this.options, this.logger);
  }
}

// ---------------------------------------------------------------------------------------------

/**
 * The options any method (and each scroller of `multiple`) may carry besides its own: the stop
 * conditions, and the legacy `pages` (checked by config/api.ts, read by nothing).
 */
export const STOP_CONDITION_OPTIONS = {
  nextPageFlag: nextPageFlagNode,
  forceStop: forceStopNode,
  limitStop: limitStopNode,
  pages: { type: ['integer', 'string'], description: 'Legacy; must be an integer; no other effect.', examples: [1] },
} as const satisfies Record<string, SchemaNode>;

/**
 * Wraps a method's scroller with the stop conditions configured next to it, so that they are
 * consulted in the order limitStop, forceStop, nextPageFlag, method (§5.2). Validation runs in
 * construction order: nextPageFlag, forceStop, limitStop.
 */
export function wrapStopConditions(
  scroller: Scroller,
  config: Value | undefined,
  path: string,
  logger: Logger,
  nowMs: () => number,
): Scroller {
  const conf = new OptionReader(config, path);
  let wrapped = scroller;
  const flag = conf.get('nextPageFlag');
  if (!isEmpty(flag)) wrapped = new NextPageFlag(wrapped, nextPageFlagOptions(new OptionReader(flag, conf.at('nextPageFlag'))), logger);
  const force = conf.get('forceStop');
  if (!isEmpty(force)) wrapped = new ForceStop(wrapped, forceStopOptions(new OptionReader(force, conf.at('forceStop'))), logger, nowMs);
  const limit = conf.get('limitStop');
  if (!isEmpty(limit)) wrapped = new LimitStop(wrapped, limitStopOptions(new OptionReader(limit, conf.at('limitStop'))), logger);
  return wrapped;
}
