/**
 * Runs the jobs of one configuration (spec 03 §3, §4, §7): pages in order, each page output
 * then its child jobs depth-first, then the next page.
 */
import { UserError } from '../errors/UserError.ts';
import type { ApiDescription } from '../config/api.ts';
import type { FunctionContext } from '../functions/index.ts';
import type { HttpClient } from '../http/client.ts';
import { buildRequest, type RequestSettings } from '../http/request.ts';
import { interpretResponse } from '../http/response.ts';
import { phpString } from '../json/numbers.ts';
import { isEmpty, PhpArray, PhpFloat, type Value } from '../json/value.ts';
import type { Logger } from '../logging/logger.ts';
import { applyResponseFilter } from '../mapping/responseFilter.ts';
import { effectiveCompatLevel } from '../mapping/auto/index.ts';
import type { RecordSink } from '../mapping/recordSink.ts';
import { createScroller } from '../pagination/index.ts';
import type { JobInstance, Scroller } from '../pagination/scroller.ts';
import { evaluateParams, evaluateUserData } from './evaluation.ts';
import { bindingColumns, bindingCombinations, substituteEndpoint, type Binding } from './placeholders.ts';
import { jobIdentity, planJobs } from './plan.ts';
import { createProgressLog, type ProgressHook } from './progress.ts';
import { extractRecords } from './records.ts';
import { parseRecursionFilter } from './recursionFilter.ts';

export interface RunnerContext {
  config: PhpArray;
  api: ApiDescription;
  client: HttpClient;
  settings: RequestSettings;
  sink: RecordSink;
  logger: Logger;
  functions: FunctionContext;
  compatLevel: number;
  nowMs: () => number;
  /** Called after every output page; defaults to INFO progress lines at most every 5 seconds. */
  progress?: ProgressHook;
}

/** Decoded values identical in structure, order, values and types (03 §3.1.1). */
export function sameValue(a: Value, b: Value): boolean {
  if (a === b) return true;
  if (a instanceof PhpFloat) return b instanceof PhpFloat && (a.value === b.value || (Number.isNaN(a.value) && Number.isNaN(b.value)));
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((x, i) => sameValue(x, b[i]!));
  if (a instanceof Map) {
    if (!(b instanceof Map) || a.constructor !== b.constructor || a.size !== b.size) return false;
    const bi = b.entries();
    for (const [k, v] of a) {
      const next = bi.next().value as [string, Value];
      if (next[0] !== k || !sameValue(v, next[1])) return false;
    }
    return true;
  }
  return false;
}

/** Where a request-building error points in the job's configuration. */
const REQUEST_ERROR_MEMBERS: [string, string][] = [
  ['The "method" property', 'method'],
  ['The "params" property', 'params'],
  ['The "headers" property', 'headers'],
];

function withJobPath<T>(path: string, build: () => T): T {
  try {
    return build();
  } catch (e) {
    if (e instanceof UserError && e.configPath === undefined) {
      const hit = REQUEST_ERROR_MEMBERS.find(([prefix]) => e.message.startsWith(prefix));
      if (hit) throw new UserError(e.message, { configPath: `${path}.${hit[1]}`, context: e.context, cause: e });
    }
    throw e;
  }
}

interface InstanceRun {
  job: PhpArray;
  /** Config path of the job (`parameters.config.jobs[0].children[1]`). */
  path: string;
  scroller: Scroller;
  bindings: Binding[];
  /** Ancestor records, the top-level job's record first. */
  chain: Value[];
  root: boolean;
  /** Endpoint of the top-level job (progress lines). */
  topEndpoint: string;
}

export class JobRunner {
  private readonly ctx: RunnerContext;
  private readonly progress: ProgressHook;

  constructor(ctx: RunnerContext) {
    this.ctx = ctx;
    this.progress = ctx.progress ?? createProgressLog(ctx.logger, ctx.nowMs);
  }

  async run(): Promise<void> {
    for (const { job, index } of planJobs(this.ctx.config.get('jobs'))) {
      const scroller = createScroller(this.ctx.api.pagination, this.ctx.logger, this.ctx.nowMs);
      const endpoint = job.get('endpoint');
      await this.runInstance({
        job,
        path: `parameters.config.jobs[${index}]`,
        scroller,
        bindings: [],
        chain: [],
        root: true,
        topEndpoint: typeof endpoint === 'string' ? endpoint : '',
      });
    }
  }

  private async runInstance(run: InstanceRun): Promise<void> {
    const { logger } = this.ctx;
    const { job, scroller, path } = run;
    const template = job.get('endpoint');
    const endpoint = typeof template === 'string' ? substituteEndpoint(template, run.bindings) : template;
    const dataType = isEmpty(job.get('dataType')) ? phpString(typeof template === 'string' ? template : null) : phpString(job.get('dataType')!);
    const params = evaluateParams(job.get('params'), this.ctx.functions, this.ctx.nowMs);
    const parentColumns = evaluateUserData(this.ctx.config.get('userData'), job.get('userData'), run.root, this.ctx.functions, this.ctx.nowMs);
    for (const [k, v] of bindingColumns(run.bindings)) parentColumns.set(k, v);
    const instance: JobInstance = { config: job, endpoint: endpoint as string, params, path };
    const shownEndpoint = typeof endpoint === 'string' ? endpoint : '';

    let request = scroller.firstRequest(instance);
    let previous: Value | undefined;
    while (request !== null) {
      const description = request;
      const prepared = withJobPath(path, () => buildRequest(description, this.ctx.settings));
      const response = await this.ctx.client.send(prepared);
      const value = interpretResponse(response, this.ctx.api.ignoreErrors, logger);
      if (previous !== undefined && sameValue(previous, value)) {
        logger.debug(`Job '${jobIdentity(job)}' finished when last response matched the previous!`);
        scroller.reset();
        break;
      }
      let records = extractRecords(value, job.get('dataField'), shownEndpoint, logger, path);
      records = applyResponseFilter(records, job.get('responseFilter') ?? null, job.get('responseFilterDelimiter') ?? null, this.ctx.compatLevel);
      this.ctx.sink.addBatch(records, dataType, new Map(parentColumns));
      this.progress({ pages: 1, records: records.length, job: run.topEndpoint });
      await this.runChildren(run, records);
      previous = value;
      const next = scroller.nextRequest(instance, value, records);
      if (next !== null && sameValue(next, description)) {
        // Beyond the reference: the same request again would return the same page (which the
        // reference then drops by the same-response stop) or loop forever on a changing API.
        logger.warning(
          `Pagination of job '${shownEndpoint}' stopped: the next page request would be identical to the previous one (${phpString(next.get('endpoint') ?? null)}); stopping to avoid an endless loop.`,
          { configPath: 'parameters.api.pagination' },
        );
        scroller.reset();
        break;
      }
      request = next;
    }
  }

  private async runChildren(parent: InstanceRun, records: Value[]): Promise<void> {
    const children = parent.job.get('children');
    if (isEmpty(children)) return;
    for (const { job: child, index } of planJobs(children)) {
      const path = `${parent.path}.children[${index}]`;
      const filterText = child.get('recursionFilter');
      // Parsed once per parent page, even when the page has no records (§4.2).
      const filter = isEmpty(filterText) ? undefined : parseRecursionFilter(phpString(filterText!), `${path}.recursionFilter`);
      const placeholders = child.get('placeholders');
      for (const record of records) {
        if (filter && !filter(record)) continue;
        const chain = [...parent.chain, record];
        if (isEmpty(placeholders)) this.ctx.logger.warning(`No 'placeholders' set for '${phpString(child.get('endpoint') ?? null)}'`);
        const combos = bindingCombinations(placeholders, chain, parent.bindings, `${path}.placeholders`);
        // One reset copy per (child configuration, record), shared by all its binding sets (§5.5).
        const scroller = parent.scroller.forChild(child);
        for (const bindings of combos) {
          await this.runInstance({ job: child, path, scroller, bindings, chain, root: false, topEndpoint: parent.topEndpoint });
        }
      }
    }
  }
}

/** `config.compatLevel` as PHP reads it: empty → 3, else `(int)`. */
export function compatLevelOf(config: PhpArray): number {
  return effectiveCompatLevel(config.get('compatLevel'));
}
