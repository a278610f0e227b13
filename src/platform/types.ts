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
  /** Called with every record read while waiting. */
  onPoll?: (job: JobRecord) => void;
}

/** Statuses after which a job never changes (01 §5.4). */
export const FINAL_STATUSES: readonly string[] = ['success', 'error', 'warning', 'terminated', 'cancelled'];
