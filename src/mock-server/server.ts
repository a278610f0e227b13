/**
 * Replay mock server: answers HTTP(S) requests from a folder of API simulations with the rules of
 * keboola/ex-generic-mock-server (see conformance/README.md, "The mock server").
 */
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import {
  effectiveMethod,
  findMatch,
  isMultipartPost,
  nearMisses,
  phpJsonString,
  normalizeHeaders,
  notFoundBody,
  type IncomingRequest,
} from './match.ts';
import { loadSimulations, type HeaderLine, type Sample } from './simulations.ts';

export interface MockServerTlsOptions {
  key: string | Buffer;
  cert: string | Buffer;
  /** CA(s) for client certificates. */
  ca?: string | Buffer | Array<string | Buffer>;
  /** Require a client certificate signed by `ca` (connections without one are refused). */
  requestCert?: boolean;
}

export interface MockServerOptions {
  /** Simulation folder(s); several are searched in the order given. */
  dir: string | string[];
  /** Port to listen on; 0 (default) picks a free one. */
  port?: number;
  /** Address to listen on (default 127.0.0.1). */
  host?: string;
  /** Also use `*.request` files directly in the folder(s) (upstream only looks in sub-folders). */
  flat?: boolean;
  /** Receives one line per request (matched sample or NO MATCH). */
  log?: (line: string) => void;
  /** Serve HTTPS with these credentials. */
  tls?: MockServerTlsOptions;
}

export interface RecordedRequest {
  /** Method as received. */
  method: string;
  /** Method used for matching (after `X-HTTP-Method-Override`). */
  effectiveMethod: string;
  /** Request target as sent (path and query). */
  target: string;
  /** Headers as the matcher saw them: lower-case names, repeated ones joined with ", ". */
  headers: Record<string, string>;
  /** Body bytes as received. */
  body: Buffer;
  /** Name of the matched sample (`001-simple-job/users`), or null. */
  matched: string | null;
  /** Status code sent. */
  status: number;
}

export interface MockServer {
  /** `http://127.0.0.1:PORT` (or `https://...`). */
  url: string;
  port: number;
  /** Stops listening and drops open connections. */
  close(): Promise<void>;
  /** Every request received so far, in arrival order. */
  requests: RecordedRequest[];
  /** The loaded samples, in matching order. */
  samples: readonly Sample[];
}

interface PreparedResponse {
  status: number;
  headers: Array<[string, string]>;
  body: Buffer;
}

// `http://mock-server` or `http://mock-server:80`, not `http://mock-server-behind-proxy` nor `:8080`;
// also JSON-escaped (`http:\/\/mock-server`).
const MOCK_SERVER_URL = /http:(\/\/|\\\/\\\/)mock-server(?::80)?(?![A-Za-z0-9._-]|:\d)/g;

/** Replaces absolute URLs of the upstream mock server with `ownUrl` (text handled as raw bytes). */
export function rewriteMockServerUrls(text: string, ownUrl: string): string {
  const escaped = ownUrl.replaceAll('/', '\\/');
  return text.replace(MOCK_SERVER_URL, (_m, slashes: string) => (slashes === '//' ? ownUrl : escaped));
}

// Set by Node itself; copying them from a file would corrupt the framing.
const SKIPPED_RESPONSE_HEADERS = new Set(['content-length', 'transfer-encoding', 'connection', 'keep-alive']);
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

function htmlResponse(status: number, body: Buffer): PreparedResponse {
  return { status, headers: [['Content-Type', 'text/html; charset=UTF-8']], body };
}

/** The reply to a sample, as Symfony's `Response::prepare()` would send it. */
function prepare(sample: Sample, ownUrl: string): PreparedResponse {
  const status = sample.responseCode;
  if (status < 100 || status >= 600) {
    // Symfony's Response constructor throws; the controller answers 500 with the message.
    const message = phpJsonString(Buffer.from(`Error The HTTP status code "${status}" is not valid.`, 'latin1'));
    return htmlResponse(500, Buffer.from(`{"message":${message}}`, 'latin1'));
  }
  // Like Symfony's header bag: one value per name (the last one written wins), first spelling kept.
  const byName = new Map<string, [string, string]>();
  const lines: HeaderLine[] = sample.responseHeaders ?? [{ name: 'Content-Type', value: 'application/json' }];
  for (const h of lines) {
    const key = h.name.toLowerCase();
    if (!TOKEN.test(h.name) || SKIPPED_RESPONSE_HEADERS.has(key)) continue;
    const prev = byName.get(key);
    byName.set(key, [prev?.[0] ?? h.name, rewriteMockServerUrls(h.value, ownUrl)]);
  }
  const type = byName.get('content-type');
  if (type === undefined || type[1] === '') byName.set('content-type', ['Content-Type', 'text/html; charset=UTF-8']);
  else if (/^text\//i.test(type[1]) && !/charset/i.test(type[1])) type[1] += '; charset=UTF-8';
  let body = Buffer.from(rewriteMockServerUrls(sample.response.toString('latin1'), ownUrl), 'latin1');
  if (status === 204 || status === 304) {
    // Symfony sends neither content nor a content type with these.
    byName.delete('content-type');
    body = Buffer.alloc(0);
  }
  return { status, headers: [...byName.values()], body };
}

/**
 * Symfony's `getRequestUri()`: path and query as sent, without a fragment; an absolute-form target
 * (`http://host/path?q`) loses its scheme and authority.
 */
export function requestUri(target: string): string {
  const hash = target.indexOf('#');
  const t = hash < 0 ? target : target.slice(0, hash);
  const m = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?]*/.exec(t);
  return m === null ? t : t.slice(m[0].length);
}

function urlHost(host: string): string {
  if (host === '0.0.0.0' || host === '') return '127.0.0.1';
  if (host === '::') return '[::1]';
  return host.includes(':') ? `[${host}]` : host;
}

/** Loads the simulations (throws `SimulationError` on duplicates) and starts listening. */
export async function startMockServer(options: MockServerOptions): Promise<MockServer> {
  const samples = loadSimulations(options.dir, { flat: options.flat === true });
  const host = options.host ?? '127.0.0.1';
  const log = options.log ?? (() => {});
  const requests: RecordedRequest[] = [];
  const prepared = new Map<Sample, PreparedResponse>();

  const send = (res: http.ServerResponse, r: PreparedResponse): void => {
    res.statusCode = r.status;
    for (const [name, value] of r.headers) {
      try {
        res.setHeader(name, value);
      } catch (err) {
        log(`  cannot send header ${name}: ${(err as Error).message}`);
      }
    }
    if (r.status !== 204 && r.status !== 304) res.setHeader('Content-Length', r.body.length);
    res.end(r.body);
  };

  const handle = (req: http.IncomingMessage, res: http.ServerResponse, rawBody: Buffer): void => {
    const headers = normalizeHeaders(req.rawHeaders);
    const target = req.url ?? '/';
    const uri = requestUri(target);
    const received = req.method ?? 'GET';
    const { method, error } = effectiveMethod(received, headers);
    const record: RecordedRequest = {
      method: received,
      effectiveMethod: method,
      target,
      headers: Object.fromEntries(headers),
      body: rawBody,
      matched: null,
      status: 0,
    };
    requests.push(record);
    if (error !== undefined) {
      record.status = 400;
      log(`${received} ${uri} -> 400 ${error}`);
      send(res, htmlResponse(400, Buffer.from(error, 'latin1')));
      return;
    }
    const incoming: IncomingRequest = { method, uri, headers, body: isMultipartPost(received, headers) ? Buffer.alloc(0) : rawBody };
    const sample = findMatch(samples, incoming);
    if (sample === undefined) {
      record.status = 404;
      const near = nearMisses(samples, incoming);
      log(`${method} ${uri} -> NO MATCH` + (near.length > 0 ? `; near misses: ${near.join(', ')}` : ''));
      send(res, htmlResponse(404, notFoundBody(method, uri, incoming.body)));
      return;
    }
    const r = prepared.get(sample)!;
    record.matched = sample.name;
    record.status = r.status;
    log(`${method} ${uri} -> ${sample.name} (${r.status})`);
    send(res, r);
  };

  const listener = (req: http.IncomingMessage, res: http.ServerResponse): void => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('error', () => {});
    req.on('end', () => {
      try {
        handle(req, res, Buffer.concat(chunks));
      } catch (err) {
        log(`${req.method} ${req.url} -> 500 ${(err as Error).stack ?? String(err)}`);
        if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'text/plain' });
        res.end();
      }
    });
  };

  const server: http.Server | https.Server = options.tls
    ? https.createServer(
        {
          key: options.tls.key,
          cert: options.tls.cert,
          ...(options.tls.ca !== undefined ? { ca: options.tls.ca } : {}),
          requestCert: options.tls.requestCert === true,
          rejectUnauthorized: options.tls.requestCert === true,
        },
        listener,
      )
    : http.createServer(listener);
  server.on('clientError', (_err, socket) => {
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
    else socket.destroy();
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const url = `${options.tls ? 'https' : 'http'}://${urlHost(host)}:${port}`;
  for (const s of samples) prepared.set(s, prepare(s, url));

  let closing: Promise<void> | undefined;
  return {
    url,
    port,
    requests,
    samples,
    close() {
      closing ??= new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeAllConnections();
      });
      return closing;
    },
  };
}
