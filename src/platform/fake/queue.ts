/**
 * The fake Job Queue API (06 §5): create, detail, search, kill. Jobs move through the statuses of
 * 06 §5.4 on a clock of their own (`stepMs`): created → waiting (parallel limit, and the
 * configuration lock when `configLock` is on) → processing for `runSteps` steps → the outcome the
 * `runner` decides from what the job would run. A kill cancels a job that has not started and
 * terminates one that runs. Each move writes an event to the job's log (06 §6).
 */
import type { FakeEncryption } from './encryption.ts';
import { json, parseJsonBody, queueError, type FakeRequest, type FakeResponse } from './http.ts';
import type { FakeStorage, StoredConfiguration } from './storage.ts';

/** What a job runs: the configuration as the runner would see it, after decryption. */
export interface JobInput {
  jobId: string;
  component: string;
  config: string | undefined;
  configRowIds: string[];
  /** One effective configuration per row (or the one configuration, or `configData`). */
  configurations: Record<string, unknown>[];
  usesConfigData: boolean;
}

export interface JobOutcome {
  status: 'success' | 'error' | 'warning';
  message: string;
  /** Log lines the "component" writes while it runs. */
  events?: string[];
}

export type FakeRunner = (input: JobInput) => JobOutcome;

export interface QueueSettings {
  token: string;
  projectId: string;
  jobsParallelism: number;
  configLock: boolean;
  runSteps: number;
  runner: FakeRunner;
  queueUrl: () => string;
}

interface FakeJob {
  record: Record<string, unknown>;
  input: JobInput | undefined;
  steps: number;
  startedAt: number | undefined;
}

const FINAL = ['success', 'error', 'warning', 'terminated', 'cancelled'];

/** PHP's array_replace_recursive, the runner's merge of a row over its configuration (06 §4). */
export function replaceRecursive(base: unknown, over: unknown): unknown {
  const isContainer = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;
  if (!isContainer(base) || !isContainer(over)) return over;
  const merged: Record<string, unknown> = Array.isArray(base) ? { ...base } : { ...base };
  for (const [key, value] of Object.entries(over)) merged[key] = key in merged ? replaceRecursive(merged[key], value) : value;
  return Array.isArray(base) && Array.isArray(over) ? Object.values(merged) : merged;
}

export class FakeQueue {
  readonly jobs = new Map<string, FakeJob>();
  readonly #settings: QueueSettings;
  readonly #storage: FakeStorage;
  readonly #encryption: FakeEncryption;
  #nextId = 1001;

  constructor(settings: QueueSettings, storage: FakeStorage, encryption: FakeEncryption) {
    this.#settings = settings;
    this.#storage = storage;
    this.#encryption = encryption;
  }

  handle(req: FakeRequest): FakeResponse {
    if (req.token !== this.#settings.token) return queueError(401, 'Invalid access token');
    if (req.method === 'POST' && req.path === '/jobs') return this.#create(req);
    if (req.method === 'GET' && req.path === '/search/jobs') return json(200, this.#search(req.query));
    const detail = /^\/jobs\/([^/]+)$/.exec(req.path);
    if (req.method === 'GET' && detail) return this.#withJob(detail[1]!, (job) => json(200, job.record));
    const kill = /^\/jobs\/([^/]+)\/kill$/.exec(req.path);
    if (req.method === 'POST' && kill) return this.#withJob(kill[1]!, (job) => this.#kill(job));
    return queueError(404, `Route "${req.method} ${req.path}" not found`);
  }

  /** One step of the clock: every job that can move, moves. */
  tick(): void {
    for (const job of this.jobs.values()) this.#advance(job);
  }

  #withJob(id: string, then: (job: FakeJob) => FakeResponse): FakeResponse {
    const job = this.jobs.get(decodeURIComponent(id));
    return job ? then(job) : queueError(404, `Job "${decodeURIComponent(id)}" not found`);
  }

  #create(req: FakeRequest): FakeResponse {
    const body = parseJsonBody(req);
    if (!body) return queueError(400, 'Request body must be a JSON object');
    const component = body['component'];
    if (typeof component !== 'string' || component === '') return queueError(400, 'The "component" field is required');
    const config = typeof body['config'] === 'string' ? body['config'] : undefined;
    const configData = body['configData'];
    if (config === undefined && configData === undefined) return queueError(400, 'One of "config" or "configData" is required');
    const mode = body['mode'] ?? 'run';
    if (!['run', 'forceRun', 'debug'].includes(String(mode))) return queueError(400, `Invalid mode "${String(mode)}"`);
    const resolved = this.#resolve(component, config, body, mode === 'forceRun');
    if (typeof resolved === 'string') return queueError(400, resolved);
    const id = String(this.#nextId++);
    const job: FakeJob = {
      record: this.#record(id, component, config, body),
      input: { ...resolved, jobId: id },
      steps: 0,
      startedAt: undefined,
    };
    this.jobs.set(id, job);
    this.#storage.log(id, component, 'info', `Job "${id}" created`);
    return json(201, job.record);
  }

  /** What the job will run, or the queue's refusal (disabled configuration, rows that do not exist). */
  #resolve(component: string, config: string | undefined, body: Record<string, unknown>, force: boolean): Omit<JobInput, 'jobId'> | string {
    const configData = body['configData'];
    if (typeof configData === 'object' && configData !== null && !Array.isArray(configData)) {
      return { component, config, configRowIds: [], configurations: [configData as Record<string, unknown>], usesConfigData: true };
    }
    const stored = this.#storage.configs.get(`default/${component}/${config}`);
    if (!stored) return `Configuration "${config}" of component "${component}" not found.`;
    if (stored.isDisabled && !force) return `Configuration "${config}" of component "${component}" is disabled.`;
    const wanted = Array.isArray(body['configRowIds']) ? body['configRowIds'].map(String) : [];
    const rows = wanted.length > 0 ? stored.rows.filter((r) => wanted.includes(r.id)) : stored.rows.filter((r) => !r.isDisabled);
    if (wanted.length > 0 && rows.length === 0) return `None of rows "${wanted.join(', ')}" was found.`;
    const configurations = rows.length === 0 ? [stored.configuration] : rows.map((row) => this.#rowConfiguration(stored, row));
    return { component, config, configRowIds: wanted, configurations, usesConfigData: false };
  }

  #rowConfiguration(config: StoredConfiguration, row: StoredConfiguration): Record<string, unknown> {
    return replaceRecursive(config.configuration, row.configuration) as Record<string, unknown>;
  }

  #record(id: string, component: string, config: string | undefined, body: Record<string, unknown>): Record<string, unknown> {
    const rows = Array.isArray(body['configRowIds']) ? body['configRowIds'] : [];
    const parallelism = body['parallelism'];
    return {
      id,
      runId: id,
      parentRunId: null,
      project: { id: this.#settings.projectId, name: 'Fake project' },
      token: { id: '901', description: 'fake platform token' },
      status: 'created',
      desiredStatus: 'processing',
      mode: body['mode'] ?? 'run',
      component,
      config: config ?? null,
      configData: body['configData'] ?? [],
      configRowIds: rows,
      tag: body['tag'] ?? null,
      createdTime: new Date().toISOString(),
      startTime: null,
      endTime: null,
      durationSeconds: null,
      result: [],
      isFinished: false,
      url: `${this.#settings.queueUrl()}/jobs/${id}`,
      branchId: body['branchId'] ?? null,
      type: parallelism !== undefined && rows.length !== 1 ? 'container' : 'standard',
      parallelism: parallelism ?? null,
    };
  }

  #search(query: URLSearchParams): Record<string, unknown>[] {
    const ids = query.getAll('id[]');
    const statuses = query.getAll('status[]');
    const component = query.get('componentId') ?? query.get('component');
    const config = query.get('configId') ?? query.get('config');
    const list = [...this.jobs.values()]
      .map((j) => j.record)
      .filter((r) => ids.length === 0 || ids.includes(String(r['id'])))
      .filter((r) => statuses.length === 0 || statuses.includes(String(r['status'])))
      .filter((r) => component === null || r['component'] === component)
      .filter((r) => config === null || r['config'] === config)
      .sort((a, b) => Number(b['id']) - Number(a['id']));
    if (query.get('sortOrder') === 'asc') list.reverse();
    const offset = Number(query.get('offset') ?? 0);
    return list.slice(offset, offset + Number(query.get('limit') ?? 100));
  }

  #kill(job: FakeJob): FakeResponse {
    const status = String(job.record['status']);
    if (FINAL.includes(status)) return queueError(400, `Job "${String(job.record['id'])}" is already finished and cannot be killed`);
    Object.assign(job.record, { desiredStatus: 'terminating', status: 'terminating', previousStatus: status });
    this.#storage.log(String(job.record['id']), String(job.record['component']), 'warn', 'Job termination requested');
    return json(202, job.record);
  }

  #advance(job: FakeJob): void {
    const status = String(job.record['status']);
    if (status === 'terminating') this.#stop(job);
    else if (status === 'created' || status === 'waiting') this.#tryStart(job, status);
    else if (status === 'processing' && ++job.steps >= this.#settings.runSteps) this.#finish(job);
  }

  #tryStart(job: FakeJob, status: string): void {
    const running = [...this.jobs.values()].filter((j) => j.record['status'] === 'processing');
    const locked =
      this.#settings.configLock &&
      running.some((j) => j.record['config'] === job.record['config'] && j.record['component'] === job.record['component']);
    const id = String(job.record['id']);
    const component = String(job.record['component']);
    if (running.length >= this.#settings.jobsParallelism || locked) {
      if (status === 'created') {
        job.record['status'] = 'waiting';
        this.#storage.log(
          id,
          component,
          'info',
          locked ? 'Waiting: another job of this configuration is running' : 'Waiting: the project runs its maximum of parallel jobs',
        );
      }
      return;
    }
    job.startedAt = Date.now();
    Object.assign(job.record, { status: 'processing', startTime: new Date().toISOString() });
    this.#storage.log(id, component, 'info', `Running component "${component}"`);
  }

  #finish(job: FakeJob): void {
    const decrypted = this.#decrypt(job.input!);
    const outcome = typeof decrypted === 'string' ? { status: 'error' as const, message: decrypted } : this.#settings.runner(decrypted);
    const id = String(job.record['id']);
    const component = String(job.record['component']);
    for (const line of outcome.events ?? []) this.#storage.log(id, component, 'info', line);
    this.#end(job, outcome.status, outcome.message);
  }

  #stop(job: FakeJob): void {
    this.#end(job, job.record['previousStatus'] === 'processing' ? 'terminated' : 'cancelled', 'Job terminated by the user');
  }

  #end(job: FakeJob, status: string, message: string): void {
    const seconds = job.startedAt === undefined ? 0 : (Date.now() - job.startedAt) / 1000;
    Object.assign(job.record, {
      status,
      isFinished: true,
      endTime: new Date().toISOString(),
      durationSeconds: Math.round(seconds * 10) / 10,
      result: { message },
    });
    const type =
      status === 'success' ? 'success' : status === 'warning' || status === 'cancelled' || status === 'terminated' ? 'warn' : 'error';
    this.#storage.log(
      String(job.record['id']),
      String(job.record['component']),
      type,
      `Job "${String(job.record['id'])}" ended with status "${status}": ${message}`,
    );
  }

  /** The runner decrypts with the job's component, project and `config` (06 §5.2): other ciphers fail the job. */
  #decrypt(input: JobInput): JobInput | string {
    const scope = { componentId: input.component, projectId: this.#settings.projectId, configId: input.config };
    let failure: string | undefined;
    const walk = (value: unknown, key = ''): unknown => {
      if (Array.isArray(value)) return value.map((v) => walk(v, key));
      if (typeof value === 'object' && value !== null) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, walk(v, k)]));
      if (typeof value !== 'string' || !key.startsWith('#') || !value.startsWith('KBC::')) return value;
      const plain = this.#encryption.decrypt(value, scope);
      if (plain === undefined)
        failure ??= `Decryption failed: the value of "${key}" is not a cipher of this project, component and configuration.`;
      return plain;
    };
    const configurations = input.configurations.map((c) => walk(c) as Record<string, unknown>);
    return failure ?? { ...input, configurations };
  }
}
