/** Job identity and de-duplication (spec 03 §1.3). */
import { ApplicationError } from '../errors/ApplicationError.ts';
import { md5Hex, phpSerialize } from '../php/serialize.ts';
import { isEmpty, PhpArray, type Value } from '../php/value.ts';

export function jobIdentity(job: PhpArray): string {
  const id = job.get('id');
  if (!isEmpty(id)) {
    if (typeof id !== 'string') throw new ApplicationError('Job id must be a string.', { context: { id: String(id) } });
    return id;
  }
  return md5Hex(phpSerialize(job));
}

export interface PlannedJob {
  job: PhpArray;
  /** Key of the job in its list (the later job's, when it replaced an earlier one). */
  index: string;
}

/** Jobs keyed by identity: a later job with the same identity replaces the earlier one in place. */
export function planJobs(list: Value | undefined): PlannedJob[] {
  const items: [string, Value][] = Array.isArray(list) ? list.map((v, i) => [String(i), v]) : list instanceof Map ? [...list] : [];
  const byId = new Map<string, PlannedJob>();
  for (const [index, item] of items) {
    const job = item instanceof PhpArray ? item : new PhpArray(Array.isArray(item) ? item.map((v, i) => [String(i), v] as const) : []);
    byId.set(jobIdentity(job), { job, index });
  }
  return [...byId.values()];
}

export function dedupeJobs(list: Value | undefined): PhpArray[] {
  return planJobs(list).map((p) => p.job);
}
