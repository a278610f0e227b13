/**
 * Warnings during the run that the reference never gives (issue 18: no silent data loss): a job
 * that wrote no rows although its responses hold records elsewhere, and a second page identical
 * to the first (the API ignores the paging parameter). Each names the config path to fix.
 */
import { childPath } from '../errors/configPath.ts';
import type { DataField } from './dataField.ts';
import { isMap, type PhpArray, type Value } from '../php/value.ts';
import { lookupStrict, NOT_FOUND } from '../php/pathLookup.ts';
import { phpString } from '../php/stringConversion.ts';
import { pjsonOrFalse } from '../php/jsonEncode.ts';
import type { Logger } from '../logging/logger.ts';
import { count } from '../logging/runStats.ts';

export interface RecordArray {
  /** Path of the array in the response, `.`-separated (`data.customers`). */
  path: string;
  items: number;
}

/** How far into a response the search looks (levels, maps visited): responses can be large. */
const MAX_DEPTH = 6;
const MAX_VISITED = 2_000;

/**
 * The most likely place of the records in a response: the longest non-empty list of objects
 * (else of anything) below the root, breadth first. Undefined when there is none.
 */
export function findRecordArray(response: Value): RecordArray | undefined {
  let best: (RecordArray & { objects: boolean }) | undefined;
  let queue: [string, Value][] = [['', response]];
  let visited = 0;
  for (let depth = 0; depth < MAX_DEPTH && queue.length > 0; depth++) {
    const next: [string, Value][] = [];
    for (const [path, value] of queue) {
      if (++visited > MAX_VISITED) break;
      if (!isMap(value)) continue;
      for (const [key, child] of value) {
        const childPath = path === '' ? key : `${path}.${key}`;
        if (Array.isArray(child)) {
          if (child.length === 0) continue;
          const objects = child.some((item) => isMap(item));
          const better = best === undefined || (objects && !best.objects) || (objects === best.objects && child.length > best.items);
          if (better) best = { path: childPath, items: child.length, objects };
        } else if (isMap(child)) {
          next.push([childPath, child]);
        }
      }
    }
    queue = next;
  }
  return best === undefined ? undefined : { path: best.path, items: best.items };
}

/**
 * Per job configuration (config path): rows found over all its instances and pages, and the first
 * place records were seen in a response that gave none. Reported once per job at the end.
 */
export class EmptyJobHints {
  private readonly jobs = new Map<string, { endpoint: string; dataField: DataField; records: number; found: RecordArray | undefined }>();

  /** After each page: `records` extracted from `response` by the job at `path`. */
  page(job: { path: string; endpoint: string; dataField: DataField }, response: Value, records: number): void {
    this.add(job, response, records);
  }

  private add(
    { path, endpoint, dataField }: { path: string; endpoint: string; dataField: DataField },
    response: Value,
    records: number,
  ): void {
    let job = this.jobs.get(path);
    if (job === undefined) {
      job = { endpoint, dataField, records: 0, found: undefined };
      this.jobs.set(path, job);
    }
    job.records += records;
    // Searched only while the job has no rows yet (a job with rows needs no hint), and only when
    // the place the records are read from does not exist: an existing empty list is a real "none".
    if (records === 0 && job.records === 0 && job.found === undefined && recordsPlaceMissing(response, dataField)) {
      job.found = findRecordArray(response);
    }
  }

  /** One WARNING per job that wrote no rows while its responses held an array elsewhere. */
  report(logger: Logger): void {
    for (const [path, job] of this.jobs) {
      if (job.records > 0 || job.found === undefined) continue;
      const current = job.dataField;
      const text = current.kind === 'path' ? current.path : current.kind === 'auto' ? current.written : '';
      const shown = text === undefined ? 'no dataField is set' : `dataField is ${JSON.stringify(text)}`;
      logger.warning(
        `Job '${job.endpoint}' (${path}) wrote 0 rows, but its response holds records at \`${job.found.path}\` (${count(job.found.items)} items): ` +
          `set "dataField": ${JSON.stringify(job.found.path)} in ${path} (${shown}).`,
        { configPath: `${path}.dataField` },
      );
    }
  }
}

/** Parameter name → rendered value: the endpoint's query, then the params (which win). */
function mergedQuery(request: PhpArray): Map<string, string> {
  const out = new Map<string, string>();
  const endpoint = request.get('endpoint');
  if (typeof endpoint === 'string' && endpoint.includes('?')) {
    for (const pair of endpoint
      .slice(endpoint.indexOf('?') + 1)
      .split('#')[0]!
      .split('&')) {
      if (pair === '') continue;
      const eq = pair.indexOf('=');
      out.set(eq < 0 ? pair : pair.slice(0, eq), eq < 0 ? '' : pair.slice(eq + 1));
    }
  }
  const params = request.get('params');
  if (isMap(params)) {
    for (const [k, v] of params) out.set(k, isMap(v) || Array.isArray(v) ? pjsonOrFalse(v, 'shortest') || '' : phpString(v));
  }
  return out;
}

/** Whether the records' place is absent: a dataField path that does not resolve, or no array at the root. */
export function recordsPlaceMissing(response: Value, dataField: DataField): boolean {
  if (dataField.kind === 'auto') return isMap(response) && ![...response.values()].some((v) => Array.isArray(v));
  // A dataField without its path fails at the first response, before any hint.
  if (dataField.kind === 'missingPath') return false;
  const found = lookupStrict(dataField.path, response, dataField.delimiter);
  return found === NOT_FOUND || found === null;
}

/**
 * The parameters that differ between two page requests: what the pagination changed. The
 * endpoint's own query counts too (next-page links).
 */
export function changedParameters(previous: PhpArray, next: PhpArray): string[] {
  const a = mergedQuery(previous);
  const b = mergedQuery(next);
  const names = new Set([...a.keys(), ...b.keys()]);
  return [...names].filter((name) => a.get(name) !== b.get(name));
}

/** The option of `api.pagination` (nested `multiple` scrollers included) whose value is `name`. */
export function paginationOptionOf(pagination: Value | undefined, name: string, path = 'parameters.api.pagination'): string | undefined {
  if (!isMap(pagination)) return undefined;
  for (const [key, value] of pagination) {
    if (typeof value === 'string' && value === name) return childPath(path, key);
    if (isMap(value)) {
      const found = paginationOptionOf(value, name, childPath(path, key));
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

/** The warning for a second page identical to the first (or with the same records), when the request asked for another page. */
export function identicalPageWarning(
  logger: Logger,
  job: { endpoint: string; path: string },
  first: PhpArray,
  second: PhpArray,
  pagination: Value | undefined,
  /** The whole response repeated (the job stops) or only its records (paging goes on). */
  stopped: boolean,
): void {
  const changed = changedParameters(first, second);
  const path = (r: PhpArray): string => phpString(r.get('endpoint') ?? null).split('?')[0]!;
  const moved = path(first) !== path(second);
  // The same request sent twice (the scroller did not move) tells nothing about the API.
  if (changed.length === 0 && !moved) return;
  const names = changed.map((n) => `'${n}'`).join(', ');
  const which =
    changed.length === 0
      ? `the next-page link (${phpString(second.get('endpoint') ?? null)})`
      : `the paging parameter${changed.length === 1 ? '' : 's'} ${names}`;
  const configPath = changed.map((n) => paginationOptionOf(pagination, n)).find((p) => p !== undefined) ?? 'parameters.api.pagination';
  logger.warning(
    (stopped
      ? `Job '${job.endpoint}' (${job.path}): page 2 is identical to page 1, so pagination stopped after page 1. `
      : `Job '${job.endpoint}' (${job.path}): page 2 holds the same records as page 1; paging goes on as the reference does. `) +
      `The API likely ignores ${which}: check the name and placement the API expects in ${configPath}.`,
    { configPath },
  );
}
