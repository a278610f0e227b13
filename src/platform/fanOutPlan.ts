/**
 * Fan-out's plan (06 §7): which queue jobs to create for a configuration, or the refusal of a plan
 * that would lose data, with the configuration path, the reason and the fix.
 *   rows:       one job per enabled row (`configRowIds`), or one job with the queue's `parallelism`
 *   iterations: K contiguous slices of `parameters.iterations`, each a job with `configData`
 */
import { UserError } from '../errors/UserError.ts';
import type { ConfigurationRecord, CreateJobArgs, JobMode } from './types.ts';
import { isObject } from './transport.ts';

export interface PlannedJob {
  /** How the report names the job: `slice 2/4 (iterations 26–50)`, `row 7 "Shop A"`. */
  label: string;
  args: CreateJobArgs;
}

export interface FanOutRequest {
  component: string;
  record: ConfigurationRecord;
  force: boolean;
  branch?: string;
}

function refuse(configPath: string, message: string): never {
  throw new UserError(`${configPath}: ${message}`, { configPath });
}

function mode(request: FanOutRequest): JobMode {
  if (request.record.isDisabled !== true) return 'run';
  if (!request.force) refuse('isDisabled', `configuration ${request.record.id} is disabled; pass --force to run it anyway (mode forceRun)`);
  return 'forceRun';
}

function baseArgs(request: FanOutRequest, extra: Record<string, unknown>): CreateJobArgs {
  return {
    component: request.component,
    config: request.record.id,
    mode: mode(request),
    extra: { ...extra, ...(request.branch ? { branchId: request.branch } : {}) },
  };
}

/** One job per enabled row, in run order (`rows`, which `rowsSortOrder` sets). */
export function planRows(request: FanOutRequest, native: { parallelism: string } | undefined): PlannedJob[] {
  const rows = (request.record.rows ?? []).filter((r) => r.isDisabled !== true);
  if (rows.length === 0)
    refuse('rows', `configuration ${request.record.id} has no enabled rows to fan out; add rows, or use --fan-out iterations`);
  if (native) {
    const label = `${rows.length} rows (parallelism ${native.parallelism})`;
    return [{ label, args: baseArgs(request, { parallelism: native.parallelism }) }];
  }
  return rows.map((row) => ({
    label: `row ${row.id}${row.name ? ` "${row.name}"` : ''}`,
    args: baseArgs(request, { configRowIds: [row.id] }),
  }));
}

/** The first place that reads `time.previousStart` (`{"time": "previousStart"}`), as a configuration path. */
export function findPreviousStart(value: unknown, path: string): string | undefined {
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) {
      const found = findPreviousStart(item, `${path}[${i}]`);
      if (found) return found;
    }
    return undefined;
  }
  if (!isObject(value)) return undefined;
  if (value['time'] === 'previousStart') return path;
  for (const [key, item] of Object.entries(value)) {
    const found = findPreviousStart(item, `${path}.${key}`);
    if (found) return found;
  }
  return undefined;
}

/**
 * Slices run as jobs of their own, and Storage loads each job's tables separately: a
 * non-incremental load clears the table, so the last slice to finish would overwrite the others
 * (06 §7). Safe: every iteration incremental (an iteration's keys replace `parameters.config`'s),
 * or every iteration writing to a bucket of its own.
 */
function checkOutputs(iterations: unknown[], config: Record<string, unknown>): void {
  const effective = iterations.map((it) => ({ ...config, ...(isObject(it) ? it : {}) }));
  const buckets = effective.map((c) => c['outputBucket']);
  const ownBuckets = buckets.every((b) => typeof b === 'string' && b !== '') && new Set(buckets).size === buckets.length;
  const index = effective.findIndex((c) => c['incrementalOutput'] !== true);
  if (index === -1 || ownBuckets) return;
  refuse(
    `parameters.iterations[${index}].incrementalOutput`,
    'slices run as separate jobs and a non-incremental load clears the table, so the last slice to finish would overwrite the others; set "incrementalOutput": true in parameters.config (or in every iteration), preferably with a primary key, or give every iteration its own "outputBucket"',
  );
}

function sliceSizes(count: number, slices: number): number[] {
  const base = Math.floor(count / slices);
  return Array.from({ length: slices }, (_, i) => base + (i < count % slices ? 1 : 0));
}

/** K contiguous slices of the iterations, each run with `configData` (ciphers copied unchanged, 06 §5.2). */
export function planIterations(request: FanOutRequest, slices: number): PlannedJob[] {
  const { record } = request;
  const configuration = record.configuration;
  const parameters = isObject(configuration['parameters']) ? configuration['parameters'] : {};
  const iterations = parameters['iterations'];
  if ((record.rows ?? []).length > 0)
    refuse(
      'rows',
      `configuration ${record.id} has rows, and iteration slices run with configData, which ignores rows; use --fan-out rows, or keep the iterations in a configuration without rows`,
    );
  if (!Array.isArray(iterations) || iterations.length === 0)
    refuse('parameters.iterations', 'there are no iterations to slice; add a list of iterations, or run without --fan-out');
  const previousStart = findPreviousStart(configuration['parameters'], 'parameters');
  if (previousStart)
    refuse(
      previousStart,
      'reads time.previousStart, but configData jobs read and save no state, so every slice would start from 0 and the run would not be remembered; run without --fan-out, or use a fixed date instead',
    );
  checkOutputs(iterations, isObject(parameters['config']) ? parameters['config'] : {});
  const sizes = sliceSizes(iterations.length, Math.min(slices, iterations.length));
  let start = 0;
  return sizes.map((size, i) => {
    const slice = iterations.slice(start, start + size);
    const label = `slice ${i + 1}/${sizes.length} (iteration${size === 1 ? ` ${start + 1}` : `s ${start + 1}–${start + size}`})`;
    start += size;
    const configData = { ...configuration, parameters: { ...parameters, iterations: slice } };
    return { label, args: baseArgs(request, { configData }) };
  });
}
