/**
 * The helper's host allow-list (spec 05 §4.6): one URL is checked, that of the top-level job of
 * `__SELECTED_JOB`, before any request; entries match on `path` (not `endpoint` as in the
 * extractor's src/config/allowedHosts.ts) and the host is compared in lower case.
 */
import type { Value } from '../php/value.ts';
import { userError, valueError } from './envelope.ts';
import { formEncode } from './helperHttp.ts';
import { pythonStr } from './pythonValues.ts';

function jobUrl(baseUrl: string, job: Map<string, Value>): string {
  let endpoint = pythonStr(job.get('endpoint') ?? '').replace(/^\/+/, '');
  const table = job.get('placeholders');
  endpoint = endpoint.replace(/\{\{|\}\}|\{([^{}]*)\}/g, (m, key: string | undefined) => {
    if (m === '{{') return '{';
    if (m === '}}') return '}';
    const value = table instanceof Map ? table.get(key!) : undefined;
    if (value === undefined) throw valueError(`Missing placeholder for: ${key} in endpoint: ${endpoint}`);
    return pythonStr(value);
  });
  let url = baseUrl.replace(/\/$/, '');
  if (endpoint !== '') url += `/${endpoint}`;
  const params = job.get('params');
  if (params instanceof Map && params.size > 0) url += `?${formEncode(params)}`;
  return url;
}

function matches(entry: Value, url: { scheme: string; host: string; port: number | undefined; path: string }): boolean {
  if (!(entry instanceof Map)) return false;
  const host = entry.get('host');
  if (host !== url.host) return false;
  const scheme = entry.get('scheme');
  if (scheme !== undefined && scheme !== null && scheme !== url.scheme) return false;
  const port = entry.get('port');
  if (port !== undefined && port !== null && Number(port) !== url.port) return false;
  const path = entry.get('path');
  if (path === undefined || path === null) return true;
  const prefix = pythonStr(path).replace(/\/+$/, '');
  if (prefix === '') return true;
  const want = prefix.split('/');
  const have = url.path.split('/');
  return want.length <= have.length && want.every((segment, i) => segment === have[i]);
}

/** Throws the helper's user error when the top-level job's URL matches no entry. */
export function checkAllowedHosts(allowed: Value | undefined, baseUrl: string, job: Map<string, Value>): void {
  if (!Array.isArray(allowed) || allowed.length === 0) return;
  const url = jobUrl(baseUrl, job);
  const m = /^([A-Za-z][A-Za-z0-9+.-]*):\/\/([^/?#:]*)(?::(\d*))?([^?#]*)/.exec(url);
  const parsed = {
    scheme: m?.[1] ?? '',
    host: (m?.[2] ?? '').toLowerCase(),
    port: m?.[3] ? Number(m[3]) : undefined,
    path: (m?.[4] ?? '').replace(/\/+$/, ''),
  };
  if (!allowed.some((entry) => matches(entry, parsed))) throw userError(`URL "${url}" is not in the allowed hosts whitelist.`);
}
