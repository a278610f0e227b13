/**
 * A fake Keboola platform on 127.0.0.1 for the platform client's tests and its demo: a Storage API
 * (stack index, tokens/verify, configurations and rows, events), a Job Queue API whose jobs move
 * through their statuses over time, can fail and can be killed, and an Encryption API, each on a
 * port of its own (so each is its own origin, as on a real stack). It follows the shapes of spec
 * 06; it runs no extractor: a job's outcome comes from `runner`, which sees the configuration(s)
 * the job would run, decrypted.
 */
import type http from 'node:http';
import { FakeEncryption } from './encryption.ts';
import { close, listen, type SeenRequest } from './http.ts';
import { FakeQueue, type FakeRunner, type JobInput, type JobOutcome } from './queue.ts';
import { FakeStorage } from './storage.ts';

export type { FakeRunner, JobInput, JobOutcome, SeenRequest };

export interface FakePlatformOptions {
  token?: string;
  projectId?: string;
  /** The project's limit of parallel jobs (`components.jobsParallelism`, 10 on the platform). */
  jobsParallelism?: number;
  /** Hold a job in `waiting` while a job of the same configuration runs (the platform's lock may do so, 06 §7). */
  configLock?: boolean;
  /** Milliseconds per step of the jobs' clock (default 20). */
  stepMs?: number;
  /** Steps a job spends in `processing` (default 3). */
  runSteps?: number;
  runner?: FakeRunner;
}

export interface FakePlatform {
  storageUrl: string;
  queueUrl: string;
  encryptionUrl: string;
  token: string;
  projectId: string;
  /** Every request each server received, token headers included. */
  seen: SeenRequest[];
  storage: FakeStorage;
  queue: FakeQueue;
  /** Services listed by the stack index (tests may change them). */
  services: { id: string; url: string }[];
  close(): Promise<void>;
}

function iterationCount(configuration: Record<string, unknown>): number {
  const parameters = configuration['parameters'];
  const iterations =
    typeof parameters === 'object' && parameters !== null ? (parameters as Record<string, unknown>)['iterations'] : undefined;
  return Array.isArray(iterations) ? iterations.length : 1;
}

/** The default "component": succeeds, and says how much it was given. */
export const countingRunner: FakeRunner = (input) => {
  const counts = input.configurations.map(iterationCount);
  const total = counts.reduce((a, b) => a + b, 0);
  return {
    status: 'success',
    message: 'Component processing finished.',
    events: [`Extracting ${total} iteration${total === 1 ? '' : 's'} from ${counts.length} configuration${counts.length === 1 ? '' : 's'}`],
  };
};

export async function startFakePlatform(options: FakePlatformOptions = {}): Promise<FakePlatform> {
  const token = options.token ?? 'fake-0123456789-TopSecretFakeToken';
  const projectId = options.projectId ?? '58';
  const jobsParallelism = options.jobsParallelism ?? 10;
  const seen: SeenRequest[] = [];
  const urls = { queue: '', encryption: '' };
  const platform = { services: [] as { id: string; url: string }[] };
  const storage = new FakeStorage({ token, projectId, jobsParallelism, services: () => platform.services });
  const encryption = new FakeEncryption();
  const queue = new FakeQueue(
    {
      token,
      projectId,
      jobsParallelism,
      configLock: options.configLock ?? false,
      runSteps: options.runSteps ?? 3,
      runner: options.runner ?? countingRunner,
      queueUrl: () => urls.queue,
    },
    storage,
    encryption,
  );
  const servers: http.Server[] = [];
  const start = async (
    name: 'storage' | 'queue' | 'encryption',
    handle: (r: Parameters<FakeQueue['handle']>[0]) => ReturnType<FakeQueue['handle']>,
  ) => {
    const { server, url } = await listen(name, seen, handle);
    servers.push(server);
    return url;
  };
  const storageUrl = await start('storage', (r) => storage.handle(r));
  urls.queue = await start('queue', (r) => queue.handle(r));
  urls.encryption = await start('encryption', (r) => encryption.handle(r));
  platform.services = [
    { id: 'queue', url: urls.queue },
    { id: 'encryption', url: urls.encryption },
  ];
  const clock = setInterval(() => queue.tick(), options.stepMs ?? 20);
  clock.unref();
  return Object.assign(platform, {
    storageUrl,
    queueUrl: urls.queue,
    encryptionUrl: urls.encryption,
    token,
    projectId,
    seen,
    storage,
    queue,
    close: async () => {
      clearInterval(clock);
      await Promise.all(servers.map(close));
    },
  });
}
