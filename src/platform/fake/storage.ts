/**
 * The fake Storage API: the stack index (no token), `tokens/verify`, configurations and rows on a
 * branch (06 §4), and events (06 §6). Every route but the index checks the token.
 */
import { randomUUID } from 'node:crypto';
import { json, parseJsonBody, storageError, type FakeRequest, type FakeResponse } from './http.ts';

export interface StoredConfiguration {
  id: string;
  name: string;
  description: string;
  isDisabled: boolean;
  version: number;
  changeDescription: string;
  configuration: Record<string, unknown>;
  state: Record<string, unknown>;
  rows: StoredConfiguration[];
  rowsSortOrder: string[];
}

export interface FakeEvent {
  uuid: string;
  type: 'info' | 'success' | 'warn' | 'error';
  message: string;
  runId: string;
  component: string;
  created: string;
}

export interface StorageSettings {
  token: string;
  projectId: string;
  jobsParallelism: number;
  services: () => { id: string; url: string }[];
}

const CONFIG_PATH = /^\/v2\/storage\/branch\/([^/]+)\/components\/([^/]+)\/configs(?:\/([^/]+)(\/rows(?:\/([^/]+))?)?)?$/;
const WRITABLE = ['name', 'description', 'isDisabled', 'changeDescription', 'configuration', 'state'] as const;

export class FakeStorage {
  readonly configs = new Map<string, StoredConfiguration>();
  readonly events: FakeEvent[] = [];
  readonly #settings: StorageSettings;
  #nextId = 7001;

  constructor(settings: StorageSettings) {
    this.#settings = settings;
  }

  static key(component: string, configId: string, branch = 'default'): string {
    return `${branch}/${component}/${configId}`;
  }

  /** Puts a configuration in place as if it had been saved once (version 1): for tests and demos. */
  store(component: string, id: string, configuration: Record<string, unknown>, extra: Partial<StoredConfiguration> = {}): void {
    this.configs.set(FakeStorage.key(component, id), { ...this.#blank(id, id), version: 1, configuration, ...extra });
  }

  handle(req: FakeRequest): FakeResponse {
    if (req.method === 'GET' && req.path === '/v2/storage') return json(200, this.#index(req.query.get('exclude') === 'components'));
    if (req.token !== this.#settings.token) return storageError(401, 'Invalid access token', 'storage.tokenInvalid');
    if (req.method === 'GET' && req.path === '/v2/storage/tokens/verify') return json(200, this.#verify());
    if (req.method === 'GET' && /^\/v2\/storage(\/branch\/[^/]+)?\/events$/.test(req.path)) return json(200, this.#events(req.query));
    const match = CONFIG_PATH.exec(req.path);
    if (match)
      return this.#configRoute(
        req,
        match.slice(1).map((p) => (p === undefined ? undefined : decodeURIComponent(p))),
      );
    return storageError(404, `Route "${req.method} ${req.path}" not found`, 'routeNotFound');
  }

  /** Adds an event to a job's log. */
  log(runId: string, component: string, type: FakeEvent['type'], message: string): void {
    this.events.push({ uuid: randomUUID(), type, message, runId, component, created: new Date().toISOString() });
  }

  #index(excludeComponents: boolean): Record<string, unknown> {
    return {
      host: 'connection.fake.local',
      api: 'storage',
      version: 'v2',
      services: this.#settings.services(),
      features: [],
      ...(excludeComponents ? {} : { components: [] }),
    };
  }

  #verify(): Record<string, unknown> {
    return {
      id: '901',
      description: 'fake platform token',
      isMasterToken: true,
      owner: {
        id: this.#settings.projectId,
        name: 'Fake project',
        limits: { 'components.jobsParallelism': { name: 'components.jobsParallelism', value: this.#settings.jobsParallelism } },
      },
    };
  }

  #events(query: URLSearchParams): FakeEvent[] {
    const runId = query.get('runId');
    let list = this.events.filter((e) => runId === null || e.runId === runId);
    const since = query.get('sinceId');
    if (since !== null) list = list.slice(list.findIndex((e) => e.uuid === since) + 1);
    if (query.get('sortOrder') !== 'asc') list = [...list].reverse();
    return list.slice(0, Math.min(Number(query.get('limit') ?? 100), 10_000));
  }

  #configRoute(req: FakeRequest, [branch, component, configId, rowsPart, rowId]: (string | undefined)[]): FakeResponse {
    const key = FakeStorage.key(component!, configId ?? '', branch);
    if (configId === undefined) {
      if (req.method === 'GET')
        return json(
          200,
          [...this.configs.entries()].filter(([k]) => k.startsWith(`${branch}/${component}/`)).map(([, c]) => c),
        );
      if (req.method === 'POST') return this.#create(req, component!, branch!);
      return storageError(405, 'Method not allowed', 'methodNotAllowed');
    }
    const config = this.configs.get(key);
    if (!config) return storageError(404, `Configuration "${configId}" not found`, 'storage.configuration.notFound');
    if (rowsPart !== undefined && rowId === undefined) return this.#rowsRoute(req, config);
    if (rowId !== undefined) return this.#rowRoute(req, config, rowId);
    if (req.method === 'GET') return json(200, config);
    if (req.method === 'PUT') return this.#update(req, config);
    return storageError(405, 'Method not allowed', 'methodNotAllowed');
  }

  #create(req: FakeRequest, component: string, branch: string): FakeResponse {
    const body = parseJsonBody(req);
    if (!body || typeof body['name'] !== 'string') return storageError(400, 'Invalid request: "name" is required', 'validation');
    const id = typeof body['configurationId'] === 'string' ? body['configurationId'] : String(this.#nextId++);
    if (this.configs.has(FakeStorage.key(component, id, branch)))
      return storageError(400, `Configuration "${id}" already exists`, 'storage.configurations.alreadyExists');
    const config = this.#blank(id, body['name']);
    this.#apply(config, body);
    this.configs.set(FakeStorage.key(component, id, branch), config);
    return json(201, config);
  }

  #update(req: FakeRequest, config: StoredConfiguration): FakeResponse {
    const body = parseJsonBody(req);
    if (!body) return storageError(400, 'Invalid request body', 'validation');
    const order = body['rowsSortOrder'];
    if (Array.isArray(order)) {
      const byId = new Map(config.rows.map((r) => [r.id, r]));
      if (order.length !== byId.size || !order.every((id) => byId.has(String(id))))
        return storageError(400, 'rowsSortOrder must list every row id once', 'validation');
      config.rows = order.map((id) => byId.get(String(id))!);
      config.rowsSortOrder = order.map(String);
    }
    this.#apply(config, body);
    return json(200, config);
  }

  #rowsRoute(req: FakeRequest, config: StoredConfiguration): FakeResponse {
    if (req.method === 'GET') return json(200, config.rows);
    if (req.method !== 'POST') return storageError(405, 'Method not allowed', 'methodNotAllowed');
    const body = parseJsonBody(req) ?? {};
    const id = typeof body['rowId'] === 'string' ? body['rowId'] : String(this.#nextId++);
    if (config.rows.some((r) => r.id === id))
      return storageError(400, `Row "${id}" already exists`, 'storage.configurationRows.alreadyExists');
    const row = this.#blank(id, typeof body['name'] === 'string' ? body['name'] : '');
    this.#apply(row, body);
    config.rows.push(row);
    config.rowsSortOrder = config.rows.map((r) => r.id);
    config.version++;
    return json(201, row);
  }

  #rowRoute(req: FakeRequest, config: StoredConfiguration, rowId: string): FakeResponse {
    const row = config.rows.find((r) => r.id === rowId);
    if (!row) return storageError(404, `Row "${rowId}" not found`, 'storage.configurationRows.notFound');
    if (req.method === 'GET') return json(200, row);
    if (req.method === 'PUT') {
      this.#apply(row, parseJsonBody(req) ?? {});
      config.version++;
      return json(200, row);
    }
    if (req.method === 'DELETE') {
      config.rows = config.rows.filter((r) => r !== row);
      config.rowsSortOrder = config.rows.map((r) => r.id);
      config.version++;
      return { status: 204 };
    }
    return storageError(405, 'Method not allowed', 'methodNotAllowed');
  }

  #blank(id: string, name: string): StoredConfiguration {
    return {
      id,
      name,
      description: '',
      isDisabled: false,
      version: 0,
      changeDescription: '',
      configuration: {},
      state: {},
      rows: [],
      rowsSortOrder: [],
    };
  }

  /** A sent `configuration` replaces the stored one whole; each write is a new version (D-CFG). */
  #apply(target: StoredConfiguration, body: Record<string, unknown>): void {
    for (const key of WRITABLE) if (body[key] !== undefined) (target as unknown as Record<string, unknown>)[key] = body[key];
    target.version++;
  }
}
