/** Job identity and de-duplication (spec 03 §1.3). */
import { ApplicationError } from '../errors/ApplicationError.ts';
import { md5Hex, phpSerialize } from '../json/serialize.ts';
import { isEmpty, PhpArray, type Value } from '../json/value.ts';

export function jobIdentity(job: PhpArray): string {
  const id = job.get('id');
  if (!isEmpty(id)) {
    if (typeof id !== 'string') throw new ApplicationError('Job id must be a string.', { context: { id: String(id) } });
    return id;
  }
  return md5Hex(phpSerialize(job));
}

/** Jobs keyed by identity: a later job with the same identity replaces the earlier one in place. */
export function dedupeJobs(list: Value | undefined): PhpArray[] {
  const items = Array.isArray(list) ? list : list instanceof Map ? [...list.values()] : [];
  const byId = new Map<string, PhpArray>();
  for (const item of items) {
    const job = item instanceof PhpArray ? item : new PhpArray(Array.isArray(item) ? item.map((v, i) => [String(i), v] as const) : []);
    byId.set(jobIdentity(job), job);
  }
  return [...byId.values()];
}
