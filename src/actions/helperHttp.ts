/**
 * The sync actions' requests, sent through the extractor's own HTTP client and transport
 * (src/http/): retries, redirects and the wire are shared. What is the helper's (spec 05 §4.2,
 * §4.3): its default headers (those of Python `requests`), its retry settings (`maxRetries`,
 * `codes`) and timing, its redirects, no pacing by rate-limit headers, the response headers as
 * received, and one `debug_log` line per request.
 */
import type { HelperAuthenticator, HelperLoginRequest, HelperLoginResponse } from '../auth/helper.ts';
import { HttpClient, type RedirectRules } from '../http/client.ts';
import { HeaderList } from '../http/headers.ts';
import { hostHeader, type PreparedRequest, type RequestUrl, requestTarget } from '../http/prepared.ts';
import { HELPER_RETRIED_WITH_HEADER, HELPER_RETRY_TIMING } from '../http/helperRetryTiming.ts';
import { DEFAULT_RETRY, type RetryPolicy } from '../http/retry.ts';
import { Transport } from '../http/transport.ts';
import { originOf } from '../http/origin.ts';
import { resolveUrl } from '../http/url.ts';
import type { Logger } from '../logging/logger.ts';
import { SecretRegistry } from '../logging/redact.ts';
import type { Value } from '../php/value.ts';
import type { HelperConfiguration } from './configuration.ts';
import { HelperError } from './envelope.ts';
import { pythonStr } from './pythonValues.ts';

export type HeaderPairs = [string, string][];

/** A request as the answer shows it (`request` of test_request). */
export interface ReportedRequest {
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
  /** The request as it went on the wire (after redirects, with authentication). */
  request: ReportedRequest;
}

/**
 * A request ready for the client, and its URL's `scheme://authority` as written: `requests`
 * reports an explicit `:80` that the parsed URL drops.
 */
export interface BuiltRequest {
  prepared: PreparedRequest;
  authority: string;
}

/**
 * Redirects as Python `requests` follows them (spec 05 §4.3): up to 30 per request (its
 * `DEFAULT_REDIRECT_LIMIT`), only 301, 302, 303, 307 and 308 (its `REDIRECT_STATI`: a 300 with a
 * Location is the final response), and a hop other than 307/308 goes without body, Content-Type
 * and Content-Length (its `resolve_redirects`), so the answer's `request` shows what was sent.
 */
export const HELPER_REDIRECTS: RedirectRules = { limit: 30, statuses: [301, 302, 303, 307, 308], bodyOnlyOn307And308: true };

/** The headers Python `requests` sends before the configured ones. */
const LIBRARY_HEADERS: HeaderPairs = [
  ['User-Agent', 'python-requests/2.32.3'],
  ['Accept-Encoding', 'gzip, deflate'],
  ['Accept', '*/*'],
  ['Connection', 'keep-alive'],
];

/** `scheme://authority` of an absolute URL. */
const AUTHORITY = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?#]*/;

/** A request to `url` with the library's headers, or the error `requests` raises for an unusable URL. */
export function newRequest(method: 'GET' | 'POST', url: string): BuiltRequest {
  const parsed = parseRequestUrl(url);
  const headers = new HeaderList();
  headers.append('Host', [hostHeader(parsed)]);
  for (const [name, value] of LIBRARY_HEADERS) headers.append(name, [value]);
  return { prepared: { method, url: parsed, headers, body: undefined, authHeaders: new Set() }, authority: AUTHORITY.exec(url)![0] };
}

/** A body with its length, and its content type unless one is configured. */
export function setBody(request: PreparedRequest, text: string, contentType: string): void {
  request.body = Buffer.from(text, 'utf8');
  request.headers.replace('Content-Length', [String(request.body.length)]);
  if (!request.headers.has('content-type')) request.headers.append('Content-Type', [contentType]);
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

/** When an action's HTTP work must be over for its answer to reach the UI in time (index.ts). */
export interface AnswerDeadlines {
  /** Epoch ms after which no retry pause may end: the last response or failure is answered instead. */
  retriesEndBy: number;
  /** Epoch ms by which every attempt ends (a stalled server fails as curl's timeout). */
  attemptsEndBy: number;
  /** The retry budget in seconds from the action's start, for the line that says retries stopped. */
  budgetSeconds: number;
}

/**
 * The time of an action's requests: the client's clock and its retry pauses. Tests pass one that
 * moves without waiting, so the helper's waits can be counted against a real server.
 */
export interface ActionClock {
  nowMs(): number;
  /** A retry pause, ended at once by the action's time limit (`signal`). */
  pause(ms: number, signal: AbortSignal): Promise<void>;
}

/**
 * What the helper's HTTP session reads of the action context (context.ts's `ActionContext` has
 * these members).
 */
export interface HttpSessionContext {
  configuration: Pick<HelperConfiguration, 'retry' | 'tls'>;
  /** Aborted when the time limit is reached: no new request or pause starts after that. */
  signal: AbortSignal;
  /** When retry pauses and attempts must be over for the answer to reach the UI in time. */
  deadlines: AnswerDeadlines;
  /** Lines of `debug_log` (spec 05 §5.2). */
  debugLog: string[];
  /** Applied by the client before every attempt inside the credential scope. */
  auth: HelperAuthenticator;
  /** Absent: the real clock (`Date.now`, `abortablePause`). */
  clock?: ActionClock;
}

/**
 * Where credentials go (issue 32 #1): the extraction's credential scope (config/credentialOrigins.ts)
 * — the origins of the base URL, the login endpoint, absolute job endpoints and
 * `api.credentialOrigins`. Outside it an attempt goes without authentication and without the
 * headers and query values that carry a secret (`secrets`: the answer's masked values, read
 * before every request: a value a user function derives from a secret while the request is
 * built, an HMAC header, counts too).
 */
export interface CredentialLimits {
  scope: (url: RequestUrl) => boolean;
  secrets: () => readonly string[];
}

/**
 * The helper's retry settings and timing (spec 05 §4.3: no wait before the first retry, then
 * 0.6, 1.2, 2.4 … s; `Retry-After` replaces the wait, and a 413, 429 or 503 carrying it is retried
 * though not among `codes`), bounded by the answer's budget: a retry
 * whose pause would end after it is not made, and the last response or network failure is
 * answered as when the retries run out (§4.3 allows stopping early; the platform waits only 30 s).
 */
function retryPolicy(ctx: HttpSessionContext): RetryPolicy {
  const { maxRetries, codes } = ctx.configuration.retry;
  const { retriesEndBy, budgetSeconds } = ctx.deadlines;
  return {
    maxRetries,
    retryHeader: 'Retry-After',
    httpCodes: codes.filter((c): c is number => typeof c === 'number'),
    curlCodes: DEFAULT_RETRY.curlCodes,
    timing: HELPER_RETRY_TIMING,
    retriedWithHeader: HELPER_RETRIED_WITH_HEADER,
    deadline: {
      atMs: retriesEndBy,
      reason: `the sync action's retry budget (${budgetSeconds} s from its start: the platform waits 30 s for its answer)`,
    },
  };
}

/**
 * Server certificates are checked unless `api.ssl_verify` turns them off (spec 05 §4.2 step 9;
 * a CA certificate wins). Turned off, `debug_log` says so — stderr stays empty (§1.6).
 */
function certificatesChecked(ctx: HttpSessionContext): boolean {
  if (!ctx.configuration.tls.verifyOff) return true;
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
 * A retry pause that the action's time limit ends at once (the retry deadline has already kept
 * it short). Its abort listener goes with it: one left behind per pause made Node print
 * MaxListenersExceededWarning on stderr after ten, and stderr must stay empty.
 */
export function abortablePause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

export class HelperHttp {
  private readonly ctx: HttpSessionContext;
  private readonly transport: Transport;
  /** One client for the login and the API requests: one retry policy, one pacing per host. */
  private readonly client: HttpClient;
  private readonly clientLogger: Logger;
  private readonly limits: CredentialLimits;

  constructor(ctx: HttpSessionContext, limits: CredentialLimits) {
    this.ctx = ctx;
    const { ca, clientCertificate: cert } = ctx.configuration.tls;
    const verify = certificatesChecked(ctx);
    this.transport = new Transport({
      connectTimeoutMs: 60_000,
      requestTimeoutMs: 60_000,
      ...(ca ? { ca } : {}),
      ...(verify ? {} : { verifyCertificates: false }),
      ...(cert ? { cert, key: cert } : {}),
    });
    const logger = this.logger();
    this.clientLogger = logger;
    this.limits = limits;
    this.client = new HttpClient({
      transport: this.transport,
      retry: retryPolicy(ctx),
      logger,
      sleep: (ms) => (ctx.clock?.pause ?? abortablePause)(ms, ctx.signal),
      ...(ctx.clock ? { nowMs: () => ctx.clock!.nowMs() } : {}),
      redirects: HELPER_REDIRECTS,
      // The helper paces nothing: its only waits are its retries'. Held by a RateLimit reset of
      // 40 s, a 429 asking for 1 s ran into the 60 s limit (exit 2) instead of being retried.
      rateLimit: { followHeaders: false },
      authenticator: ctx.auth,
      credentialScope: limits.scope,
      withheldFrom: new Set<string>(),
      attemptsEndBy: ctx.deadlines.attemptsEndBy,
    });
  }

  /** The client's retry messages go to `debug_log`; nothing reaches stdout or stderr. */
  private logger(): Logger {
    return linesLogger((message) => this.ctx.debugLog.push(message));
  }

  close(): void {
    this.transport.close();
  }

  /** The login request (spec 05 §2.5): sent once, unauthenticated, no retries. */
  async login(request: HelperLoginRequest): Promise<HelperLoginResponse> {
    const built = newRequest(request.method, request.url);
    for (const [name, value] of request.headers) built.prepared.headers.replace(name, [value]);
    if (request.body !== null) setBody(built.prepared, request.body.text, request.body.contentType);
    const response = await this.send(built, { authenticated: false });
    return { status: response.status, reason: response.reason, text: response.text, url: response.request.url };
  }

  /**
   * Sends one request, authenticated by the client and retried by the action's policy; the
   * login (`authenticated: false`) goes out once, unauthenticated (spec 05 §2.5 step 3).
   */
  async send(built: BuiltRequest, { authenticated } = { authenticated: true }): Promise<HelperResponse> {
    this.ctx.signal.throwIfAborted();
    for (const secret of this.limits.secrets()) this.clientLogger.secrets.add(secret);
    const response = await this.client.send(built.prepared, authenticated, { retry: authenticated });
    const sent = response.sent;
    const target = requestTarget(sent.url);
    const length = response.headers['content-length'] ?? 'None';
    this.ctx.debugLog.push(`${originOf(sent.url)} "${sent.method} ${target} HTTP/1.1" ${response.status} ${length}`);
    const authority = response.request === built.prepared ? built.authority : `${sent.url.scheme}://${hostHeader(sent.url)}`;
    return {
      status: response.status,
      reason: response.statusText,
      headers: receivedHeaders(response.rawHeaders ?? []),
      text: response.body.toString('utf8'),
      request: {
        method: sent.method === 'POST' ? 'POST' : 'GET',
        url: `${authority}${target}`,
        headers: sent.headers.entries.filter((e) => e.name !== 'Host').map((e) => [e.name, e.values.join(', ')]),
        body: sent.body === undefined ? null : sent.body.toString('utf8'),
      },
    };
  }
}

/** A logger whose every line goes to `write` (the actions' `debug_log`), whatever its level. */
export function linesLogger(write: (message: string, context?: Record<string, unknown>) => void): Logger {
  return {
    debug: write,
    info: write,
    warning: write,
    error: write,
    setLevel: () => {},
    isDebug: () => false,
    secrets: new SecretRegistry(),
  };
}

/** The URL parts of a request, with the errors `requests` raises for unusable URLs. */
function parseRequestUrl(url: string): RequestUrl {
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
  const { userinfo, host, port, path, query } = resolved;
  return { scheme: resolved.scheme, userinfo, host, port, path, query };
}
