/**
 * A fake Keboola stack on 127.0.0.1 for the platform client tests: a storage index, an API portal
 * and a job queue, each on its own port (so each is its own origin), plus an "outsider" server
 * that belongs to no stack. Every server records what it received, token headers included.
 *
 * The queue checks the token and the body of POST /jobs, and moves a job created → processing →
 * final status as it is polled. What happens is chosen by the configuration id:
 *   "ok"        success after one `processing` poll
 *   "slow"      six `processing` polls, then success
 *   "fails"     error (result.message "Extractor failed: boom")
 *   "stuck"     processing for ever
 *   "redirect"  POST /jobs answers 307 to the outsider
 *   "elsewhere" the job record's `url` points at the outsider
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export const TOKEN = '901-12345-TopSecretTokenValue';

export interface Seen {
  server: 'storage' | 'portal' | 'queue' | 'outsider';
  method: string;
  path: string;
  token: string | undefined;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export interface FakeStack {
  storageUrl: string;
  portalUrl: string;
  queueUrl: string;
  outsiderUrl: string;
  seen: Seen[];
  /** Services listed by the index (mutable: tests drop or change entries). */
  services: { id: string; url: string }[];
  /** Answer every queue request with this status (e.g. 503), when set. */
  queueFailure: number | undefined;
  /** Echo the received token in 403 bodies (to check redaction). */
  echoToken: boolean;
  close(): Promise<void>;
}

interface Job {
  record: Record<string, unknown>;
  plan: string[];
  polls: number;
}

function listen(handler: http.RequestListener): Promise<{ server: http.Server; url: string }> {
  const server = http.createServer(handler);
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => resolve({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }));
  });
}

function send(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'Content-Type': 'application/json', ...headers });
  res.end(typeof body === 'string' ? body : JSON.stringify(body));
}

const PLANS: Record<string, string[]> = {
  ok: ['processing', 'success'],
  slow: ['processing', 'processing', 'processing', 'processing', 'processing', 'processing', 'success'],
  fails: ['processing', 'error'],
  stuck: ['processing'],
  elsewhere: ['processing', 'success'],
};

export async function startFakeStack(): Promise<FakeStack> {
  const seen: Seen[] = [];
  const jobs = new Map<string, Job>();
  let nextId = 1000;
  const record =
    (server: Seen['server']) =>
    (req: http.IncomingMessage, body: string): void => {
      const raw = req.headers['x-storageapi-token'];
      seen.push({
        server,
        method: req.method ?? '',
        path: req.url ?? '',
        token: Array.isArray(raw) ? raw[0] : raw,
        headers: req.headers,
        body,
      });
    };
  const withBody = (
    server: Seen['server'],
    handle: (req: http.IncomingMessage, res: http.ServerResponse, body: string) => void,
  ): http.RequestListener => {
    const log = record(server);
    return (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        log(req, body);
        handle(req, res, body);
      });
    };
  };

  const outsider = await listen(withBody('outsider', (_req, res) => send(res, 200, { stolen: true })));

  const queue = await listen(
    withBody('queue', (req, res, body) => {
      if (stack.queueFailure !== undefined)
        return send(res, stack.queueFailure, { error: 'Service temporarily unavailable', code: stack.queueFailure });
      const token = req.headers['x-storageapi-token'];
      if (token !== TOKEN) {
        const echo = stack.echoToken ? ` (got ${String(token)})` : '';
        return send(res, 401, { error: `Invalid access token${echo}`, code: 401, status: 'error' });
      }
      if (req.method === 'POST' && req.url === '/jobs') {
        if (req.headers['content-type'] !== 'application/json') return send(res, 400, { error: 'Content-Type must be application/json' });
        let parsed: Record<string, unknown>;
        try {
          parsed = JSON.parse(body) as Record<string, unknown>;
        } catch {
          return send(res, 400, { error: 'Invalid JSON' });
        }
        if (parsed['config'] === 'redirect') return send(res, 307, '', { Location: `${outsider.url}/jobs` });
        if (parsed['config'] === 'forbidden')
          return send(res, 403, { error: `You do not have access${stack.echoToken ? ` with ${TOKEN}` : ''}` });
        const plan = PLANS[String(parsed['config'])];
        if (!plan) return send(res, 404, { error: `Configuration ${String(parsed['config'])} not found`, code: 404 });
        const id = String(nextId++);
        const parent = req.headers['x-kbc-runid'];
        const job: Job = {
          plan,
          polls: 0,
          record: {
            id,
            runId: parent ? `${String(parent)}.${id}` : id,
            parentRunId: parent ? String(parent) : null,
            project: { id: 1, name: 'Fake' },
            token: { id: '901', description: 'test token' },
            status: 'created',
            desiredStatus: 'processing',
            mode: parsed['mode'],
            component: parsed['component'],
            config: parsed['config'],
            configData: parsed['configData'] ?? [],
            configRowIds: parsed['configRowIds'] ?? [],
            tag: parsed['tag'] ?? null,
            createdTime: '2024-05-01T10:00:00+00:00',
            startTime: null,
            endTime: null,
            durationSeconds: null,
            result: [],
            isFinished: false,
            url: parsed['config'] === 'elsewhere' ? `${outsider.url}/jobs/${id}` : `${queue.url}/jobs/${id}`,
            branchId: parsed['branchId'] ?? null,
            type: 'standard',
            metrics: {},
            behavior: { onError: null },
            customField: 'kept',
          },
        };
        jobs.set(id, job);
        return send(res, 201, job.record);
      }
      const m = /^\/jobs\/([^/?]+)$/.exec(req.url ?? '');
      if (req.method === 'GET' && m) {
        const job = jobs.get(decodeURIComponent(m[1]!));
        if (!job) return send(res, 404, { error: 'Job not found', code: 404 });
        const status = job.plan[Math.min(job.polls, job.plan.length - 1)]!;
        job.polls++;
        const finished = ['success', 'error', 'warning', 'terminated', 'cancelled'].includes(status);
        Object.assign(job.record, { status, isFinished: finished, startTime: '2024-05-01T10:00:01+00:00' });
        if (finished) {
          Object.assign(job.record, {
            endTime: '2024-05-01T10:00:09+00:00',
            durationSeconds: 8,
            result: status === 'error' ? { message: 'Extractor failed: boom' } : { message: 'Component processing finished.' },
          });
        }
        return send(res, 200, job.record);
      }
      return send(res, 404, { error: 'Route not found' });
    }),
  );

  const storage = await listen(
    withBody('storage', (req, res) => {
      if (req.method === 'GET' && req.url === '/v2/storage?exclude=components') {
        return send(res, 200, {
          host: 'connection.fake.test',
          api: 'storage',
          version: 'v2',
          services: stack.services,
          components: [],
          features: [],
        });
      }
      // Events of a job (06 §6): this stack's jobs write none.
      if (req.method === 'GET' && req.url?.startsWith('/v2/storage/events?')) return send(res, 200, []);
      return send(res, 404, { error: 'Route not found' });
    }),
  );

  const portal = await listen(
    withBody('portal', (req, res) => {
      if (req.method === 'GET' && req.url === '/apis.json') {
        return send(res, 200, {
          stack: 'fake.test',
          services: [
            { id: 'storage', name: 'Storage API', apiUrl: storage.url, openApiSpecUrl: `${portal.url}/specs/storage.json` },
            { id: 'queue', name: 'Job Queue API', apiUrl: queue.url, openApiSpecUrl: `${portal.url}/specs/queue.yaml` },
          ],
        });
      }
      return send(res, 404, { error: 'Route not found' });
    }),
  );

  const servers = [outsider.server, queue.server, storage.server, portal.server];
  const stack: FakeStack = {
    storageUrl: storage.url,
    portalUrl: portal.url,
    queueUrl: queue.url,
    outsiderUrl: outsider.url,
    seen,
    services: [
      { id: 'import', url: `${storage.url.replace('127.0.0.1', 'localhost')}/import` },
      { id: 'queue', url: `${queue.url}/` },
      { id: 'sync-actions', url: `${queue.url}/sync` },
    ],
    queueFailure: undefined,
    echoToken: false,
    close: async () => {
      await Promise.all(
        servers.map(
          (s) =>
            new Promise<void>((resolve) => {
              s.closeAllConnections();
              s.close(() => resolve());
            }),
        ),
      );
    },
  };
  return stack;
}
