/**
 * Runs the jobs of one configuration (spec 03 §3, §4, §7): pages in order, each page output
 * then its child jobs depth-first, then the next page.
 */
import { UserError } from '../errors/UserError.ts';
import type { JobNode, RunList } from './jobNode.ts';
import type { FunctionContext } from '../functions/index.ts';
import type { ClientResponse, HttpClient } from '../http/client.ts';
import type { PreparedRequest } from '../http/prepared.ts';
import { buildRequest, type RequestSettings, requestErrorMember } from '../http/request.ts';
import { interpretResponse, releaseBody } from '../http/response.ts';
import { phpString } from '../php/stringConversion.ts';
import { sameValue } from '../php/equality.ts';
import type { PhpArray, Value } from '../php/value.ts';
import type { Logger } from '../logging/logger.ts';
import { applyResponseFilter, FilterEdits } from '../mapping/responseFilter.ts';
import type { RecordSink } from '../mapping/recordSink.ts';
import { createScroller } from '../pagination/index.ts';
import type { JobInstance, Scroller } from '../pagination/scroller.ts';
import { evaluateParams, evaluateUserData } from './evaluation.ts';
import { bindingColumns, bindingCombinations, substituteEndpoint, type Binding } from './placeholders.ts';
import { createProgressLog, type ProgressHook } from './progress.ts';
import { extractRecords, recordsAt } from './records.ts';
import { Prefetcher, type Prefetch, type Speculation } from './prefetch.ts';
import { PagesAhead, prefetchCount } from './pagePrefetch.ts';
import { parseRecursionFilter } from './recursionFilter.ts';
import { EmptyJobHints, identicalPageWarning } from './hints.ts';
import type { RunStats } from '../logging/runStats.ts';

/**
 * What the page loop reads of the API description: config/api.ts builds it (its `ApiDescription`
 * has these members), the loop only reads them.
 */
export interface PageLoopApi {
  /** `api.pagination` as configured: every job's scroller and its prefetch read it. */
  pagination: Value | undefined;
  /** `api.http.ignoreErrors`: the statuses whose responses are read as data, not failed. */
  ignoreErrors: readonly Value[];
}

export interface RunnerContext {
  /** The top-level jobs as the loop runs them, parsed once (jobNode.ts). */
  jobs: RunList;
  /** `config.userData` as configured. */
  userData: Value | undefined;
  api: PageLoopApi;
  client: HttpClient;
  settings: RequestSettings;
  sink: RecordSink;
  logger: Logger;
  functions: FunctionContext;
  compatLevel: number;
  nowMs: () => number;
  /** Called after every output page; defaults to INFO progress lines at most every 5 seconds. */
  progress?: ProgressHook;
  /** Counters of the end-of-run summary (pages). */
  stats?: RunStats;
  /** A test read: each job instance (children included) stops after so many pages or records. */
  limits?: RunLimits;
  /**
   * Where a top-level key of `config` is configured (`parameters.iterations[1].jobs` when an
   * iteration replaced it): job paths in messages name the place the job really came from.
   */
  pathOf?: (key: string) => string;
}

export interface RunLimits {
  maxPages?: number;
  maxRecords?: number;
}

/** The jobs of a list as the loop runs them; a list whose planning failed fails here, when the loop reaches it (03 §1.3). */
function jobsOf(list: RunList): JobNode[] {
  if (list.failure !== undefined) throw list.failure;
  return list.jobs;
}

export function withJobPath<T>(path: string, build: () => T): T {
  try {
    return build();
  } catch (e) {
    const name = requestErrorMember(e);
    if (name !== undefined)
      throw new UserError((e as UserError).message, { configPath: `${path}.${name}`, context: (e as UserError).context, cause: e });
    throw e;
  }
}

interface InstanceRun {
  job: JobNode;
  /** Config path of the job (`parameters.config.jobs[0].children[1]`). */
  path: string;
  scroller: Scroller;
  bindings: Binding[];
  /** Ancestor records, the top-level job's record first. */
  chain: Value[];
  root: boolean;
  /** Endpoint of the top-level job (progress lines). */
  topEndpoint: string;
  /**
   * Position of the instance in the sequential order: `[job]` for a top-level job,
   * parent order + `[page, step]` for a child; its page `p` is order + `[p]`.
   */
  order: number[];
}

/** What a job instance computes once before its first request (03 §3.1). */
interface Setup {
  instance: JobInstance;
  dataType: string;
  parentColumns: Map<string, Value>;
  shownEndpoint: string;
}

/** One step of a page's child jobs, in sequential order (03 §4.2). */
type ChildStep =
  | { kind: 'warning'; message: string }
  | {
      kind: 'instance';
      run: InstanceRun;
      /** A fresh scroller copy for speculating the first request (the real one is shared by the record's combinations). */
      fresh: () => Scroller;
      /** Not the first binding combination of its record (its scroller may carry state, §5.5). */
      later: boolean;
    };

export class JobRunner {
  private readonly ctx: RunnerContext;
  private readonly progress: ProgressHook;
  /** Sends the first requests of upcoming child instances ahead of their turn. */
  private readonly prefetcher: Prefetcher;
  /** Pages fetched ahead by running instances (dropped if the run fails). */
  private readonly pagesAheadLive = new Set<PagesAhead>();
  /** Jobs that wrote no rows although their responses held records elsewhere. */
  private readonly hints = new EmptyJobHints();

  constructor(ctx: RunnerContext) {
    this.ctx = ctx;
    this.progress = ctx.progress ?? createProgressLog(ctx.logger, ctx.nowMs);
    this.prefetcher = new Prefetcher(ctx.client, ctx.logger, ctx.api.pagination);
  }

  private pathOf(key: string): string {
    return this.ctx.pathOf?.(key) ?? `parameters.config.${key}`;
  }

  async run(): Promise<void> {
    try {
      let position = 0;
      for (const job of jobsOf(this.ctx.jobs)) {
        const scroller = createScroller(this.ctx.api.pagination, this.ctx.logger, this.ctx.nowMs);
        const endpoint = job.endpointValue;
        await this.runInstance({
          job,
          path: job.path,
          scroller,
          bindings: [],
          chain: [],
          root: true,
          topEndpoint: typeof endpoint === 'string' ? endpoint : '',
          order: [position++],
        });
      }
      this.hints.report(this.ctx.logger);
    } finally {
      this.prefetcher.end();
      for (const ahead of this.pagesAheadLive) ahead.discard();
    }
  }

  private setup(run: InstanceRun): Setup {
    const { job, path } = run;
    const template = job.endpointValue;
    const endpoint = typeof template === 'string' ? substituteEndpoint(template, run.bindings) : template;
    const { dataType } = job;
    const { secrets } = this.ctx.logger;
    const params = evaluateParams(job.params, this.ctx.functions, this.ctx.nowMs, `${path}.params`, secrets);
    const userDataPath = job.userData !== undefined ? `${path}.userData` : this.pathOf('userData');
    const parentColumns = evaluateUserData(
      this.ctx.userData,
      job.userData,
      run.root,
      this.ctx.functions,
      this.ctx.nowMs,
      userDataPath,
      secrets,
    );
    for (const [k, v] of bindingColumns(run.bindings)) parentColumns.set(k, v);
    const instance: JobInstance = { config: job.config, endpoint: endpoint as string, params, path };
    return { instance, dataType, parentColumns, shownEndpoint: typeof endpoint === 'string' ? endpoint : '' };
  }

  /** The request as sent; its building errors point at the job's configuration. */
  private prepare(path: string, description: PhpArray): PreparedRequest {
    return withJobPath(path, () => buildRequest(description, this.ctx.settings));
  }

  private async runInstance(run: InstanceRun, prefetch?: Prefetch<Setup>): Promise<void> {
    const { logger } = this.ctx;
    const { job, scroller, path } = run;
    const setup = prefetch === undefined ? this.setup(run) : prefetch.setup();
    const { instance, dataType, parentColumns, shownEndpoint } = setup;

    let request = scroller.firstRequest(instance);
    // The prefetched response stands for the first request only if that is what was sent.
    let early = prefetch?.sentAs(request) ? prefetch : undefined;
    let previous: Value | undefined;
    // What the response filter replaced in `previous`: undone while the next response is compared
    // with it, since the reference compares the responses as decoded (§3.1.1, issue 33).
    let previousEdits = new FilterEdits();
    let previousRequest: PhpArray | undefined;
    let previousRecords: Value[] = [];
    let page = 0;
    const template = job.endpointText;
    // The current request repeats the one before it (the scroller did not move).
    let repeated = false;
    let recordCount = 0;
    const { maxPages, maxRecords } = this.ctx.limits ?? {};
    const ahead = this.pagesAhead(run, instance, maxPages);
    while (request !== null) {
      const description = request;
      let response: ClientResponse;
      if (early !== undefined) {
        const sent = early;
        early = undefined;
        ahead?.fill(page);
        response = await sent.take();
      } else {
        response = await this.sendPage(path, description, [...run.order, page], ahead, page);
      }
      // The page's bytes are freed once they are text; an ignored error status's, once decoded.
      const value = interpretResponse(response, this.ctx.api.ignoreErrors, logger, recordsAt(job.dataField), true);
      releaseBody(response);
      if (previous !== undefined && previousEdits.whileUndone(() => sameValue(previous!, value))) {
        logger.debug(`Job '${job.identity!}' finished when last response matched the previous!`);
        if (page === 1 && previousRecords.length > 0 && previousRequest !== undefined) {
          identicalPageWarning(logger, { endpoint: template, path }, previousRequest, description, this.ctx.api.pagination, true);
        }
        scroller.reset();
        break;
      }
      let records = extractRecords(value, job.dataField, shownEndpoint, logger, path);
      const edits = new FilterEdits();
      records = applyResponseFilter(records, job.responseFilter, job.responseFilterDelimiter, this.ctx.compatLevel, edits);
      if (maxRecords !== undefined && recordCount + records.length > maxRecords) records = records.slice(0, maxRecords - recordCount);
      recordCount += records.length;
      // The same records again while the response differs (a timestamp, a request id): the API
      // likely ignores the paging parameter and the reference pages on, maybe forever.
      if (page === 1 && records.length > 0 && previousRequest !== undefined && sameValue(records, previousRecords)) {
        identicalPageWarning(logger, { endpoint: template, path }, previousRequest, description, this.ctx.api.pagination, false);
      }
      this.ctx.sink.addBatch(records, dataType, new Map(parentColumns));
      if (this.ctx.stats) this.ctx.stats.pages++;
      this.hints.page({ path, endpoint: template, dataField: job.dataField }, value, records.length);
      this.progress({ pages: 1, records: records.length, job: run.topEndpoint });
      await this.runChildren(run, records, [...run.order, page]);
      previous = value;
      previousEdits = edits;
      previousRequest = description;
      previousRecords = records;
      // A test read stops the instance here; the scroller is not consulted (nothing more is sent).
      if ((maxPages !== undefined && page + 1 >= maxPages) || (maxRecords !== undefined && recordCount >= maxRecords)) break;
      const next = scroller.nextRequest(instance, value, records);
      const repeats = next !== null && sameValue(next, description);
      if (repeats && repeated) {
        // The reference sends a repeated request (a cursor that did not move) and normally stops
        // on the identical response (§3.1.1), so we send it once too (issue 22). When the answer
        // differed and the request would go out a third time, the reference never ends: we stop.
        logger.warning(
          `Pagination of job '${shownEndpoint}' stopped: the next page request would be identical to the previous one (${phpString(next.get('endpoint') ?? null)}); stopping to avoid an endless loop.`,
          { configPath: 'parameters.api.pagination' },
        );
        scroller.reset();
        break;
      }
      repeated = repeats;
      request = next;
      page++;
    }
    this.endPagesAhead(ahead, shownEndpoint);
  }

  /** Pages fetched ahead for this instance, when `prefetch` asks for it and the scroller can tell the next requests. */
  private pagesAhead(run: InstanceRun, instance: JobInstance, maxPages: number | undefined): PagesAhead | undefined {
    const count = prefetchCount(run.job.prefetch, this.ctx.api.pagination, run.path);
    const { scroller } = run;
    if (count === 0 || this.ctx.client.concurrency <= 1 || scroller.peek === undefined) return undefined;
    const ahead = new PagesAhead(this.ctx.client, this.ctx.logger, count, {
      peek: (k) => scroller.peek!(instance, k),
      build: (description) => this.prepare(run.path, description),
      order: (page) => [...run.order, page],
      ...(maxPages !== undefined ? { maxPages } : {}),
    });
    this.pagesAheadLive.add(ahead);
    return ahead;
  }

  /** The page's response: taken from the pages fetched ahead, or sent now; then the pages after it are requested ahead. */
  private async sendPage(
    path: string,
    description: PhpArray,
    order: readonly number[],
    ahead: PagesAhead | undefined,
    page: number,
  ): Promise<ClientResponse> {
    const fetched = ahead === undefined ? undefined : await ahead.take(page, description);
    if (fetched !== undefined) {
      ahead!.fill(page);
      return fetched;
    }
    const sending = this.ctx.client.send(this.prepare(path, description), true, { order });
    ahead?.fill(page);
    return sending;
  }

  /** The instance ended: pages still ahead are past its last page and dropped unparsed. */
  private endPagesAhead(ahead: PagesAhead | undefined, shownEndpoint: string): void {
    if (ahead === undefined) return;
    this.pagesAheadLive.delete(ahead);
    const unused = ahead.discard();
    if (unused > 0) {
      this.ctx.logger.debug(
        `Job '${shownEndpoint}': ${unused} page request(s) sent ahead were not used (past the last page); dropped unparsed.`,
      );
    }
  }

  /** What the prefetcher needs of a child step to send its first request ahead; none for a warning. */
  private speculation(step: ChildStep): Speculation<Setup> | undefined {
    if (step.kind !== 'instance') return undefined;
    const { run, fresh, later } = step;
    return {
      setup: () => this.setup(run),
      firstRequest: (setup) => fresh().firstRequest({ ...setup.instance }),
      build: (description) => this.prepare(run.path, description),
      order: [...run.order, 0],
      later,
    };
  }

  /**
   * The child job instances of one page, in the order of §4.2. With concurrency, the steps ahead
   * of the current one are generated early (errors met doing so are kept as a step of their own)
   * and their first requests prefetched; each step still takes effect in sequential order.
   */
  private async runChildren(parent: InstanceRun, records: Value[], pageOrder: readonly number[]): Promise<void> {
    if (parent.job.run.jobs.length === 0 && parent.job.run.failure === undefined) return;
    const steps = this.childSteps(parent, records, pageOrder);
    for (const [step, prefetch] of this.prefetcher.ahead(steps, (s) => this.speculation(s))) {
      if (step.kind === 'warning') this.ctx.logger.warning(step.message);
      else await this.runInstance(step.run, prefetch);
    }
  }

  /** The steps of §4.2, generated lazily: a sequential run advances it one step at a time. */
  private *childSteps(parent: InstanceRun, records: Value[], pageOrder: readonly number[]): Generator<ChildStep> {
    let position = 0;
    for (const child of jobsOf(parent.job.run)) {
      const { path } = child;
      // Parsed once per parent page, even when the page has no records (§4.2).
      const filter =
        child.recursionFilter === undefined ? undefined : parseRecursionFilter(child.recursionFilter, `${path}.recursionFilter`);
      const placeholders = child.placeholderSpecs;
      for (const record of records) {
        if (filter && !filter(record)) continue;
        const chain = [...parent.chain, record];
        if (child.placeholdersEmpty) {
          position++;
          yield { kind: 'warning', message: `No 'placeholders' set for '${child.endpointText}'` };
        }
        const combos = bindingCombinations(placeholders, chain, parent.bindings, `${path}.placeholders`);
        // One reset copy per (child configuration, record), shared by all its binding sets (§5.5).
        const scroller = parent.scroller.forChild(child.config);
        const fresh = (): Scroller => parent.scroller.forChild(child.config);
        let later = false;
        for (const bindings of combos) {
          const order = [...pageOrder, position++];
          yield {
            kind: 'instance',
            run: { job: child, path, scroller, bindings, chain, root: false, topEndpoint: parent.topEndpoint, order },
            fresh,
            later,
          };
          later = true;
        }
      }
    }
  }
}
