/**
 * `image_parameters.allowed_hosts` (spec 01 §1.12). The reference checks only the URLs of the
 * top-level jobs at set-up; we also check every URL actually requested (redirect hops and
 * next-page links), so a response cannot lead the extractor outside the allowed set.
 */
import { UserError } from '../errors/UserError.ts';
import { itemPath } from '../errors/configPath.ts';
import { isEmpty, isMap, member, type PhpArray, type Value } from '../php/value.ts';
import { phpString } from '../php/stringConversion.ts';
import { phpParseUrl } from '../php/parseUrl.ts';
import { httpBuildQuery } from '../php/httpBuildQuery.ts';

export interface AllowedHost {
  host: string;
  scheme: string | undefined;
  port: number | undefined;
  /** A port given as a string never matches (PHP strict comparison). */
  portIsString: boolean;
  endpoint: string[];
}

function segments(path: string): string[] {
  const trimmed = path.replace(/^\/+|\/+$/g, '');
  return trimmed === '' ? [] : trimmed.split('/');
}

export function allowedHostsOf(imageParameters: Value | undefined): AllowedHost[] | undefined {
  const list = member(imageParameters, 'allowed_hosts');
  if (!Array.isArray(list) || list.length === 0 || !list.every((e) => isMap(e))) return undefined;
  return list.map((entry) => {
    const port = member(entry, 'port');
    const endpoint = member(entry, 'endpoint');
    return {
      host: phpString(member(entry, 'host') ?? null),
      scheme: member(entry, 'scheme') === undefined ? undefined : phpString(member(entry, 'scheme')!),
      port: typeof port === 'number' ? port : undefined,
      portIsString: typeof port === 'string',
      endpoint: isEmpty(endpoint) ? [] : segments(phpString(endpoint!).replace(/\/+$/, '')),
    };
  });
}

export function isAllowed(url: string, hosts: readonly AllowedHost[]): boolean {
  const parts = phpParseUrl(url);
  let host = parts?.host ?? '';
  let path = parts?.path ?? '';
  if (host === '' && path !== '') {
    const segs = segments(path);
    host = segs[0] ?? '';
    path = segs.slice(1).join('/');
  }
  const scheme = parts?.scheme;
  const port = parts?.port;
  const pathSegs = segments(path);
  return hosts.some((h) => {
    if (h.host !== host) return false;
    if (h.scheme !== undefined && h.scheme !== scheme) return false;
    if (h.portIsString) return false;
    if (h.port !== undefined && h.port !== port) return false;
    return h.endpoint.every((seg, i) => pathSegs[i] === seg);
  });
}

function notAllowed(url: string, jobPath?: string): UserError {
  if (jobPath === undefined)
    return new UserError(`URL "${url}" is not in the allowed hosts whitelist.`, { configPath: 'image_parameters.allowed_hosts' });
  return new UserError(
    `URL "${url}" of ${jobPath} is not in the allowed hosts whitelist: change the job's endpoint, or add its host to image_parameters.allowed_hosts.`,
    { configPath: jobPath },
  );
}

/**
 * The reference's set-up check over the top-level jobs of `parameters.config.jobs`; with
 * `jobsPath`, the same check over another list (an iteration's), whose message names the job.
 */
export function checkJobUrls(hosts: readonly AllowedHost[], baseUrl: string, jobs: Value | undefined, jobsPath?: string): void {
  const list: [string | number, Value][] = Array.isArray(jobs) ? jobs.map((j, i) => [i, j]) : isMap(jobs) ? [...jobs] : [];
  for (const [key, job] of list) {
    let endpoint = phpString((member(job, 'endpoint') as Value | undefined) ?? null);
    const placeholders = member(job, 'placeholders');
    if (isMap(placeholders)) for (const [k, v] of placeholders) endpoint = endpoint.split(`{${k}}`).join(isMap(v) ? '' : phpString(v));
    const params = member(job, 'params');
    if (!isEmpty(params)) endpoint += (endpoint.includes('?') ? '&' : '?') + httpBuildQuery(params!);
    const url = `${baseUrl.replace(/\/+$/, '')}/${endpoint.replace(/^\/+/, '')}`;
    if (!isAllowed(url, hosts)) throw notAllowed(url, jobsPath === undefined ? undefined : itemPath(jobsPath, key));
  }
}

/**
 * The check before the first request of a configuration: the reference's over
 * `parameters.config.jobs`, then, when an iteration supplies its own `jobs` (which the reference
 * leaves to the request), those too, so a job outside the allowed hosts stops the run up front.
 */
export function checkConfigurationJobUrls(
  hosts: readonly AllowedHost[],
  baseUrl: string,
  parameters: Value | undefined,
  configuration: { config: PhpArray; pathOf(key: string): string },
): void {
  checkJobUrls(hosts, baseUrl, member(member(parameters, 'config'), 'jobs'));
  const jobsPath = configuration.pathOf('jobs');
  if (jobsPath !== 'parameters.config.jobs') checkJobUrls(hosts, baseUrl, configuration.config.get('jobs'), jobsPath);
}

/** Our per-request check (redirects, next-page links). */
export function requestChecker(hosts: readonly AllowedHost[]): (href: string) => void {
  return (href) => {
    if (!isAllowed(href, hosts)) throw notAllowed(href);
  };
}

/**
 * Whether an allow-list entry covers the origin of a request URL (credentials, issue 19 #2): host,
 * and scheme and port where the entry gives them. An entry's `endpoint` restricts paths, not
 * origins, and is left to the check above.
 */
export function isAllowedOrigin(url: { scheme: string; host: string; port: number | undefined }, hosts: readonly AllowedHost[]): boolean {
  const port = url.port ?? (url.scheme === 'https' ? 443 : 80);
  return hosts.some(
    (h) =>
      h.host.toLowerCase() === url.host.toLowerCase() &&
      (h.scheme === undefined || h.scheme.toLowerCase() === url.scheme) &&
      !h.portIsString &&
      (h.port === undefined || h.port === port),
  );
}
