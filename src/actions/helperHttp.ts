/**
 * The sync actions' requests, sent through the extractor's own HTTP client and transport
 * (src/http/): retries, redirects and the wire are shared. What is the helper's (spec 05 §4.2,
 * §4.3): its default headers (those of Python `requests`), its retry settings (`maxRetries`,
 * `codes`), no per-request timeout (the action's 60 s limit bounds everything), the response
 * headers as received, and one `debug_log` line per request.
 */
import { HttpClient } from '../http/client.ts';
import { HeaderList } from '../http/headers.ts';
import type { PreparedRequest } from '../http/prepared.ts';
import { DEFAULT_RETRY, type RetryPolicy } from '../http/retry.ts';
import { Transport } from '../http/transport.ts';
import { resolveUrl } from '../http/url.ts';
import type { Logger } from '../logging/logger.ts';
import { SecretRegistry } from '../logging/redact.ts';
import { PhpFloat, type Value } from '../php/value.ts';
import { objectAt } from './dialect.ts';
import { HelperError } from './envelope.ts';
import { pythonStr, pythonTruthy } from './pythonValues.ts';

export type HeaderPairs = [string, string][];

export interface HelperRequest {
  method: 'GET' | 'POST';
  url: string;
  headers: HeaderPairs;
  body: string | null;
}

export interface HelperResponse {
  status: number;
  reason: string;
  headers: HeaderPairs;
  text: string;
  /** The request as it was sent (after redirects). */
  request: HelperRequest;
}

/** Redirects Python `requests` follows per request (its `DEFAULT_REDIRECT_LIMIT`, spec 05 §4.3). */
export const HELPER_MAX_REDIRECTS = 30;

/** The headers Python `requests` sends before the configured ones. */
export const LIBRARY_HEADERS: HeaderPairs = [
  ['User-Agent', 'python-requests/2.32.3'],
  ['Accept-Encoding', 'gzip, deflate'],
  ['Accept', '*/*'],
  ['Connection', 'keep-alive'],
];

/** Sets a header in place (case-insensitive name, the new spelling) or appends it. */
export function setHeader(headers: HeaderPairs, name: string, value: string): void {
  const i = headers.findIndex(([n]) => n.toLowerCase() === name.toLowerCase());
  if (i >= 0) headers[i] = [name, value];
  else headers.push([name, value]);
}

/** Python's `quote_plus`: unreserved characters kept, space as `+`, UTF-8 percent-encoding. */
export function quotePlus(s: string): string {
  return encodeURIComponent(s)
    .replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/%20/g, '+');
}

/** `urlencode(params, doseq=True)` as `requests` does it: null values dropped, lists repeated. */
export function formEncode(params: Iterable<readonly [string, Value]>): string {
  const parts: string[] = [];
  for (const [k, v] of params) {
    if (v === null || v === undefined) continue;
    for (const item of Array.isArray(v) ? v : [v]) {
      if (item === null) continue;
      parts.push(`${quotePlus(k)}=${quotePlus(pythonStr(item))}`);
    }
  }
  return parts.join('&');
}

/**
 * What the helper's HTTP session reads of the action context (context.ts's `ActionContext` has
 * these members; the context builds the authentication, which uses this session).
 */
export interface HttpSessionContext {
  /** `parameters.api`: retries, certificates, `ssl_verify`. */
  api: Map<string, Value>;
  /** Aborted when the time limit is reached: no new request or pause starts after that. */
  signal: AbortSignal;
  /** Epoch ms after which no retry pause may end. */
  deadlineMs: number;
  /** Lines of `debug_log` (spec 05 §5.2). */
  debugLog: string[];
}

function retryPolicy(ctx: HttpSessionContext): RetryPolicy {
  const http = objectAt(ctx.api, 'http');
  const max = http.get('maxRetries');
  const codes = http.get('codes');
  return {
    maxRetries: typeof max === 'number' ? max : max instanceof PhpFloat ? Math.trunc(max.value) : 10,
    retryHeader: 'Retry-After',
    httpCodes: Array.isArray(codes) ? codes.filter((c): c is number => typeof c === 'number') : DEFAULT_RETRY.httpCodes,
    curlCodes: DEFAULT_RETRY.curlCodes,
  };
}

function pem(v: Value | undefined): string | undefined {
  return typeof v === 'string' && v.trim() !== '' ? v : undefined;
}

/**
 * Whether server certificates are checked (spec 05 §4.2 step 9): a CA certificate wins; otherwise
 * `api.ssl_verify`, which `requests` reads by truthiness (`false`, `0`, `""` turn checks off;
 * missing or null keep them on). Turned off, `debug_log` says so — stderr stays empty (§1.6).
 */
function certificatesChecked(ctx: HttpSessionContext, ca: string | undefined): boolean {
  const sslVerify = ctx.api.get('ssl_verify');
  if (ca !== undefined || sslVerify === undefined || sslVerify === null || pythonTruthy(sslVerify)) return true;
  ctx.debugLog.push(
    "WARNING: api.ssl_verify is false: the API's TLS certificate is not checked, so anyone on the way can read or change " +
      'these requests, credentials included. To trust a private or self-signed certificate, set api.caCertificate instead.',
  );
  return false;
}

/** Response headers as received: first spelling of a name kept, repeats joined with `, `. */
function receivedHeaders(raw: readonly string[]): HeaderPairs {
  const out: HeaderPairs = [];
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const at = out.findIndex(([n]) => n.toLowerCase() === raw[i]!.toLowerCase());
    if (at >= 0) out[at]![1] += `, ${raw[i + 1]!}`;
    else out.push([raw[i]!, raw[i + 1]!]);
  }
  return out;
}

/**
 * Retries stopped because the next pause would end after the action's time limit: the last
 * failure is reported instead of the reference's timeout (spec 05 §4.3 allows either).
 */
export class RetriesStopped extends Error {
  readonly status: number | null;
  readonly body: string;
  constructor(status: number | null, body: string, message: string) {
    super(message);
    this.status = status;
    this.body = body;
  }
}

export class HelperHttp {
  private readonly ctx: HttpSessionContext;
  /** Context of the client's last "retrying" message: the failure a stop reports. */
  private lastFailure: Record<string, unknown> = {};
  private readonly transport: Transport;
  private readonly withRetries: HttpClient;
  private readonly once: HttpClient;

  constructor(ctx: HttpSessionContext) {
    this.ctx = ctx;
    const ca = pem(ctx.api.get('caCertificate'));
    const cert = pem(ctx.api.get('#clientCertificate'));
    const verify = certificatesChecked(ctx, ca);
    this.transport = new Transport({
      connectTimeoutMs: 60_000,
      requestTimeoutMs: 60_000,
      ...(ca ? { ca } : {}),
      ...(verify ? {} : { verifyCertificates: false }),
      ...(cert ? { cert, key: cert } : {}),
    });
    const logger = this.logger();
    const sleep = (ms: number): Promise<void> =>
      new Promise((resolve, reject) => {
        if (ctx.signal.aborted) return reject(ctx.signal.reason);
        if (Date.now() + ms > ctx.deadlineMs) {
          const f = this.lastFailure;
          const status = typeof f['http_code'] === 'number' ? f['http_code'] : null;
          return reject(new RetriesStopped(status, String(f['body'] ?? ''), String(f['message'] ?? '')));
        }
        const timer = setTimeout(resolve, ms);
        ctx.signal.addEventListener('abort', () => {
          clearTimeout(timer);
          reject(ctx.signal.reason);
        });
      });
    this.withRetries = new HttpClient({
      transport: this.transport,
      retry: retryPolicy(ctx),
      logger,
      sleep,
      maxRedirects: HELPER_MAX_REDIRECTS,
    });
    this.once = new HttpClient({
      transport: this.transport,
      retry: { ...DEFAULT_RETRY, maxRetries: 0 },
      logger,
      sleep,
      maxRedirects: HELPER_MAX_REDIRECTS,
    });
  }

  /** The client's retry messages go to `debug_log`; nothing reaches stdout or stderr. */
  private logger(): Logger {
    const push = (message: string, context?: Record<string, unknown>): void => {
      if (message.startsWith('Http request failed') && context) this.lastFailure = context;
      this.ctx.debugLog.push(message);
    };
    return {
      debug: push,
      info: push,
      warning: push,
      error: push,
      setLevel: () => {},
      isDebug: () => false,
      secrets: new SecretRegistry(),
    };
  }

  close(): void {
    this.transport.close();
  }

  /** Sends one request; `retries` false for the login request (sent once, §2.5). */
  async send(request: HelperRequest, retries = true): Promise<HelperResponse> {
    this.ctx.signal.throwIfAborted();
    const url = parseRequestUrl(request.url);
    const headers = new HeaderList();
    headers.append('Host', [url.port === undefined ? url.host : `${url.host}:${url.port}`]);
    for (const [name, value] of request.headers) headers.append(name, [value]);
    const prepared: PreparedRequest = {
      method: request.method,
      url: {
        scheme: url.scheme as 'http' | 'https',
        userinfo: url.userinfo,
        host: url.host,
        port: url.port,
        path: url.path,
        query: url.query,
      },
      headers,
      body: request.body === null ? undefined : Buffer.from(request.body, 'utf8'),
      authHeaders: new Set(),
    };
    const response = await (retries ? this.withRetries : this.once).send(prepared, false);
    const sent = response.request;
    const port = sent.url.port ?? (sent.url.scheme === 'https' ? 443 : 80);
    const target = sent.url.query ? `${sent.url.path || '/'}?${sent.url.query}` : sent.url.path || '/';
    const length = response.headers['content-length'] ?? 'None';
    this.ctx.debugLog.push(
      `${sent.url.scheme}://${sent.url.host}:${port} "${sent.method} ${target} HTTP/1.1" ${response.status} ${length}`,
    );
    const redirected = sent !== prepared;
    return {
      status: response.status,
      reason: response.statusText,
      headers: receivedHeaders(response.rawHeaders ?? []),
      text: response.body.toString('utf8'),
      request: redirected
        ? {
            method: sent.method === 'POST' ? 'POST' : 'GET',
            url: `${sent.url.scheme}://${sent.url.host}${sent.url.port ? `:${sent.url.port}` : ''}${target}`,
            headers: sent.headers.entries.filter((e) => e.name !== 'Host').map((e) => [e.name, e.values.join(', ')]),
            body: sent.body === undefined ? null : sent.body.toString('utf8'),
          }
        : request,
    };
  }
}

/** The URL parts of a request, with the errors `requests` raises for unusable URLs. */
function parseRequestUrl(url: string) {
  if (!/^[A-Za-z][A-Za-z0-9+.-]*:/.test(url)) {
    throw new HelperError(
      'requests.exceptions.MissingSchema',
      `Invalid URL '${url}': No scheme supplied. Perhaps you meant https://${url}?`,
    );
  }
  const resolved = resolveUrl(url, '');
  if (resolved.scheme !== 'http' && resolved.scheme !== 'https') {
    throw new HelperError('requests.exceptions.InvalidSchema', `No connection adapters were found for '${url}'`);
  }
  if (resolved.host === '') throw new HelperError('requests.exceptions.InvalidURL', `Invalid URL '${url}': No host supplied`);
  return resolved;
}
