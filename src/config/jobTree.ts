/**
 * The job tree as typed objects, parsed once from `config.jobs` (already checked by the
 * validator), with the reference's ways of reading each job option (spec 03 §1–§4). The
 * pre-flight checks and `plan` read these; the page loop (`src/jobs/runner.ts`) still reads the
 * raw job maps (see docs/design.md, "One configuration, parsed once").
 */
import { phpString } from '../php/stringConversion.ts';
import { isEmpty, isMap, member, type PhpArray, type Value } from '../php/value.ts';

/** `dataField` as the reference reads it when a response arrives (03 §3.2). */
export type DataField =
  /** PHP-empty (absent, "", "0", 0, false, null, []): the records are found in the response's shape. */
  | { kind: 'auto' }
  /**
   * A scalar is a path in its PHP string form (`1` → "1", `true` → "1"), delimiter ".". An object
   * (or a list, read the same way) gives `path` and `delimiter` (PHP-empty delimiter → ".").
   */
  | { kind: 'path'; path: string; delimiter: string }
  /** An object without a PHP-non-empty `path`: the reference fails at the first response ("'dataField.path' must be set!"). */
  | { kind: 'missingPath' };

export interface JobNode {
  /** Config path, e.g. `parameters.config.jobs[0].children[1]`. */
  path: string;
  /** The endpoint template as text ({placeholders} unsubstituted; PHP-empty → ""). */
  endpoint: string;
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
  /** `responseFilter` and `responseFilterDelimiter` as configured (null when absent; 03 §3.4). */
  responseFilter: Value;
  responseFilterDelimiter: Value;
  /** A PHP-non-empty `recursionFilter` in PHP string form; parsed when the child job first runs. */
  recursionFilter: string | undefined;
  /** Own placeholder names, in configuration order. */
  placeholders: string[];
  /** `placeholders` as configured: each resolved against the parent records (03 §4.4). */
  placeholderSpecs: Value | undefined;
  children: JobNode[];
  /** The job's configuration (its identity hash and the scrollers read it whole). */
  config: PhpArray;
}

function entries(list: Value | undefined): [string, Value][] {
  if (Array.isArray(list)) return list.map((v, i) => [String(i), v]);
  if (isMap(list)) return [...list.entries()];
  return [];
}

export function dataFieldOf(v: Value | undefined): DataField {
  if (isEmpty(v)) return { kind: 'auto' };
  if (!isMap(v) && !Array.isArray(v)) return { kind: 'path', path: phpString(v!), delimiter: '.' };
  const path = member(v, 'path');
  if (isEmpty(path)) return { kind: 'missingPath' };
  const delimiter = member(v, 'delimiter');
  return { kind: 'path', path: phpString(path!), delimiter: isEmpty(delimiter) ? '.' : phpString(delimiter!) };
}

function dataTypeOf(own: Value | undefined, template: Value | undefined): string {
  if (!isEmpty(own)) return phpString(own!);
  return typeof template === 'string' ? template : '';
}

/** The jobs of `list` (`config.jobs` or a job's `children`) under `path`. */
export function jobTree(list: Value | undefined, path: string, listName = 'jobs'): JobNode[] {
  const nodes: JobNode[] = [];
  for (const [key, job] of entries(list)) {
    if (!isMap(job)) continue;
    const at = `${path}.${listName}[${/^\d+$/.test(key) ? key : JSON.stringify(key)}]`;
    const endpoint = job.get('endpoint');
    const placeholders = job.get('placeholders');
    const recursionFilter = job.get('recursionFilter');
    nodes.push({
      path: at,
      endpoint: typeof endpoint === 'string' ? endpoint : isEmpty(endpoint) ? '' : phpString(endpoint!),
      dataType: dataTypeOf(job.get('dataType'), endpoint),
      dataField: dataFieldOf(job.get('dataField')),
      params: job.get('params'),
      headers: job.get('headers'),
      responseFilter: job.get('responseFilter') ?? null,
      responseFilterDelimiter: job.get('responseFilterDelimiter') ?? null,
      recursionFilter: isEmpty(recursionFilter) ? undefined : phpString(recursionFilter!),
      placeholders: isMap(placeholders) ? [...placeholders.keys()] : [],
      placeholderSpecs: placeholders,
      children: jobTree(job.get('children'), at, 'children'),
      config: job as PhpArray,
    });
  }
  return nodes;
}
