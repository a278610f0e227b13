/**
 * Client for Keboola's platform APIs (spec 01 §5): the storage index of one stack, the API
 * portal index, and the job queue (create, read, wait).
 *
 * Token rule (01 §5.5): the token goes only to hosts that the storage index of the client's own
 * stack lists (plus that stack's storage host), never through a redirect, and only over https
 * (plain http is accepted for loopback hosts when `allowHttpLoopback` is set, which tests do).
 * The check runs in `send()`, before anything leaves the process.
 */
import { InvalidTokenError } from './errors/InvalidTokenError.ts';
import { JobWaitTimeoutError } from './JobWaitTimeoutError.ts';
import { MissingTokenError } from './errors/MissingTokenError.ts';
import { PlatformApiError } from './errors/PlatformApiError.ts';
import { PlatformUsageError } from './errors/PlatformUsageError.ts';
import { ServiceNotFoundError } from './errors/ServiceNotFoundError.ts';
import { StackUnreachableError } from './errors/StackUnreachableError.ts';
import { UntrustedHostError } from './errors/UntrustedHostError.ts';
import { isLoopbackHost, normaliseBaseUrl } from './stacks.ts';
import { FINAL_STATUSES, type CreateJobArgs, type JobRecord, type PortalIndex, type StorageIndex, type WaitOptions } from './types.ts';

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

interface SendOptions {
  withToken: boolean;
  body?: string;
  headers?: Record<string, string>;
  retry: boolean;
}

/** Network failures worth another try; refused and unresolvable hosts are not. */
const TRANSIENT = new Set([
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
]);

const RESERVED_JOB_KEYS = new Set(['mode', 'component', 'config']);

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function oneLine(text: string, max = 300): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}

function networkReason(error: unknown, timeoutMs: number): { reason: string; transient: boolean } {
  const err = error as Error & { cause?: unknown };
  if (err.name === 'TimeoutError' || err.name === 'AbortError')
    return { reason: `no answer within ${timeoutMs / 1000} s`, transient: true };
  const cause = (err.cause ?? err) as NodeJS.ErrnoException & { errors?: NodeJS.ErrnoException[] };
  const code = cause.code ?? cause.errors?.[0]?.code ?? '';
  switch (code) {
    case 'ECONNREFUSED':
      return { reason: 'connection refused', transient: false };
    case 'ENOTFOUND':
    case 'EAI_NONAME':
    case 'EAI_AGAIN':
      return { reason: 'host not found', transient: false };
    default:
      return { reason: oneLine(cause.message || err.message || String(err)), transient: TRANSIENT.has(code) };
  }
}

export function isJobFinished(job: JobRecord): boolean {
  return job.isFinished === true || FINAL_STATUSES.includes(job.status);
}

export class PlatformClient {
  readonly storageUrl: string;
  readonly #token: string | undefined;
  readonly #fetch: typeof fetch;
  readonly #allowHttpLoopback: boolean;
  readonly #timeoutMs: number;
  readonly #retryDelays: readonly number[];
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
    this.#token = token === undefined || token.trim() === '' ? undefined : token.trim();
    this.#fetch = options.fetch ?? globalThis.fetch;
    this.#timeoutMs = options.requestTimeoutMs ?? 30_000;
    this.#retryDelays = options.retryDelaysMs ?? [1000, 2000, 4000];
    this.#sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
    this.#now = options.nowMs ?? Date.now;
  }

  get hasToken(): boolean {
    return this.#token !== undefined;
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
    const url = `${this.storageUrl}/v2/storage`;
    const data = await this.#json('GET', url, { withToken: false, retry: true });
    const services = isObject(data) ? data['services'] : undefined;
    if (!Array.isArray(services) || !services.every((s) => isObject(s) && typeof s['id'] === 'string' && typeof s['url'] === 'string')) {
      throw new PlatformApiError(
        `Unexpected response from GET ${url}: not a storage index (no "services" list of {id, url}).`,
        200,
        oneLine(JSON.stringify(data)),
      );
    }
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
    const data = await this.#json('GET', url, { withToken: false, retry: true });
    const services = isObject(data) ? data['services'] : undefined;
    const fields = ['id', 'name', 'apiUrl', 'openApiSpecUrl'];
    if (
      !isObject(data) ||
      typeof data['stack'] !== 'string' ||
      !Array.isArray(services) ||
      !services.every((s) => isObject(s) && fields.every((f) => typeof s[f] === 'string'))
    ) {
      throw new PlatformApiError(`Unexpected response from GET ${url}: not an API portal index.`, 200, oneLine(JSON.stringify(data)));
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
      await this.#json('POST', url, { withToken: true, body: JSON.stringify(body), headers, retry: false }),
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
    return this.#jobRecord(await this.#json('GET', url, { withToken: true, retry: true }), 'GET', url);
  }

  /**
   * Polls until the job is final (`isFinished`, or a final status): pauses start at 1 s and double
   * up to 10 s; with `timeoutMs`, gives up with JobWaitTimeoutError carrying the last record.
   */
  async waitForJob(idOrJob: string | JobRecord, options: WaitOptions = {}): Promise<JobRecord> {
    const id = typeof idOrJob === 'string' ? idOrJob : String(idOrJob.id);
    let interval = Math.max(1, options.intervalMs ?? 1000);
    const maxInterval = Math.max(interval, options.maxIntervalMs ?? 10_000);
    const deadline = options.timeoutMs === undefined ? undefined : this.#now() + options.timeoutMs;
    for (;;) {
      const job = await this.getJob(id);
      options.onPoll?.(job);
      if (isJobFinished(job)) return job;
      let pause = interval;
      if (deadline !== undefined) {
        const remaining = deadline - this.#now();
        if (remaining <= 0) throw new JobWaitTimeoutError(job, options.timeoutMs!);
        pause = Math.min(pause, remaining);
      }
      await this.#sleep(pause);
      interval = Math.min(interval * 2, maxInterval);
    }
  }

  /** createJob, then waitForJob. */
  async runAndWait(args: CreateJobArgs & { wait?: WaitOptions }): Promise<JobRecord> {
    const { wait, ...create } = args;
    const job = await this.createJob(create);
    return this.waitForJob(job, wait);
  }

  #jobRecord(data: unknown, method: string, url: string): JobRecord {
    if (!isObject(data) || (typeof data['id'] !== 'string' && typeof data['id'] !== 'number') || typeof data['status'] !== 'string') {
      throw new PlatformApiError(
        `Unexpected response from ${method} ${url}: not a job record.`,
        200,
        this.#redact(oneLine(JSON.stringify(data))),
      );
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
  async assertTokenTarget(url: string): Promise<void> {
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      throw new UntrustedHostError(url, 'not a URL.');
    }
    if (target.protocol !== 'https:' && !(target.protocol === 'http:' && this.#allowHttpLoopback && isLoopbackHost(target.hostname))) {
      throw new UntrustedHostError(target.origin, 'the token is sent over https only.');
    }
    if (!(await this.#trustedOrigins()).has(target.origin)) {
      throw new UntrustedHostError(
        target.origin,
        `it is not a service of the stack ${this.storageUrl} (a token works only on the stack that issued it).`,
      );
    }
  }

  #redact(text: string): string {
    return this.#token === undefined ? text : text.split(this.#token).join('[hidden]');
  }

  async #json(method: string, url: string, options: SendOptions): Promise<unknown> {
    const { status, text } = await this.#send(method, url, options);
    try {
      return JSON.parse(text);
    } catch {
      throw new PlatformApiError(
        `Unexpected response from ${method} ${url}: HTTP ${status} with a body that is not JSON.`,
        status,
        this.#redact(text),
      );
    }
  }

  async #send(method: string, url: string, options: SendOptions): Promise<{ status: number; text: string }> {
    const headers: Record<string, string> = { Accept: 'application/json', ...options.headers };
    if (options.withToken) {
      if (this.#token === undefined) throw new MissingTokenError();
      await this.assertTokenTarget(url);
      headers['X-StorageApi-Token'] = this.#token;
    }
    if (options.body !== undefined) headers['Content-Type'] = 'application/json';
    for (let attempt = 0; ; attempt++) {
      const delay = options.retry ? this.#retryDelays[attempt] : undefined;
      let response: Response;
      try {
        response = await this.#fetch(url, {
          method,
          headers,
          ...(options.body !== undefined ? { body: options.body } : {}),
          // A redirect could carry the token header to another host: never follow one.
          redirect: 'manual',
          signal: AbortSignal.timeout(this.#timeoutMs),
        });
      } catch (e) {
        const { reason, transient } = networkReason(e, this.#timeoutMs);
        if (transient && delay !== undefined) {
          await this.#sleep(delay);
          continue;
        }
        throw new StackUnreachableError(new URL(url).origin, reason, e);
      }
      const text = await response.text().catch(() => '');
      if (response.status >= 500 && delay !== undefined) {
        await this.#sleep(delay);
        continue;
      }
      if (response.status >= 200 && response.status < 300) return { status: response.status, text };
      const body = this.#redact(text);
      if (response.status >= 300 && response.status < 400) {
        const location = this.#redact(response.headers.get('location') ?? '');
        throw new PlatformApiError(
          `HTTP ${response.status} from ${method} ${url}: redirect to "${location}" not followed.`,
          response.status,
          body,
        );
      }
      if (/invalid (access )?token/i.test(text)) {
        throw new InvalidTokenError(
          `Invalid Token: ${new URL(url).host} rejected the Storage API token (HTTP ${response.status} from ${method} ${url}). A token works only on the stack that issued it.`,
          response.status,
          body,
        );
      }
      throw new PlatformApiError(
        `HTTP ${response.status} from ${method} ${url}${body === '' ? '' : `: ${oneLine(body)}`}`,
        response.status,
        body,
      );
    }
  }
}
