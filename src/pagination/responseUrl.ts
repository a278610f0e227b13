/**
 * `response.url` pagination (spec 03 §5.3.4): follow a next-page link found in the response.
 * Relative links resolve against `api.baseUrl` like any endpoint (the HTTP layer does that).
 */
import { UserError } from '../errors/UserError.ts';
import { parseQueryParamIsQuery } from '../php/guzzleQuery.ts';
import { lookup } from '../php/pathLookup.ts';
import { phpString } from '../php/stringConversion.ts';
import { isEmpty, phpType, type PhpArray, type Value } from '../php/value.ts';
import type { Logger } from '../logging/logger.ts';
import type { SchemaNode } from '../spec/schemaNode.ts';
import { flagOption, strictType } from './optionNodes.ts';
import { OptionReader } from './options.ts';
import { registerPaginationMethod } from './registry.ts';
import { replaceParams, requestWithParams, type JobInstance, type Scroller } from './scroller.ts';

/** The options of a next-page link, shared with `zendesk.response.url`. */
export const LINK_OPTIONS = {
  urlKey: {
    type: 'string',
    default: 'next_page',
    description: 'Path of the next-page link in the response.',
    examples: ['links.next'],
    ...strictType,
  },
  includeParams: flagOption("Send the job parameters with every next page (they override the link's own query parameters).", false),
  paramIsQuery: flagOption("The link is a query string: its parameters are sent to the job's endpoint.", false),
} as const satisfies Record<string, SchemaNode>;

/** The options' schema nodes; the parser below takes its defaults from them. */
const RESPONSE_URL_OPTIONS = {
  urlKey: LINK_OPTIONS.urlKey,
  delimiter: { type: 'string', default: '.', description: 'Path delimiter of `urlKey`.', examples: ['/'], 'x-stops': (v) => v !== null },
  includeParams: LINK_OPTIONS.includeParams,
  paramIsQuery: LINK_OPTIONS.paramIsQuery,
} as const satisfies Record<string, SchemaNode>;

export interface ResponseUrlOptions {
  urlKey: string;
  delimiter: string;
  includeParams: boolean;
  paramIsQuery: boolean;
}

export function responseUrlOptions(options: OptionReader, withDelimiter: boolean): ResponseUrlOptions {
  // `zendesk.response.url` has no delimiter option: its paths always use the default.
  let delimiter: string = RESPONSE_URL_OPTIONS.delimiter.default;
  const d = options.get('delimiter');
  if (withDelimiter && d !== undefined && d !== null) {
    if (typeof d !== 'string' || d === '') {
      throw options.wrongType(
        'delimiter',
        'a non-empty string',
        'Write the character that separates the path\'s parts in quotes, e.g. ".".',
      );
    }
    delimiter = d;
  }
  return {
    urlKey: options.strictString('urlKey', LINK_OPTIONS.urlKey.default)!,
    delimiter,
    includeParams: options.flag('includeParams', LINK_OPTIONS.includeParams.default),
    paramIsQuery: options.flag('paramIsQuery', LINK_OPTIONS.paramIsQuery.default),
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
  options: RESPONSE_URL_OPTIONS,
  example: {
    pagination: { method: 'response.url', urlKey: 'links.next' },
    sends:
      '`users`, then the URL found at `links.next` in each response (relative links resolve against `api.baseUrl`) until it is empty or missing.',
  },
  create: ({ config, logger, path }) => new ResponseUrlScroller(responseUrlOptions(new OptionReader(config, path), true), logger),
});
