/**
 * The job tree as typed objects, parsed once from `config.jobs` (already checked by the
 * validator): what the pre-flight checks and `plan` need of each job.
 */
import { phpString } from '../php/stringConversion.ts';
import { isEmpty, isMap, type PhpArray, type Value } from '../php/value.ts';

export interface JobNode {
  /** Config path, e.g. `parameters.config.jobs[0].children[1]`. */
  path: string;
  /** The endpoint template as configured ({placeholders} unsubstituted). */
  endpoint: string;
  /** Own placeholder names, in configuration order. */
  placeholders: string[];
  children: JobNode[];
  /** The job's configuration. */
  config: PhpArray;
}

function entries(list: Value | undefined): [string, Value][] {
  if (Array.isArray(list)) return list.map((v, i) => [String(i), v]);
  if (isMap(list)) return [...list.entries()];
  return [];
}

/** The jobs of `list` (`config.jobs` or a job's `children`) under `path`. */
export function jobTree(list: Value | undefined, path: string, member = 'jobs'): JobNode[] {
  const nodes: JobNode[] = [];
  for (const [key, job] of entries(list)) {
    if (!isMap(job)) continue;
    const at = `${path}.${member}[${/^\d+$/.test(key) ? key : JSON.stringify(key)}]`;
    const endpoint = job.get('endpoint');
    const placeholders = job.get('placeholders');
    nodes.push({
      path: at,
      endpoint: typeof endpoint === 'string' ? endpoint : isEmpty(endpoint) ? '' : phpString(endpoint!),
      placeholders: isMap(placeholders) ? [...placeholders.keys()] : [],
      children: jobTree(job.get('children'), at, 'children'),
      config: job as PhpArray,
    });
  }
  return nodes;
}
