/**
 * End-to-end runs of the extractor against a real local HTTP server whose answers are given
 * per request line (`GET /api/users?page=1`, or for POST/FORM `POST /api/x <body>`).
 */
import { after } from 'node:test';
import { runIn, makeDataDir, type RunResult } from '../helpers/dataDir.ts';
import { startServer, type Received, type TestServer } from '../helpers/httpServer.ts';

/** A response: a JSON value (sent with JSON.stringify), raw JSON text, or a function of the request. */
export type Answer = unknown | ((req: Received, base: string) => unknown);

export interface Scenario {
  pagination?: unknown;
  jobs: unknown[];
  /** Request line (`METHOD target`, plus ` body` when there is one) → answer. */
  routes?: Record<string, Answer>;
  /** Fallback for requests not in `routes`. */
  fallback?: (req: Received, base: string) => unknown;
  api?: Record<string, unknown>;
  config?: Record<string, unknown>;
  nowMs?: () => number;
  /** Called for every request before answering (e.g. to advance a clock). */
  onRequest?: (req: Received) => void;
}

export interface Outcome extends RunResult {
  /** Request lines received, in order. */
  requests: string[];
  base: string;
  /** Log lines without the timestamp prefix: `LEVEL: message`. */
  messages: string[];
  /** The CSV of table `b.<name>`. */
  table(name: string): string | undefined;
  /** The error line (last line) of a failed run. */
  errorLine(): string;
}

const servers: TestServer[] = [];
after(async () => {
  for (const s of servers) await s.close();
});

export class RawJson {
  readonly text: string;
  constructor(text: string) {
    this.text = text;
  }
}

export function requestLine(req: Received): string {
  return req.body === '' ? `${req.method} ${req.target}` : `${req.method} ${req.target} ${req.body}`;
}

export async function extract(s: Scenario): Promise<Outcome> {
  let base = '';
  const server = await startServer((req, res) => {
    s.onRequest?.(req);
    const line = requestLine(req);
    let answer: unknown = s.routes && Object.hasOwn(s.routes, line) ? s.routes[line] : undefined;
    if (typeof answer === 'function') answer = (answer as (r: Received, b: string) => unknown)(req, base);
    if (answer === undefined && s.fallback) answer = s.fallback(req, base);
    if (answer === undefined) {
      res.writeHead(404, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ message: `Unknown request ${line}` }));
      return;
    }
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.end(answer instanceof RawJson ? answer.text : JSON.stringify(answer));
  });
  servers.push(server);
  base = server.url;
  const api: Record<string, unknown> = { baseUrl: `${server.url}/api/`, ...(s.api ?? {}) };
  if (s.pagination !== undefined) api['pagination'] = s.pagination;
  const config = { parameters: { api, config: { outputBucket: 'b', debug: true, jobs: s.jobs, ...(s.config ?? {}) } } };
  const result = await runIn(makeDataDir(config), s.nowMs ? { nowMs: s.nowMs } : {});
  const messages = result.lines.map((l) => l.replace(/^\[[^\]]*\] logger\./, '').replace(/ (\[\]|\{.*\}) \[\]$/, ''));
  return {
    ...result,
    requests: server.requests.map(requestLine),
    base,
    messages,
    table: (name) => result.tables()[`b.${name}`],
    errorLine: () => result.lines.at(-1) ?? '',
  };
}

/** Messages at INFO/WARNING level matching `re`. */
export function logged(o: Outcome, re: RegExp): string[] {
  return o.messages.filter((m) => re.test(m));
}

/** `n` records `{id: start..}`. */
export function items(n: number, start = 1): { id: number }[] {
  return Array.from({ length: n }, (_, i) => ({ id: start + i }));
}
