/**
 * The job tree as typed objects, parsed once from `config.jobs` (already checked by the
 * validator), with the reference's ways of reading each job option (spec 03 §1–§4); `dataField`
 * and the placeholders are parsed by their own files. Two views of one tree: `children` (and
 * `jobTree`) list every job object as written, for the pre-flight checks, `plan` and the start-up
 * checks; `run` lists the jobs as the page loop (runner.ts) runs them (03 §1.3), see `jobLists`.
 */
import { ApplicationError } from '../errors/ApplicationError.ts';
import { childPath, itemPath } from '../errors/configPath.ts';
import { md5Hex, phpSerialize } from '../php/serialize.ts';
import { phpString } from '../php/stringConversion.ts';
import { isEmpty, isMap, PhpArray, phpType, type Value } from '../php/value.ts';
import { type DataField, dataFieldOf } from './dataField.ts';
import { type PlaceholderSpec, placeholderSpecOf } from './placeholderSpec.ts';

/**
 * A job list as the page loop runs it: `jobs` in order, or the error the reference raises when it
 * plans the list (a non-string `id`), thrown by the loop at that moment (for children: when the
 * first parent page runs them), not when the configuration is parsed.
 */
export interface RunList {
  jobs: JobNode[];
  failure?: unknown;
}

export interface JobNode {
  /** Config path, e.g. `parameters.config.jobs[0].children[1]`. */
  path: string;
  /** The endpoint template as text ({placeholders} unsubstituted; PHP-empty → ""). */
  endpoint: string;
  /**
   * The endpoint as configured. A string is the template the page loop substitutes; any other
   * value goes to the request builder unchanged, which rejects it at the first request as the
   * reference does (the validator only rejects null and "").
   */
  endpointValue: Value | undefined;
  /** The endpoint in PHP string form, as the page loop's messages show it (`0` → "0", unlike `endpoint`). */
  endpointText: string;
  /** The job's identity (03 §1.3): a PHP-non-empty `id`, else the MD5 of the job's PHP serialization. Undefined when `id` is not a string (its list's `failure`). */
  identity: string | undefined;
  /**
   * The table name of the job's records: a PHP-non-empty `dataType` in PHP string form, else the
   * endpoint template when it is a string, else "" (03 §1.2).
   */
  dataType: string;
  dataField: DataField;
  /** `params` as configured: evaluated (functions, `attr`, `time`) for each job instance. */
  params: Value | undefined;
  /**
   * `headers` as configured. With `method` and `params`, the request builder reads it from the
   * request description the scroller makes of the job (src/http/request.ts).
   */
  headers: Value | undefined;
  /** `userData` as configured (undefined when absent): evaluated per instance, merged over `config.userData` in a top-level job. */
  userData: Value | undefined;
  /** `prefetch` as configured (undefined when absent): pages fetched ahead, checked when the job first runs. */
  prefetch: Value | undefined;
  /** `responseFilter` and `responseFilterDelimiter` as configured (null when absent; 03 §3.4). */
  responseFilter: Value;
  responseFilterDelimiter: Value;
  /** A PHP-non-empty `recursionFilter` in PHP string form; parsed when the child job first runs. */
  recursionFilter: string | undefined;
  /**
   * Own placeholder names, in configuration order, as the loop names them: a list's names are
   * 0, 1, … (so a child with `["id"]` runs, and `{id}` in its endpoint is never filled).
   */
  placeholders: string[];
  /** Whether `placeholders` is PHP-empty: the loop warns "No 'placeholders' set" for each parent record. */
  placeholdersEmpty: boolean;
  /**
   * The placeholders as the loop resolves them against the parent records (03 §4.4), in order; a
   * list reads as a map with the keys 0, 1, … and any other value as none.
   */
  placeholderSpecs: PlaceholderSpec[];
  /** Child job objects as written. */
  children: JobNode[];
  /** Child jobs as the page loop runs them (the `run` view of `jobLists` over `children`). */
  run: RunList;
  /** The job's configuration (its identity hash and the scrollers read it whole). */
  config: PhpArray;
}

function entries(list: Value | undefined): [string, Value][] {
  if (Array.isArray(list)) return list.map((v, i) => [String(i), v]);
  if (isMap(list)) return [...list.entries()];
  return [];
}

function dataTypeOf(own: Value | undefined, template: Value | undefined): string {
  if (!isEmpty(own)) return phpString(own!);
  return typeof template === 'string' ? template : '';
}

/** Whether the loop can plan a list with this job in it: its `id` is PHP-empty or a string. */
function plannable(job: PhpArray): boolean {
  const id = job.get('id');
  return isEmpty(id) || typeof id === 'string';
}

/**
 * The identity of a job (03 §1.3). A non-string `id` is a PHP type error in the reference: exit 2
 * with its message here too, naming the job's `id`, and what to write on the line after it.
 */
function identityOf(job: PhpArray, at: string): string {
  const id = job.get('id');
  if (!isEmpty(id)) {
    if (typeof id !== 'string') {
      throw new ApplicationError('Job id must be a string.', {
        context: { configPath: `${at}.id`, id: phpString(id!) },
        hint: `${at}.id is ${phpType(id!)}: write it in quotes, e.g. "users".`,
      });
    }
    return id;
  }
  return md5Hex(phpSerialize(job));
}

function nodeOf(job: PhpArray, at: string): JobNode {
  const endpoint = job.get('endpoint');
  const placeholders = job.get('placeholders');
  const placeholderSpecs = entries(placeholders).map(([name, spec]) => placeholderSpecOf(name, spec));
  const recursionFilter = job.get('recursionFilter');
  const { written, run } = jobLists(job.get('children'), at, 'children');
  let identity: string | undefined;
  return {
    path: at,
    endpoint: typeof endpoint === 'string' ? endpoint : isEmpty(endpoint) ? '' : phpString(endpoint!),
    endpointValue: endpoint,
    endpointText: phpString(endpoint ?? null),
    // On first use: the MD5 loads node:crypto (~5 ms of a start), and a list of one job needs none.
    get identity() {
      if (!plannable(job)) return undefined;
      identity ??= identityOf(job, at);
      return identity;
    },
    dataType: dataTypeOf(job.get('dataType'), endpoint),
    dataField: dataFieldOf(job.get('dataField')),
    params: job.get('params'),
    headers: job.get('headers'),
    userData: job.get('userData'),
    prefetch: job.get('prefetch'),
    responseFilter: job.get('responseFilter') ?? null,
    responseFilterDelimiter: job.get('responseFilterDelimiter') ?? null,
    recursionFilter: isEmpty(recursionFilter) ? undefined : phpString(recursionFilter!),
    placeholders: placeholderSpecs.map((p) => p.name),
    placeholdersEmpty: isEmpty(placeholders),
    placeholderSpecs,
    children: written,
    run,
    config: job,
  };
}

/** The job objects of `list` (`config.jobs` or a job's `children`) under `path`, as written. */
export function jobTree(list: Value | undefined, path: string, listName = 'jobs'): JobNode[] {
  return jobLists(list, path, listName).written;
}

/**
 * Both views of one job list, sharing the nodes of the job objects. `written` lists every job
 * object as written. `run` lists the jobs as the page loop runs them, with the reference's quirks
 * (03 §1.3):
 * - jobs are keyed by identity: a later job with the same identity (the same `id`, or without
 *   one the same content) replaces the earlier one at the earlier one's place, and its path is
 *   the later job's;
 * - a job written as a JSON list runs as a map of its items under the keys 0, 1, … (it has no
 *   `endpoint`, so its first request fails with the request builder's error); any other value
 *   (rejected by the validator first) runs as an empty job;
 * - a non-string `id` fails the whole list when the loop plans it (`failure`), not here.
 * Every identity is computed once, when first read (here when the list has two jobs or more), not
 * on every parent page.
 */
export function jobLists(list: Value | undefined, path: string, listName = 'jobs'): { written: JobNode[]; run: RunList } {
  const written: JobNode[] = [];
  const byIdentity = new Map<string, JobNode>();
  let failure: unknown;
  let failed = false;
  const items = entries(list);
  for (const [key, item] of items) {
    const at = itemPath(childPath(path, listName), key);
    let node: JobNode;
    if (isMap(item)) {
      node = nodeOf(item as PhpArray, at);
      written.push(node);
    } else {
      node = nodeOf(new PhpArray(Array.isArray(item) ? item.map((v, i) => [String(i), v] as const) : []), at);
    }
    if (failed) continue;
    if (!plannable(node.config)) {
      failed = true;
      try {
        identityOf(node.config, at);
      } catch (e) {
        failure = e;
      }
      continue;
    }
    byIdentity.set(items.length === 1 ? '' : node.identity!, node);
  }
  return { written, run: failed ? { jobs: [], failure } : { jobs: [...byIdentity.values()] } };
}
