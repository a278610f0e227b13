/**
 * `response.url` pagination (spec 03 §5.3.4): follow a next-page link found in the response.
 * Relative links resolve against `api.baseUrl` like any endpoint (the HTTP layer does that).
 */
import { ApplicationError } from '../errors/ApplicationError.ts';
import { UserError } from '../errors/UserError.ts';
import { parseQueryParamIsQuery } from '../php/guzzleQuery.ts';
import { lookup } from '../php/pathLookup.ts';
import { phpString } from '../php/stringConversion.ts';
import { isEmpty, phpType, type PhpArray, type Value } from '../php/value.ts';
import type { Logger } from '../logging/logger.ts';
import { OptionReader } from './options.ts';
import { registerPaginationMethod } from './registry.ts';
import { replaceParams, requestWithParams, type JobInstance, type Scroller } from './scroller.ts';

export interface ResponseUrlOptions {
  urlKey: string;
  delimiter: string;
  includeParams: boolean;
  paramIsQuery: boolean;
}

export function responseUrlOptions(options: OptionReader, withDelimiter: boolean): ResponseUrlOptions {
  let delimiter = '.';
  const d = options.get('delimiter');
  if (withDelimiter && d !== undefined && d !== null) {
    if (typeof d !== 'string' || d === '') {
      throw new ApplicationError(`Option '${options.at('delimiter')}' must be a non-empty string, ${phpType(d)} given.`, {
        context: { configPath: options.at('delimiter') },
      });
    }
    delimiter = d;
  }
  return {
    urlKey: options.strictString('urlKey', 'next_page')!,
    delimiter,
    includeParams: options.flag('includeParams', false),
    paramIsQuery: options.flag('paramIsQuery', false),
  };
}

/** The next request for a link `link` (not empty), shared with `zendesk.response.url`. */
export function followLink(options: ResponseUrlOptions, job: JobInstance, link: Value): PhpArray {
  const base: Value = options.includeParams ? job.params : [];
  if (!options.paramIsQuery) {
    if (typeof link !== 'string') {
      throw new UserError('The "endpoint" property must be specified in request as a string.', {
        context: { link: phpType(link) },
      });
    }
    return requestWithParams(job, base, link);
  }
  const query = parseQueryParamIsQuery(phpString(link));
  return requestWithParams(job, replaceParams(base, query), job.endpoint);
}

export class ResponseUrlScroller implements Scroller {
  private readonly options: ResponseUrlOptions;
  private readonly logger: Logger;

  constructor(options: ResponseUrlOptions, logger: Logger) {
    this.options = options;
    this.logger = logger;
  }

  firstRequest(job: JobInstance) {
    return requestWithParams(job, job.params);
  }

  nextRequest(job: JobInstance, response: Value) {
    const link = lookup(this.options.urlKey, response, this.options.delimiter);
    if (isEmpty(link)) {
      this.logger.info('No more pages, stopping pagination.');
      return null;
    }
    return followLink(this.options, job, link);
  }

  reset(): void {}

  forChild(): Scroller {
    return new ResponseUrlScroller(this.options, this.logger);
  }
}

registerPaginationMethod({
  method: 'response.url',
  description: 'Follows a next-page link found in each response until it is empty or missing.',
  options: {
    urlKey: 'Path of the link in the response. Default `next_page`.',
    delimiter: 'Path delimiter for `urlKey`. Default `.`.',
    includeParams: "Send the job parameters with every next page (they override the link's own query parameters). Default false.",
    paramIsQuery: "The link is a query string: its parameters are sent to the job's endpoint. Default false.",
  },
  example: {
    pagination: { method: 'response.url', urlKey: 'links.next' },
    sends:
      '`users`, then the URL found at `links.next` in each response (relative links resolve against `api.baseUrl`) until it is empty or missing.',
  },
  create: ({ config, logger, path }) => new ResponseUrlScroller(responseUrlOptions(new OptionReader(config, path), true), logger),
});
