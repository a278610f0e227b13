/** Shapes of the platform API answers (spec 01 §5); unknown members are kept. */
export interface StorageIndex {
  services: { id: string; url: string }[];
  [key: string]: unknown;
}

export interface PortalService {
  id: string;
  name: string;
  apiUrl: string;
  openApiSpecUrl: string;
  [key: string]: unknown;
}

export interface PortalIndex {
  stack: string;
  services: PortalService[];
  [key: string]: unknown;
}

export interface JobRecord {
  id: string;
  status: string;
  isFinished: boolean;
  url: string;
  [key: string]: unknown;
}

export type JobMode = 'run' | 'forceRun' | 'debug';

export interface CreateJobArgs {
  component: string;
  config: string;
  mode?: JobMode;
  /** Documented extras (configData, configRowIds, branchId, tag, variableValuesData, backend, parallelism), sent after the three fixed keys. */
  extra?: Record<string, unknown>;
  /** Parent run id: sent as `X-KBC-RunId`, making the job a child of that run. */
  parentRunId?: string;
}

export interface WaitOptions {
  /** First pause between polls (default 1000 ms); doubles each time up to `maxIntervalMs`. */
  intervalMs?: number;
  /** Longest pause (default 10000 ms). */
  maxIntervalMs?: number;
  /** Give up after this long (default: wait for ever) with JobWaitTimeoutError. */
  timeoutMs?: number;
  /** Called with every record read while waiting; what it returns is awaited (a promise) before the next pause. */
  onPoll?: (job: JobRecord) => unknown;
  /** Called with a record whose status differs from the one read before it. */
  onStatus?: (job: JobRecord) => void;
  /** The pause between polls (default the client's): fan-out's ends early when it is stopped. */
  sleep?: (ms: number) => Promise<void>;
  /** Stop waiting (Ctrl-C, fail-fast): the last record read is returned. */
  signal?: AbortSignal;
}

/** Statuses after which a job never changes (01 §5.4). */
export const FINAL_STATUSES: readonly string[] = ['success', 'error', 'warning', 'terminated', 'cancelled'];

/** Filters of `GET {queue}/search/jobs` (06 §5.3). */
export interface JobSearch {
  componentId?: string;
  configId?: string;
  status?: readonly string[];
  /** Default 20. */
  limit?: number;
}

/** What `tokens/verify` tells about the token's project (06 §2). */
export interface ProjectInfo {
  projectId: string;
  /** `owner.limits["components.jobsParallelism"].value`, when the answer shows it. */
  jobsParallelism?: number;
}

/** A stored configuration or row (06 §4); unknown members are kept. */
export interface ConfigurationRecord {
  id: string;
  name: string;
  description?: string;
  isDisabled?: boolean;
  version?: number;
  configuration: Record<string, unknown>;
  state?: unknown;
  rows?: ConfigurationRecord[];
  rowsSortOrder?: string[];
  [key: string]: unknown;
}

/** A storage event, a line of a job's log (06 §6). */
export interface EventRecord {
  uuid: string;
  type: string;
  message: string;
  created: string;
  runId?: string;
  [key: string]: unknown;
}
