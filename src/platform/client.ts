/**
 * Client for Keboola's platform APIs (spec 01 §5, 06): the storage index of one stack, the API
 * portal index, and the job queue (create, read, wait, search, kill). Configurations, encryption
 * and events live in files of their own (configurations.ts, encryption.ts, events.ts) on top of
 * this client's `request`.
 *
 * Token rule (01 §5.5): the token goes only to hosts that the storage index of the client's own
 * stack lists (plus that stack's storage host), never through a redirect, and only over https
 * (plain http is accepted for loopback hosts when `allowHttpLoopback` is set: tests and the fake
 * platform). transport.ts checks it before anything leaves the process.
 */
import { JobWaitTimeoutError } from './JobWaitTimeoutError.ts';
import { MissingTokenError } from './errors/MissingTokenError.ts';
import { PlatformUsageError } from './errors/PlatformUsageError.ts';
import { ServiceNotFoundError } from './errors/ServiceNotFoundError.ts';
import { UnexpectedResponseError } from './errors/UnexpectedResponseError.ts';
import { UntrustedHostError } from './errors/UntrustedHostError.ts';
import { normaliseBaseUrl } from './stacks.ts';
import { isObject, oneLine, PlatformTransport, type SendOptions, type ServiceName } from './transport.ts';
import {
  FINAL_STATUSES,
  type CreateJobArgs,
  type JobRecord,
  type JobSearch,
  type PortalIndex,
  type ProjectInfo,
  type StorageIndex,
  type WaitOptions,
} from './types.ts';

export interface PlatformClientOptions {
  /** Storage ("connection") URL of the stack, e.g. https://connection.keboola.com; default `KBC_URL`. */
  storageUrl?: string;
  /** Storage API token; default `KBC_TOKEN`. Never logged or put into error messages. */
  token?: string;
  /** Injectable for tests; default the global fetch. */
  fetch?: typeof fetch;
  /** Where the defaults come from (default `process.env`). */
  env?: NodeJS.ProcessEnv;
  /** Accept http:// for loopback hosts (tests with a local fake stack). Production is https only. */
  allowHttpLoopback?: boolean;
  /** Limit for one HTTP call (default 30 s). */
  requestTimeoutMs?: number;
  /** Pauses before retrying a GET after a 5xx answer or a dropped connection (default 1 s, 2 s, 4 s). */
  retryDelaysMs?: readonly number[];
  sleep?: (ms: number) => Promise<void>;
  nowMs?: () => number;
}

const RESERVED_JOB_KEYS = new Set(['mode', 'component', 'config']);

export function isJobFinished(job: JobRecord): boolean {
  return job.isFinished === true || FINAL_STATUSES.includes(job.status);
}

export class PlatformClient {
  readonly storageUrl: string;
  readonly #transport: PlatformTransport;
  readonly #allowHttpLoopback: boolean;
  readonly #sleep: (ms: number) => Promise<void>;
  readonly #now: () => number;
  #index: Promise<StorageIndex> | undefined;

  constructor(options: PlatformClientOptions = {}) {
    const env = options.env ?? process.env;
    const storageUrl = options.storageUrl ?? env['KBC_URL'];
    if (storageUrl === undefined || storageUrl === '')
      throw new PlatformUsageError('No stack given: pass the stack (name or URL) or set KBC_URL.');
    this.#allowHttpLoopback = options.allowHttpLoopback ?? false;
    this.storageUrl = normaliseBaseUrl(storageUrl, this.#allowHttpLoopback);
    const token = options.token ?? env['KBC_TOKEN'];
    this.#sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
    this.#transport = new PlatformTransport({
      token: token === undefined || token.trim() === '' ? undefined : token.trim(),
      fetch: options.fetch ?? globalThis.fetch,
      allowHttpLoopback: this.#allowHttpLoopback,
      timeoutMs: options.requestTimeoutMs ?? 30_000,
      retryDelaysMs: options.retryDelaysMs ?? [1000, 2000, 4000],
      sleep: this.#sleep,
      trustedOrigins: () => this.#trustedOrigins(),
    });
    this.#now = options.nowMs ?? Date.now;
  }

  get hasToken(): boolean {
    return this.#transport.hasToken;
  }

  /** `GET {storageUrl}/v2/storage`, without the token (01 §5.2); cached per client. */
  getStorageIndex(): Promise<StorageIndex> {
    this.#index ??= this.#loadIndex().catch((e: unknown) => {
      this.#index = undefined;
      throw e;
    });
    return this.#index;
  }

  async #loadIndex(): Promise<StorageIndex> {
    // The index without its large `components` member, as GO reads it (06 §1.1).
    const url = `${this.storageUrl}/v2/storage?exclude=components`;
    const data = await this.request('GET', url, { service: 'Storage API', withToken: false, retry: true });
    const services = isObject(data) ? data['services'] : undefined;
    if (!Array.isArray(services) || !services.every((s) => isObject(s) && typeof s['id'] === 'string' && typeof s['url'] === 'string'))
      throw this.unexpected('Storage API', 'GET', url, data, 'not a storage index (no "services" list of {id, url})');
    return data as StorageIndex;
  }

  /** Base URL of a service of this stack, from the storage index (never derived from host patterns). */
  async getServiceUrl(id: string): Promise<string> {
    const index = await this.getStorageIndex();
    const service = index.services.find((s) => s.id === id);
    if (!service) throw new ServiceNotFoundError(id);
    try {
      return normaliseBaseUrl(service.url, this.#allowHttpLoopback, `URL of service "${id}"`);
    } catch (e) {
      throw new UntrustedHostError(service.url, (e as Error).message);
    }
  }

  /** `GET {portalUrl}/apis.json`, without the token (01 §5.3). */
  async getPortalIndex(portalUrl: string): Promise<PortalIndex> {
    const base = normaliseBaseUrl(portalUrl, this.#allowHttpLoopback, 'API portal URL');
    const url = `${base}/apis.json`;
    const data = await this.request('GET', url, { service: 'API portal', withToken: false, retry: true });
    const services = isObject(data) ? data['services'] : undefined;
    const fields = ['id', 'name', 'apiUrl', 'openApiSpecUrl'];
    if (
      !isObject(data) ||
      typeof data['stack'] !== 'string' ||
      !Array.isArray(services) ||
      !services.every((s) => isObject(s) && fields.every((f) => typeof s[f] === 'string'))
    ) {
      throw this.unexpected('API portal', 'GET', url, data, 'not an API portal index');
    }
    return data as PortalIndex;
  }

  /** `POST {queue}/jobs` with body keys mode, component, config, then the extras (01 §5.4). */
  async createJob(args: CreateJobArgs): Promise<JobRecord> {
    if (!this.hasToken) throw new MissingTokenError();
    if (typeof args.component !== 'string' || args.component === '') throw new PlatformUsageError('createJob: "component" is required.');
    if (typeof args.config !== 'string' || args.config === '') throw new PlatformUsageError('createJob: "config" is required.');
    const mode = args.mode ?? 'run';
    if (!['run', 'forceRun', 'debug'].includes(mode))
      throw new PlatformUsageError(`createJob: mode must be run, forceRun or debug, not "${mode}".`);
    const body: Record<string, unknown> = { mode, component: args.component, config: args.config };
    for (const [key, value] of Object.entries(args.extra ?? {})) {
      if (RESERVED_JOB_KEYS.has(key)) throw new PlatformUsageError(`createJob: "${key}" is not an extra; pass it as its own argument.`);
      if (value !== undefined) body[key] = value;
    }
    const queue = await this.getServiceUrl('queue');
    const headers: Record<string, string> = {};
    if (args.parentRunId !== undefined && args.parentRunId !== '') headers['X-KBC-RunId'] = args.parentRunId;
    const url = `${queue}/jobs`;
    return this.#jobRecord(
      await this.request('POST', url, { service: 'Job Queue API', withToken: true, json: body, headers, retry: false }),
      'POST',
      url,
    );
  }

  /** `GET {queue}/jobs/{id}`; the address is always built from the index, never taken from a record's `url`. */
  async getJob(id: string): Promise<JobRecord> {
    if (!this.hasToken) throw new MissingTokenError();
    if (typeof id !== 'string' || id === '') throw new PlatformUsageError('getJob: a job id is required.');
    const queue = await this.getServiceUrl('queue');
    const url = `${queue}/jobs/${encodeURIComponent(id)}`;
    return this.#jobRecord(await this.request('GET', url, { service: 'Job Queue API', withToken: true, retry: true }), 'GET', url);
  }

  /** Reads the job, then polls it until it is final (pollJob). */
  async waitForJob(idOrJob: string | JobRecord, options: WaitOptions = {}): Promise<JobRecord> {
    return this.pollJob(await this.getJob(typeof idOrJob === 'string' ? idOrJob : String(idOrJob.id)), options);
  }

  /**
   * The one polling loop of the client (06 §5.5), from a record just read: until the job is final
   * (`isFinished`, or a final status) or `signal` is aborted (then the last record read). `onPoll`
   * sees every record and is awaited before the next pause, so a log tail reading the events there
   * prints every line written before the job finished before this returns. Pauses start at
   * `intervalMs` and double up to `maxIntervalMs`; with `timeoutMs`, the last pause ends at the
   * deadline and the wait gives up with JobWaitTimeoutError carrying the last record.
   */
  async pollJob(current: JobRecord, options: WaitOptions = {}): Promise<JobRecord> {
    const sleep = options.sleep ?? this.#sleep;
    let interval = Math.max(1, options.intervalMs ?? 1000);
    const maxInterval = Math.max(interval, options.maxIntervalMs ?? 10_000);
    const deadline = options.timeoutMs === undefined ? undefined : this.#now() + options.timeoutMs;
    let job = current;
    for (;;) {
      await options.onPoll?.(job);
      if (isJobFinished(job) || options.signal?.aborted) return job;
      let pause = interval;
      if (deadline !== undefined) {
        const remaining = deadline - this.#now();
        if (remaining <= 0) throw new JobWaitTimeoutError(job, options.timeoutMs!);
        pause = Math.min(pause, remaining);
      }
      await sleep(pause);
      interval = Math.min(interval * 2, maxInterval);
      const next = await this.getJob(job.id);
      if (next.status !== job.status) options.onStatus?.(next);
      job = next;
    }
  }

  /** createJob, then waitForJob. */
  async runAndWait(args: CreateJobArgs & { wait?: WaitOptions }): Promise<JobRecord> {
    const { wait, ...create } = args;
    const job = await this.createJob(create);
    return this.waitForJob(job, wait);
  }

  /**
   * `GET {queue}/search/jobs` (06 §5.3): newest first by default. The search index is eventually
   * consistent, so a job's final state is always confirmed with `getJob`, never with this list.
   */
  async searchJobs(filter: JobSearch = {}): Promise<JobRecord[]> {
    const query = new URLSearchParams();
    if (filter.componentId !== undefined) query.append('componentId', filter.componentId);
    if (filter.configId !== undefined) query.append('configId', filter.configId);
    for (const status of filter.status ?? []) query.append('status[]', status);
    query.append('limit', String(filter.limit ?? 20));
    query.append('sortOrder', 'desc');
    const url = `${await this.getServiceUrl('queue')}/search/jobs?${query}`;
    const data = await this.request('GET', url, { service: 'Job Queue API', withToken: true, retry: true });
    if (!Array.isArray(data)) throw this.unexpected('Job Queue API', 'GET', url, data, 'not a list of jobs');
    return data.map((job) => this.#jobRecord(job, 'GET', url));
  }

  /** `POST {queue}/jobs/{id}/kill`, no body, never retried (06 §5.3); answers the job (`desiredStatus: terminating`). */
  async killJob(id: string): Promise<JobRecord> {
    const url = `${await this.getServiceUrl('queue')}/jobs/${encodeURIComponent(id)}/kill`;
    return this.#jobRecord(await this.request('POST', url, { service: 'Job Queue API', withToken: true, retry: false }), 'POST', url);
  }

  /** `GET {storage}/v2/storage/tokens/verify` (06 §2): the project id and its parallel-jobs limit, when shown. */
  async verifyToken(): Promise<ProjectInfo> {
    const url = this.storageApiUrl('/tokens/verify');
    const data = await this.request('GET', url, { service: 'Storage API', withToken: true, retry: true });
    const owner = isObject(data) ? data['owner'] : undefined;
    if (!isObject(owner) || (typeof owner['id'] !== 'string' && typeof owner['id'] !== 'number'))
      throw this.unexpected('Storage API', 'GET', url, data, 'no owner.id (the project id)');
    const limits = isObject(owner['limits']) ? owner['limits'] : {};
    const parallelism = limits['components.jobsParallelism'];
    const limit = isObject(parallelism) && typeof parallelism['value'] === 'number' ? parallelism['value'] : undefined;
    return { projectId: String(owner['id']), ...(limit !== undefined ? { jobsParallelism: limit } : {}) };
  }

  /** The error for a 2xx answer of the wrong shape (`what` says what it is not), its body redacted. */
  unexpected(service: ServiceName, method: string, url: string, data: unknown, what: string): UnexpectedResponseError {
    return new UnexpectedResponseError({ service, method, url }, what, oneLine(JSON.stringify(data) ?? String(data)), (text) =>
      this.redact(text),
    );
  }

  #jobRecord(data: unknown, method: string, url: string): JobRecord {
    if (!isObject(data) || (typeof data['id'] !== 'string' && typeof data['id'] !== 'number') || typeof data['status'] !== 'string') {
      throw this.unexpected('Job Queue API', method, url, data, 'not a job record');
    }
    if (typeof data['id'] === 'number') data['id'] = String(data['id']);
    return data as JobRecord;
  }

  /** Origins the token may go to: the stack's storage host and every service in its index. */
  async #trustedOrigins(): Promise<Set<string>> {
    const origins = new Set([new URL(this.storageUrl).origin]);
    for (const service of (await this.getStorageIndex()).services) {
      try {
        origins.add(new URL(service.url).origin);
      } catch {
        // Not a URL: nothing to trust.
      }
    }
    return origins;
  }

  /** Throws UntrustedHostError unless `url` may receive the token. */
  assertTokenTarget(url: string): Promise<void> {
    return this.#transport.assertTokenTarget(url, this.storageUrl);
  }

  /** Hides the token where it stands as a value (redaction.ts). */
  redact(text: string): string {
    return this.#transport.redact(text);
  }

  /** One JSON exchange with a service of this stack (the token rule applies when `withToken`). */
  request(method: string, url: string, options: SendOptions): Promise<unknown> {
    return this.#transport.json(method, url, this.storageUrl, options);
  }

  /** One exchange whose answer is text (encryption of a plain value). */
  async requestText(method: string, url: string, options: SendOptions): Promise<string> {
    return (await this.#transport.send(method, url, this.storageUrl, options)).text;
  }

  /** `{storage}/v2/storage/…` */
  storageApiUrl(path: string): string {
    return `${this.storageUrl}/v2/storage${path}`;
  }
}
