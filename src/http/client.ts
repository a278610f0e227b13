/**
 * The HTTP client of one configuration: redirects outside, retries inside, and for every
 * attempt: authentication, the debug request line, signing, then the wire (02 §1.1).
 */
import { CurlError } from '../errors/CurlError.ts';
import { UserError } from '../errors/UserError.ts';
import type { Logger } from '../logging/logger.ts';
import { HIDDEN, SENSITIVE_HEADERS } from '../logging/redact.ts';
import { resolveUrl } from './url.ts';
import { cloneRequest, defaultPort, displayUrl, hostHeader, requestTarget, type PreparedRequest } from './prepared.ts';
import { retryDelayMs, shouldRetry, type RetryPolicy } from './retry.ts';
import type { Transport, WireResponse } from './transport.ts';

export interface Authenticator {
  /** Runs before every attempt (retries and redirect hops included). */
  authenticate(request: PreparedRequest, client: HttpClient): Promise<void>;
}

export interface Signer {
  sign(request: PreparedRequest): void;
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
  /** Host allow-list check for every URL actually requested (redirects and next-page links included). */
  checkUrl?: (href: string) => void;
}

export interface ClientResponse extends WireResponse {
  /** The request that produced it (after redirects). */
  request: PreparedRequest;
}

const MAX_REDIRECTS = 5;

export class HttpClient {
  readonly options: ClientOptions;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly nowMs: () => number;

  constructor(options: ClientOptions) {
    this.options = options;
    this.sleep = options.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms)));
    this.nowMs = options.nowMs ?? Date.now;
  }

  /** Sends with redirects and retries; authentication applies unless `authenticate` is false (login requests). */
  async send(request: PreparedRequest, authenticate = true): Promise<ClientResponse> {
    let current = request;
    for (let hops = 0; ; hops++) {
      const response = await this.sendWithRetries(current, authenticate);
      const location = response.headers.location;
      if (response.status < 300 || response.status >= 400 || location === undefined) return { ...response, request: current };
      if (hops >= MAX_REDIRECTS) throw new UserError(`Will not follow more than ${MAX_REDIRECTS} redirects`);
      current = this.redirected(current, response.status, Array.isArray(location) ? location[0]! : location);
    }
  }

  private redirected(from: PreparedRequest, status: number, location: string): PreparedRequest {
    const target = resolveUrl(displayUrl(from.url).replace(':***@', '@'), location);
    if (target.scheme !== 'http' && target.scheme !== 'https') {
      throw new UserError(`The API request failed: [${status}] Redirect URI, ${location}, does not use one of the allowed redirect protocols: http, https`);
    }
    const next = cloneRequest(from);
    next.url = { scheme: target.scheme, userinfo: target.userinfo, host: target.host, port: target.port, path: target.path, query: target.query };
    if (status <= 303 && !['GET', 'HEAD', 'OPTIONS'].includes(from.method)) {
      next.method = 'GET';
      next.body = undefined;
      next.headers.remove('content-length');
    }
    if (next.url.host !== from.url.host) next.headers.remove('authorization');
    next.headers.set('Host', [hostHeader(next.url)]);
    return next;
  }

  private async sendWithRetries(request: PreparedRequest, authenticate: boolean): Promise<WireResponse> {
    for (let retries = 0; ; retries++) {
      if (retries > 0 && this.options.beforeRetry) await this.options.beforeRetry();
      const attempt = cloneRequest(request);
      if (authenticate && this.options.authenticator) await this.options.authenticator.authenticate(attempt, this);
      this.options.checkUrl?.(displayUrl(attempt.url));
      if (this.options.logger.isDebug()) this.options.logger.debug(debugLine(attempt));
      this.options.signer?.sign(attempt);
      let response: WireResponse | undefined;
      let failure: CurlError | undefined;
      try {
        response = await this.options.transport.send({
          method: attempt.method,
          scheme: attempt.url.scheme,
          host: attempt.url.host,
          port: attempt.url.port ?? defaultPort(attempt.url.scheme),
          target: requestTarget(attempt.url),
          headers: attempt.headers,
          body: attempt.body,
        });
      } catch (e) {
        if (!(e instanceof CurlError)) throw e;
        failure = e;
      }
      const outcome = response ? { status: response.status, headers: response.headers } : { curlCode: failure!.curlCode };
      if (!shouldRetry(this.options.retry, retries, outcome)) {
        if (failure) throw failure;
        return response!;
      }
      const headerName = this.options.retry.retryHeader.toLowerCase();
      const raw = response?.headers[headerName];
      const headerValue = raw === undefined ? undefined : Array.isArray(raw) ? raw.join(', ') : raw;
      const delay = retryDelayMs(retries + 1, headerValue, Math.floor(this.nowMs() / 1000));
      const context: Record<string, unknown> = {
        http_code: response ? response.status : null,
        body: response ? response.body.toString('utf8') : null,
        url: displayUrl(attempt.url),
      };
      if (failure) {
        context['exception_class'] = failure.name;
        context['message'] = failure.message;
      }
      this.options.logger.debug(`Http request failed, retrying in ${(delay / 1000).toFixed(1)} seconds [${retries + 1}x].`, context);
      if (delay > 0) await this.sleep(delay);
    }
  }
}

/** The debug request line (01 §4.4), with credentials hidden (01 §4.5). */
export function debugLine(req: PreparedRequest): string {
  const lines = [`${req.method} ${requestTarget(req.url)} HTTP/1.1`];
  for (const { name, values } of req.headers.entries) {
    const lower = name.toLowerCase();
    const hidden = SENSITIVE_HEADERS.has(lower) || req.authHeaders.has(lower);
    lines.push(`${name}: ${hidden ? HIDDEN : values.join(', ')}`);
  }
  return lines.join('\r\n').trimEnd();
}
