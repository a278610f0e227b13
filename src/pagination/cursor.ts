/**
 * `cursor` pagination (spec 03 §5.3.6): the maximum (or minimum) id seen so far, plus an
 * increment, is sent as a job parameter.
 */
import { UserError } from '../errors/UserError.ts';
import { isNumeric } from '../php/isNumeric.ts';
import { lookup } from '../php/pathLookup.ts';
import { pjsonOrFalse } from '../php/jsonEncode.ts';
import { isEmpty, isInt, type Value } from '../php/value.ts';
import type { Logger } from '../logging/logger.ts';
import type { SchemaNode } from '../spec/schemaNode.ts';
import { flagOption, strictType } from './optionNodes.ts';
import { phpInt, phpIntvalBig } from '../php/intval.ts';
import { OptionReader } from './options.ts';
import { registerPaginationMethod } from './registry.ts';
import { jobRequest, replaceParams, type JobInstance, type Scroller } from './scroller.ts';

/** The options' schema nodes; the parser below takes its defaults from them. */
const CURSOR_OPTIONS = {
  idKey: {
    type: 'string',
    description: 'Required. Path (delimiter `.`) of the id inside each record; ids must be numeric.',
    examples: ['id'],
    ...strictType,
  },
  param: { type: 'string', description: 'Required. Name of the parameter carrying the cursor.', examples: ['since_id'], ...strictType },
  reverse: flagOption('Use the lowest id instead of the highest (truthiness).', false),
  increment: { type: 'integer', default: 0, description: 'Integer added to the cursor (may be negative).', examples: [1], ...strictType },
} as const satisfies Record<string, SchemaNode>;

export interface CursorOptions {
  idKey: string;
  param: string;
  reverse: boolean;
  increment: bigint;
  /** Config path of `idKey`, for the not-numeric error. */
  idKeyPath: string;
}

export function cursorOptions(options: OptionReader): CursorOptions {
  const idKey = options.strictString('idKey');
  if (idKey === undefined) {
    throw new UserError("Missing 'pagination.idKey' attribute required for cursor pagination", { configPath: options.at('idKey') });
  }
  const param = options.strictString('param');
  if (param === undefined) {
    throw new UserError("Missing 'pagination.param' attribute required for cursor pagination", { configPath: options.at('param') });
  }
  const increment = options.get('increment');
  if (!isEmpty(increment) && !isInt(increment)) {
    throw options.wrongType('increment', 'an integer', 'Write a whole number without quotes, e.g. 1.');
  }
  return {
    idKey,
    param,
    reverse: options.flag('reverse', CURSOR_OPTIONS.reverse.default),
    increment: BigInt(isInt(increment) ? increment : CURSOR_OPTIONS.increment.default),
    idKeyPath: options.at('idKey'),
  };
}

export class CursorScroller implements Scroller {
  private readonly options: CursorOptions;
  private readonly logger: Logger;
  private max: bigint | null = null;
  private min: bigint | null = null;

  constructor(options: CursorOptions, logger: Logger) {
    this.options = options;
    this.logger = logger;
  }

  firstRequest(job: JobInstance) {
    return jobRequest(job);
  }

  nextRequest(job: JobInstance, _response: Value, records: readonly Value[]) {
    if (records.length === 0) {
      this.logger.info('No data in response, stopping scrolling.');
      this.reset();
      return null;
    }
    for (const record of records) {
      const value = lookup(this.options.idKey, record, '.');
      if (!isNumeric(value)) {
        throw new UserError(`Cursor value '${pjsonOrFalse(value, 'shortest') || ''}' is not numeric.`, {
          configPath: this.options.idKeyPath,
          context: { idKey: this.options.idKey },
        });
      }
      const id = phpIntvalBig(value);
      if (this.max === null || id > this.max) this.max = id;
      if (this.min === null || id < this.min) this.min = id;
    }
    const cursor = (this.options.reverse ? this.min! : this.max!) + this.options.increment;
    // The parameter is set on the job instance permanently (all its later pages).
    job.params = replaceParams(job.params, [[this.options.param, phpInt(cursor)]]);
    return jobRequest(job);
  }

  reset(): void {
    this.max = null;
    this.min = null;
  }

  forChild(): Scroller {
    return new CursorScroller(this.options, this.logger);
  }
}

registerPaginationMethod({
  method: 'cursor',
  description: 'Sends the highest (or lowest) record id seen so far, plus an increment, as a job parameter; stops on an empty page.',
  options: CURSOR_OPTIONS,
  required: ['idKey', 'param'],
  example: {
    pagination: { method: 'cursor', idKey: 'id', param: 'since_id' },
    sends: '`users`, then `users?since_id=<highest id of the page>` until a page is empty.',
  },
  create: ({ config, logger, path }) => new CursorScroller(cursorOptions(new OptionReader(config, path)), logger),
});
