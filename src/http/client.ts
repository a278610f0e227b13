/**
 * The HTTP client of one configuration: redirects outside, retries inside, and for every
 * attempt: authentication, the debug request line, signing, then the wire (02 §1.1).
 */
import { CurlError } from '../errors/CurlError.ts';
import { UserError } from '../errors/UserError.ts';
import type { Logger } from '../logging/logger.ts';
import { HIDDEN, PROTOCOL_HEADERS, type SecretRegistry, SENSITIVE_HEADERS } from '../logging/redact.ts';
import { count, type RunStats } from '../logging/runStats.ts';
import { resolveUrl } from './url.ts';
import { cloneRequest, defaultPort, displayUrl, hostHeader, requestTarget, type PreparedRequest, type RequestUrl } from './prepared.ts';
import { EXTRACTOR_TIMING, retryHeaderValue, shouldRetry, type RetryPolicy, waitEndsInTime } from './retry.ts';
import { checkedRetryWait, sleepAtLeast } from './waits.ts';
import { originOf, sameOrigin } from './origin.ts';
import { withholdCredentials } from './withhold.ts';
import { urlWithUserinfo, userinfoAuthorization } from './userinfo.ts';
import type { Transport, WireResponse } from './transport.ts';
import { MAX_CONTEXT_BODY, bodyExcerpt } from './bodyExcerpt.ts';
import { RateLimiter, systemClock, type Clock, type Permit, type RateLimitOptions } from './rateLimit/index.ts';

export interface Authenticator {
  /** Runs before every attempt (retries and redirect hops included). */
  authenticate(request: PreparedRequest, client: HttpClient): Promise<void>;
  /**
   * True when attempts must not overlap (e.g. a login before every attempt, whose token belongs
   * to the attempt that follows it): the job runner then runs with concurrency 1.
   */
  exclusive?(): boolean;
}

export interface Signer {
  /** Signs the request in place; returns the secrets it computed (the header, the signature inside it). */
  sign(request: PreparedRequest): string[];
}

export interface ClientOptions {
  transport: Transport;
  retry: RetryPolicy;
  logger: Logger;
  authenticator?: Authenticator;
  signer?: Signer;
  sleep?: (ms: number) => Promise<void>;
  nowMs?: () => number;
  /** Called before every attempt after the first (SSH tunnel liveness, 01 §6.1). */
  beforeRetry?: () => Promise<void>;
  /** How redirects are followed (default: the extractor's, EXTRACTOR_REDIRECTS). */
  redirects?: RedirectRules;
  /** Host allow-list check for every URL actually requested (redirects and next-page links included). */
  checkUrl?: (href: string) => void;
  /**
   * Requests on the wire at once per host (scheme, host, port); 1 (the default) = strictly one at
   * a time. Login requests (unauthenticated sends) are not counted.
   */
  concurrency?: number;
  /** Request budget per host and pacing by the API's signals (http/rateLimit/); default: signals only. */
  rateLimit?: RateLimitOptions;
  /** The rate limiter's time (tests); default: `nowMs` and real timers. */
  clock?: Clock;
  /** Counters of the run's end-of-run summary (attempts, retries, bytes). */
  stats?: RunStats;
  /**
   * Whether credentials may be sent to a URL's origin (issue 19 #2). A request outside it is sent
   * without authentication, signing and credential-bearing headers or query values. Absent:
   * everywhere.
   */
  credentialScope?: (url: RequestUrl) => boolean;
  /** Origins already warned about withheld credentials, shared by the run's clients: one WARNING each. */
  withheldFrom?: Set<string>;
  /**
   * Epoch ms (`nowMs`) by which every attempt ends: one still waiting then fails as curl's
   * timeout (error 28). A sync action's answer is due by then; absent: the transport's timeouts.
   */
  attemptsEndBy?: number;
}

/** Per-send options (the job runner's prefetching, see jobs/prefetch.ts). */
export interface SendOptions {
  /** Where this send's log lines go (a deferred logger replayed at the request's turn). */
  logger?: Logger;
  /**
   * The request's position in the sequential order (lexicographic; a prefix comes first). When
   * the host's slots are all taken the earliest waiting position gets the next free one.
   */
  order?: readonly number[];
  /** Once aborted, attempts not yet on the wire are not sent (the run already failed). */
  signal?: AbortSignal;
  /** False: one attempt, never retried (pages fetched ahead: their turn retries them for real). */
  retry?: boolean;
}

export interface ClientResponse extends WireResponse {
  /** The request that produced it (after redirects). */
  request: PreparedRequest;
  /** That request's last attempt as it went on the wire: authentication applied, or credentials withheld. */
  sent: PreparedRequest;
  /** Attempts made for the last hop (1 = no retry). */
  attempts: number;
}

/** Which redirects a client follows, and what a hop keeps of the request. */
export interface RedirectRules {
  /** Redirects followed per request; one more is TooManyRedirects. */
  limit: number;
  /** Statuses followed when they carry a Location; absent: every 3xx. */
  statuses?: readonly number[];
  /**
   * True: a hop other than 307/308 sends no body and no Content-Type, Content-Length or
   * Transfer-Encoding, whatever its method (Python `requests`); false: only a method turned into
   * GET loses its body and length, and the other headers stay (Guzzle, 01 §3.10 item 2).
   */
  bodyOnlyOn307And308?: boolean;
}

/** The extractor's redirects (Guzzle's defaults, 01 §3.10): any 3xx with a Location, at most 5. */
export const EXTRACTOR_REDIRECTS: RedirectRules = { limit: 5 };

/** One redirect more than the limit: the extractor's user error (01 §3.10 item 5). */
export class TooManyRedirects extends UserError {
  readonly limit: number;
  constructor(limit: number) {
    super(`Will not follow more than ${limit} redirects`);
    this.limit = limit;
  }
}

const NO_ORDER: readonly number[] = [];

export class HttpClient {
  readonly options: ClientOptions;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly nowMs: () => number;
  /** Concurrency, budget and pacing per host. */
  readonly rateLimiter: RateLimiter;
  /** Origins already warned about withheld credentials: one WARNING line each. */
  private readonly withheldFrom: Set<string>;

  constructor(options: ClientOptions) {
    this.options = options;
    this.sleep = options.sleep ?? ((ms) => sleepAtLeast(ms));
    this.withheldFrom = options.withheldFrom ?? new Set();
    this.nowMs = options.nowMs ?? Date.now;
    this.rateLimiter = new RateLimiter(
      options.rateLimit ?? { followHeaders: true },
      this.concurrency,
      (message) => options.logger.info(message),
      options.clock ?? { now: this.nowMs, timer: systemClock.timer },
    );
  }

  /** Requests the job runner may have on the wire at once (1 when the authenticator is exclusive). */
  get concurrency(): number {
    if (this.options.authenticator?.exclusive?.()) return 1;
    return Math.max(1, Math.floor(this.options.concurrency ?? 1));
  }

  /**
   * Sends with redirects and retries; authentication applies unless `authenticate` is false
   * (login requests).
   */
  async send(request: PreparedRequest, authenticate = true, options: SendOptions = {}): Promise<ClientResponse> {
    let current = request;
    for (let hops = 0; ; hops++) {
      const response = await this.sendWithRetries(current, authenticate, options);
      const location = response.headers.location;
      const rules = this.options.redirects ?? EXTRACTOR_REDIRECTS;
      if (location === undefined || !followed(rules, response.status)) return { ...response, request: current };
      if (hops >= rules.limit) throw new TooManyRedirects(rules.limit);
      current = this.redirected(current, response.status, Array.isArray(location) ? location[0]! : location, rules);
    }
  }

  private redirected(from: PreparedRequest, status: number, location: string, rules: RedirectRules): PreparedRequest {
    // Resolved against the URL with its password: a Location without a host keeps the credentials.
    const target = resolveUrl(urlWithUserinfo(from.url), location);
    if (target.scheme !== 'http' && target.scheme !== 'https') {
      throw new UserError(
        `The API request failed: [${status}] Redirect URI, ${location}, does not use one of the allowed redirect protocols: http, https`,
      );
    }
    const next = cloneRequest(from);
    next.url = {
      scheme: target.scheme,
      userinfo: target.userinfo,
      host: target.host,
      port: target.port,
      path: target.path,
      query: target.query,
    };
    if (status <= 303 && !['GET', 'HEAD', 'OPTIONS'].includes(from.method)) {
      next.method = 'GET';
      next.body = undefined;
      next.headers.remove('content-length');
    }
    if (rules.bodyOnlyOn307And308 && status !== 307 && status !== 308) {
      next.body = undefined;
      for (const name of ['content-length', 'content-type', 'transfer-encoding']) next.headers.remove(name);
    }
    // By origin, not host: a redirect to another port or scheme of the same host is another server.
    if (!sameOrigin(next.url, from.url)) next.headers.remove('authorization');
    next.headers.set('Host', [hostHeader(next.url)]);
    return next;
  }

  /**
   * Strips credentials from an attempt outside the credential scope; one WARNING per origin, on
   * the run's own logger (a prefetched send's deferred lines may be dropped with the send).
   */
  private withhold(attempt: PreparedRequest, authenticate: boolean, sendLogger: Logger): void {
    const logger = this.options.logger;
    const withheld = withholdCredentials(attempt, sendLogger.secrets);
    if (authenticate && this.options.authenticator) withheld.unshift('authentication');
    if (this.options.signer) withheld.push('AWS signature');
    const origin = `${attempt.url.scheme}://${hostHeader(attempt.url)}`;
    if (withheld.length === 0 || this.withheldFrom.has(origin)) return;
    this.withheldFrom.add(origin);
    logger.warning(
      `Credentials withheld from ${origin} (${withheld.join(', ')}): a redirect or next-page link leads outside the origins they were configured for (base URL, login endpoint, job endpoints, allowed hosts). If the API needs them there, add "${origin}" to parameters.api.credentialOrigins.`,
      { configPath: 'parameters.api.credentialOrigins' },
    );
  }

  private async sendWithRetries(
    request: PreparedRequest,
    authenticate: boolean,
    options: SendOptions,
  ): Promise<WireResponse & { attempts: number; sent: PreparedRequest }> {
    const logger = options.logger ?? this.options.logger;
    const host = originOf(request.url);
    for (let retries = 0; ; retries++) {
      if (retries > 0 && this.options.beforeRetry) await this.options.beforeRetry();
      let response: WireResponse | undefined;
      let failure: CurlError | undefined;
      let attempt: PreparedRequest;
      // Login requests (unauthenticated) take no slot (an attempt holding one may be waiting for the login), but are paced.
      const permit: Permit = await this.rateLimiter.acquire(host, {
        order: options.order ?? NO_ORDER,
        slot: authenticate,
        signal: options.signal,
      });
      try {
        options.signal?.throwIfAborted();
        attempt = cloneRequest(request);
        const trusted = this.options.credentialScope?.(attempt.url) ?? true;
        if (!trusted) this.withhold(attempt, authenticate, logger);
        else if (authenticate && this.options.authenticator) await this.options.authenticator.authenticate(attempt, this);
        this.options.checkUrl?.(displayUrl(attempt.url));
        registerAuthHeaders(attempt, logger.secrets);
        if (logger.isDebug()) logger.debug(debugLine(attempt, logger.secrets));
        if (trusted && this.options.signer) {
          for (const secret of this.options.signer.sign(attempt)) logger.secrets.addRecent(secret);
        }
        if (this.options.stats) this.options.stats.requests++;
        const sentAt = this.nowMs();
        try {
          response = await this.options.transport.send({
            method: attempt.method,
            scheme: attempt.url.scheme,
            host: attempt.url.host,
            port: attempt.url.port ?? defaultPort(attempt.url.scheme),
            target: requestTarget(attempt.url),
            headers: attempt.headers,
            body: attempt.body,
            userinfoAuthorization: userinfoAuthorization(attempt.url.userinfo, logger.secrets),
            ...(this.options.attemptsEndBy === undefined ? {} : { timeoutMs: Math.max(1, this.options.attemptsEndBy - sentAt) }),
          });
        } catch (e) {
          if (!(e instanceof CurlError)) throw e;
          failure = e;
        }
        if (this.options.stats && response) this.options.stats.bytes += response.body.length;
        if (logger.isDebug()) logger.debug(responseLine(attempt, response, failure, this.nowMs() - sentAt));
      } finally {
        permit.done(response ? { status: response.status, headers: response.headers } : undefined);
      }
      const outcome = response ? { status: response.status, headers: response.headers } : { curlCode: failure!.curlCode };
      const retrying = options.retry !== false && shouldRetry(this.options.retry, retries, outcome);
      const delay = retrying ? this.retryWait(retries + 1, attempt, response, logger) : undefined;
      if (delay === undefined) {
        const attempts = retries + 1;
        if (failure && failure.constructor !== CurlError) throw failure; // e.g. SSH tunnel errors carry their own text
        if (failure) {
          // Name the request and the attempts: the curl text alone does not say which request failed.
          const where = `${attempt.method} ${displayUrl(attempt.url)}, after ${attempts} attempt${attempts === 1 ? '' : 's'}`;
          throw new CurlError(failure.curlCode, `${failure.detail} (${where})`, failure.bytesReceived, failure);
        }
        return { ...response!, attempts, sent: attempt };
      }
      const context: Record<string, unknown> = {
        http_code: response ? response.status : null,
        body: response ? contextBody(response.body, logger) : null,
        url: displayUrl(attempt.url),
      };
      if (failure) {
        context['exception_class'] = failure.name;
        context['message'] = failure.message;
      }
      if (this.options.stats) this.options.stats.retries++;
      // The reference logs this at DEBUG only: a refused connection then waits ~17 minutes in
      // silence. At WARNING, with the request, the reason and the attempt count (docs/failures.md, "Retries").
      const reason = response ? `HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''}` : failure!.message;
      logger.warning(
        `Http request failed, retrying in ${(delay / 1000).toFixed(1)} seconds [${retries + 1}x]. ` +
          `${attempt.method} ${displayUrl(attempt.url)}: ${reason} (attempt ${count(retries + 1)} of ${count(this.options.retry.maxRetries + 1)}).`,
        context,
      );
      if (delay > 0) await this.rateLimiter.sleep(delay, this.sleep);
    }
  }

  /**
   * The wait before retry number `retry`, or undefined when that wait would end after the
   * policy's deadline: the last outcome is then final (said once, at INFO).
   */
  private retryWait(retry: number, attempt: PreparedRequest, response: WireResponse | undefined, logger: Logger): number | undefined {
    const policy = this.options.retry;
    const timing = policy.timing ?? EXTRACTOR_TIMING;
    const headerValue = response && retryHeaderValue(response.headers[policy.retryHeader.toLowerCase()]);
    const now = this.nowMs();
    const delay = timing.delayMs(retry, headerValue, Math.floor(now / 1000));
    if (!waitEndsInTime(policy, now, delay)) {
      logger.info(
        `Retries stopped after ${count(retry)} attempt${retry === 1 ? '' : 's'} of ${attempt.method} ${displayUrl(attempt.url)}: ` +
          `the next wait (${(Math.max(0, delay) / 1000).toFixed(1)} s) would end after ${policy.deadline!.reason}; the last ${response ? 'response' : 'failure'} stands.`,
      );
      return undefined;
    }
    return checkedRetryWait(delay, {
      request: `${attempt.method} ${displayUrl(attempt.url)}`,
      retry,
      ...(headerValue !== undefined ? { header: { name: policy.retryHeader, value: headerValue } } : {}),
    });
  }
}

/** Whether a response of `status` with a Location is followed under `rules`. */
function followed(rules: RedirectRules, status: number): boolean {
  return rules.statuses ? rules.statuses.includes(status) : status >= 300 && status < 400;
}

/** Values of headers set by authentication are secrets of this attempt (issue 19 #1). */
function registerAuthHeaders(req: PreparedRequest, secrets: SecretRegistry): void {
  for (const name of req.authHeaders) {
    const value = req.headers.get(name);
    if (value !== undefined) secrets.addHeaderValue(value, true);
  }
}

/** A response body for a log context: redacted before it is cut, so no secret is half shown. */
function contextBody(body: Buffer, logger: Logger): string {
  const text = logger.secrets.redact(body.subarray(0, MAX_CONTEXT_BODY * 4).toString('utf8'));
  // Retry lines are WARNINGs: without debug, a maintenance page 10 times over must not flood the log.
  const limit = logger.isDebug() ? MAX_CONTEXT_BODY : RETRY_BODY_CHARS;
  if (text.length <= limit && body.length <= MAX_CONTEXT_BODY * 4) return text;
  return limit === MAX_CONTEXT_BODY ? bodyExcerpt(text, body.length) : `${text.slice(0, limit)} (truncated, ${body.length} bytes in total)`;
}

/** Characters of a response body in a retry line without debug (the whole body with debug, up to 16 KiB). */
const RETRY_BODY_CHARS = 1024;

/** The debug line after each attempt (beyond the reference): status, size and time of the answer. */
function responseLine(req: PreparedRequest, response: WireResponse | undefined, failure: CurlError | undefined, ms: number): string {
  const what = `${req.method} ${displayUrl(req.url)}`;
  if (response === undefined) return `No response after ${count(ms)} ms: ${failure?.message ?? 'unknown failure'} (${what})`;
  const status = `${response.status}${response.statusText ? ` ${response.statusText}` : ''}`;
  return `Response ${status}, ${count(response.body.length)} bytes in ${count(ms)} ms (${what})`;
}

/**
 * The debug request line (01 §4.4), with credentials hidden (01 §4.5): sensitive and
 * authentication headers whole, and any header whose value is a registered secret.
 */
export function debugLine(req: PreparedRequest, secrets?: SecretRegistry): string {
  const lines = [`${req.method} ${requestTarget(req.url)} HTTP/1.1`];
  for (const { name, values } of req.headers.entries) {
    const lower = name.toLowerCase();
    const hidden =
      SENSITIVE_HEADERS.has(lower) ||
      req.authHeaders.has(lower) ||
      (!PROTOCOL_HEADERS.has(lower) && (secrets?.hides(values.join(', ')) ?? false));
    lines.push(`${name}: ${hidden ? HIDDEN : values.join(', ')}`);
  }
  return lines.join('\r\n').trimEnd();
}
