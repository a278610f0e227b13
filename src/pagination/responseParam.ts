/**
 * `response.param` pagination (spec 03 §5.3.5): a value from the response is sent as a
 * parameter of the next request, optionally to another endpoint (`scrollRequest`).
 */
import { UserError } from '../errors/UserError.ts';
import { replaceRecursive } from '../http/request.ts';
import { lookup } from '../php/pathLookup.ts';
import { isEmpty, PhpArray, type Value } from '../php/value.ts';
import type { Logger } from '../logging/logger.ts';
import type { SchemaNode } from '../spec/schemaNode.ts';
import { flagOption, strictType } from './optionNodes.ts';
import { OptionReader } from './options.ts';
import { registerPaginationMethod } from './registry.ts';
import { jobRequest, paramsMap, type JobInstance, type Scroller } from './scroller.ts';

/** The options' schema nodes; the parser below takes its defaults from them. */
const RESPONSE_PARAM_OPTIONS = {
  responseParam: {
    type: 'string',
    description: 'Required. Path (delimiter `.`) of the value in the response.',
    examples: ['meta.next_token'],
    ...strictType,
  },
  queryParam: {
    type: 'string',
    description: 'Required. Name of the parameter that carries the value.',
    examples: ['token'],
    ...strictType,
  },
  includeParams: flagOption('Send the job parameters with every next page.', false),
  scrollRequest: {
    type: 'object',
    description: 'Job-like object (`endpoint`, `method`, `params`) merged into the next-page requests.',
    examples: [{ endpoint: 'scroll', method: 'POST' }],
  },
} as const satisfies Record<string, SchemaNode>;

export interface ResponseParamOptions {
  responseParam: string;
  queryParam: string;
  includeParams: boolean;
  scrollRequest: PhpArray | Value[] | null;
}

export function responseParamOptions(options: OptionReader): ResponseParamOptions {
  const responseParam = options.strictString('responseParam');
  if (responseParam === undefined) {
    throw new UserError("Missing required 'pagination.responseParam' parameter.", { configPath: options.at('responseParam') });
  }
  const queryParam = options.strictString('queryParam');
  if (queryParam === undefined) {
    throw new UserError("Missing required 'pagination.queryParam' parameter.", { configPath: options.at('queryParam') });
  }
  const scrollRequest = options.get('scrollRequest');
  let request: PhpArray | Value[] | null = null;
  if (!isEmpty(scrollRequest)) {
    if (!(scrollRequest instanceof PhpArray || Array.isArray(scrollRequest))) {
      throw new UserError("'pagination.scrollRequest' must be a job-like array.", { configPath: options.at('scrollRequest') });
    }
    request = scrollRequest;
  }
  return {
    responseParam,
    queryParam,
    includeParams: options.flag('includeParams', RESPONSE_PARAM_OPTIONS.includeParams.default),
    scrollRequest: request,
  };
}

export class ResponseParamScroller implements Scroller {
  private readonly options: ResponseParamOptions;
  private readonly logger: Logger;

  constructor(options: ResponseParamOptions, logger: Logger) {
    this.options = options;
    this.logger = logger;
  }

  firstRequest(job: JobInstance) {
    return jobRequest(job);
  }

  nextRequest(job: JobInstance, response: Value) {
    const next = lookup(this.options.responseParam, response, '.');
    if (isEmpty(next)) {
      this.logger.info('No more pages found, stopping pagination.');
      return null;
    }
    let config: PhpArray = jobRequest(job);
    if (!this.options.includeParams) config.set('params', []);
    if (this.options.scrollRequest !== null) {
      const merged = replaceRecursive(config, this.options.scrollRequest);
      config = merged instanceof PhpArray ? merged : paramsMap(merged);
    }
    const params = paramsMap(config.get('params'));
    params.set(this.options.queryParam, next);
    config.set('params', params);
    return config;
  }

  reset(): void {}

  forChild(): Scroller {
    return new ResponseParamScroller(this.options, this.logger);
  }
}

registerPaginationMethod({
  method: 'response.param',
  description: 'Sends a value found in each response as a parameter of the next request, until that value is empty.',
  options: RESPONSE_PARAM_OPTIONS,
  required: ['responseParam', 'queryParam'],
  example: {
    pagination: { method: 'response.param', responseParam: 'meta.next_token', queryParam: 'token' },
    sends: '`users`, then `users?token=<meta.next_token of the previous response>` until that value is empty.',
  },
  create: ({ config, logger, path }) => new ResponseParamScroller(responseParamOptions(new OptionReader(config, path)), logger),
});
