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
import type { RecordSink } from '../mapping/recordSink.ts';
import { createScroller } from '../pagination/index.ts';
import type { Scroller } from '../pagination/scroller.ts';
import { evaluateParams, evaluateUserData } from './evaluation.ts';
import { bindingColumns, bindingCombinations, substituteEndpoint, type Binding } from './placeholders.ts';
import { dedupeJobs, jobIdentity } from './plan.ts';
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
  progress?: (event: { pages: number; records: number }) => void;
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

export class JobRunner {
  private readonly ctx: RunnerContext;

  constructor(ctx: RunnerContext) {
    this.ctx = ctx;
  }

  async run(): Promise<void> {
    for (const job of dedupeJobs(this.ctx.config.get('jobs'))) {
      const scroller = createScroller(this.ctx.api.pagination, this.ctx.logger, this.ctx.nowMs);
      await this.runInstance(job, scroller, [], [], true);
    }
  }

  private async runInstance(job: PhpArray, scroller: Scroller, bindings: Binding[], chain: Value[], root: boolean): Promise<void> {
    const { logger } = this.ctx;
    const template = job.get('endpoint');
    const endpoint = typeof template === 'string' ? substituteEndpoint(template, bindings) : template;
    const dataType = isEmpty(job.get('dataType')) ? phpString(typeof template === 'string' ? template : null) : phpString(job.get('dataType')!);
    const params = evaluateParams(job.get('params'), this.ctx.functions, this.ctx.nowMs);
    const parentColumns = evaluateUserData(this.ctx.config.get('userData'), job.get('userData'), root, this.ctx.functions, this.ctx.nowMs);
    for (const [k, v] of bindingColumns(bindings)) parentColumns.set(k, v);
    const instance = { config: job, endpoint: endpoint as string, params };
    const shownEndpoint = typeof endpoint === 'string' ? endpoint : '';

    let request = scroller.firstRequest(instance);
    let previous: Value | undefined;
    while (request !== null) {
      const prepared = buildRequest(request, this.ctx.settings);
      const response = await this.ctx.client.send(prepared);
      const value = interpretResponse(response, this.ctx.api.ignoreErrors, logger);
      if (previous !== undefined && sameValue(previous, value)) {
        logger.debug(`Job '${jobIdentity(job)}' finished when last response matched the previous!`);
        scroller.reset();
        break;
      }
      let records = extractRecords(value, job.get('dataField'), shownEndpoint, logger);
      records = applyResponseFilter(records, job.get('responseFilter') ?? null, job.get('responseFilterDelimiter') ?? null, this.ctx.compatLevel);
      this.ctx.sink.addBatch(records, dataType, new Map(parentColumns));
      this.ctx.progress?.({ pages: 1, records: records.length });
      await this.runChildren(job, records, scroller, bindings, chain);
      previous = value;
      request = scroller.nextRequest(instance, value, records);
    }
  }

  private async runChildren(job: PhpArray, records: Value[], parentScroller: Scroller, bindings: Binding[], chain: Value[]): Promise<void> {
    const children = job.get('children');
    if (isEmpty(children)) return;
    for (const child of dedupeJobs(children)) {
      const filterText = child.get('recursionFilter');
      const filter = typeof filterText === 'string' && filterText !== '' && filterText !== '0' ? parseRecursionFilter(filterText) : undefined;
      const placeholders = child.get('placeholders');
      for (const record of records) {
        if (filter && !filter(record)) continue;
        const childChain = [...chain, record];
        const combos = bindingCombinations(placeholders, childChain, bindings);
        if (isEmpty(placeholders)) this.ctx.logger.warning(`No 'placeholders' set for '${phpString(child.get('endpoint') ?? null)}'`);
        const scroller = parentScroller.forChild(child);
        for (const combo of combos) await this.runInstance(child, scroller, combo, childChain, false);
      }
    }
  }
}

export function compatLevelOf(config: PhpArray): number {
  const v = config.get('compatLevel');
  if (isEmpty(v)) return 3;
  const n = typeof v === 'number' ? v : typeof v === 'bigint' ? Number(v) : v instanceof PhpFloat ? Math.trunc(v.value) : parseInt(phpString(v!), 10);
  if (!Number.isFinite(n)) throw new UserError('compatLevel must be an integer.', { configPath: 'parameters.config.compatLevel' });
  return n === 0 ? 3 : n;
}
