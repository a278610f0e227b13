/**
 * The wire under the platform client: one HTTP exchange with a platform service, the token rule
 * (01 §5.5) enforced before anything leaves the process, retries of reads, and errors that name
 * the service, the HTTP status and the platform's own message (06 §1.2).
 *
 * The token goes only to origins that `trustedOrigins` lists (the stack's storage host and the
 * services of its own index), only over https (plain http for loopback hosts when
 * `allowHttpLoopback` is set: tests and the fake platform), and never through a redirect.
 */
import { InvalidTokenError } from './errors/InvalidTokenError.ts';
import { MissingTokenError } from './errors/MissingTokenError.ts';
import { PlatformApiError } from './errors/PlatformApiError.ts';
import { StackUnreachableError } from './errors/StackUnreachableError.ts';
import { UnexpectedResponseError } from './errors/UnexpectedResponseError.ts';
import { UntrustedHostError } from './errors/UntrustedHostError.ts';
import { tokenRedactor } from './redaction.ts';
import { hasAllowedScheme } from './stacks.ts';

/** The services, by the names errors use for them. */
export type ServiceName = 'Storage API' | 'Job Queue API' | 'Encryption API' | 'API portal';

export interface SendOptions {
  service: ServiceName;
  withToken: boolean;
  /** A JSON body (serialised here) or raw text (sent as text/plain). */
  json?: unknown;
  text?: string;
  headers?: Record<string, string>;
  /** Retry 5xx answers and dropped connections: reads only; a create or a kill is never repeated (06 §1.2). */
  retry: boolean;
}

export interface TransportOptions {
  token: string | undefined;
  fetch: typeof fetch;
  allowHttpLoopback: boolean;
  timeoutMs: number;
  retryDelaysMs: readonly number[];
  sleep: (ms: number) => Promise<void>;
  trustedOrigins: () => Promise<Set<string>>;
}

/** Network failures worth another try; refused and unresolvable hosts are not. */
const TRANSIENT = new Set([
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
]);

export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function oneLine(text: string, max = 300): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}

function networkReason(error: unknown, timeoutMs: number): { reason: string; transient: boolean } {
  const err = error as Error & { cause?: unknown };
  if (err.name === 'TimeoutError' || err.name === 'AbortError')
    return { reason: `no answer within ${timeoutMs / 1000} s`, transient: true };
  const cause = (err.cause ?? err) as NodeJS.ErrnoException & { errors?: NodeJS.ErrnoException[] };
  const code = cause.code ?? cause.errors?.[0]?.code ?? '';
  switch (code) {
    case 'ECONNREFUSED':
      return { reason: 'connection refused', transient: false };
    case 'ENOTFOUND':
    case 'EAI_NONAME':
    case 'EAI_AGAIN':
      return { reason: 'host not found', transient: false };
    default:
      return { reason: oneLine(cause.message || err.message || String(err)), transient: TRANSIENT.has(code) };
  }
}

/**
 * The platform's message from an error body (06 §1.2): `error` of every service, with Storage's
 * string `code`; a maintenance answer's `reason`; else the body itself on one line.
 */
export function platformMessage(body: string): string {
  let data: unknown;
  try {
    data = JSON.parse(body);
  } catch {
    return oneLine(body);
  }
  if (!isObject(data)) return oneLine(body);
  if (typeof data['error'] === 'string') {
    const code = typeof data['code'] === 'string' ? ` (${data['code']})` : '';
    return oneLine(`${data['error']}${code}`);
  }
  if (data['status'] === 'maintenance' && typeof data['reason'] === 'string') return oneLine(`maintenance: ${data['reason']}`);
  return oneLine(body);
}

export class PlatformTransport {
  readonly #options: TransportOptions;
  readonly #redact: (text: string) => string;

  constructor(options: TransportOptions) {
    this.#options = options;
    this.#redact = tokenRedactor(options.token);
  }

  get hasToken(): boolean {
    return this.#options.token !== undefined;
  }

  /** Hides the token where it stands as a value (an API that echoes it must not make us print it). */
  redact(text: string): string {
    return this.#redact(text);
  }

  /** Throws UntrustedHostError unless `url` may receive the token. */
  async assertTokenTarget(url: string, stackUrl: string): Promise<void> {
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      throw new UntrustedHostError(url, 'not a URL.');
    }
    if (!hasAllowedScheme(target, this.#options.allowHttpLoopback))
      throw new UntrustedHostError(target.origin, 'the token is sent over https only.');
    if (!(await this.#options.trustedOrigins()).has(target.origin)) {
      throw new UntrustedHostError(
        target.origin,
        `it is not a service of the stack ${stackUrl} (a token works only on the stack that issued it).`,
      );
    }
  }

  /** One exchange whose answer must be JSON. */
  async json(method: string, url: string, stackUrl: string, options: SendOptions): Promise<unknown> {
    const { status, text } = await this.send(method, url, stackUrl, options);
    if (status === 204) return undefined;
    try {
      return JSON.parse(text);
    } catch {
      throw new UnexpectedResponseError({ service: options.service, method, url, status }, 'a body that is not JSON', text, this.#redact);
    }
  }

  /** One exchange (with retries of a read); returns a 2xx answer or throws a PlatformApiError. */
  async send(method: string, url: string, stackUrl: string, options: SendOptions): Promise<{ status: number; text: string }> {
    const init = await this.#request(method, url, stackUrl, options);
    for (let attempt = 0; ; attempt++) {
      const delay = options.retry ? this.#options.retryDelaysMs[attempt] : undefined;
      let response: Response;
      try {
        response = await this.#options.fetch(url, { ...init, signal: AbortSignal.timeout(this.#options.timeoutMs) });
      } catch (e) {
        const { reason, transient } = networkReason(e, this.#options.timeoutMs);
        if (transient && delay !== undefined) {
          await this.#options.sleep(delay);
          continue;
        }
        throw new StackUnreachableError(new URL(url).origin, reason, e);
      }
      const text = await response.text().catch(() => '');
      if (response.status >= 500 && delay !== undefined) {
        await this.#options.sleep(delay);
        continue;
      }
      if (response.status >= 200 && response.status < 300) return { status: response.status, text };
      throw this.#failure(method, url, options.service, response, text);
    }
  }

  async #request(method: string, url: string, stackUrl: string, options: SendOptions): Promise<RequestInit> {
    const headers: Record<string, string> = { Accept: 'application/json', ...options.headers };
    if (options.withToken) {
      if (this.#options.token === undefined) throw new MissingTokenError();
      await this.assertTokenTarget(url, stackUrl);
      headers['X-StorageApi-Token'] = this.#options.token;
    }
    let body: string | undefined;
    if (options.json !== undefined) {
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(options.json);
    } else if (options.text !== undefined) {
      headers['Content-Type'] = 'text/plain';
      headers['Accept'] = 'text/plain';
      body = options.text;
    }
    // A redirect could carry the token header to another host: never follow one.
    return { method, headers, redirect: 'manual', ...(body !== undefined ? { body } : {}) };
  }

  #failure(method: string, url: string, service: ServiceName, response: Response, text: string): PlatformApiError {
    const status = response.status;
    const body = this.redact(text);
    if (status >= 300 && status < 400) {
      const location = this.redact(response.headers.get('location') ?? '');
      return new PlatformApiError(
        `${service}: HTTP ${status} from ${method} ${url}: redirect to "${location}" not followed.`,
        status,
        body,
      );
    }
    if (/invalid (access )?token/i.test(text)) {
      return new InvalidTokenError(
        `Invalid Token: the ${service} at ${new URL(url).host} rejected the Storage API token (HTTP ${status} from ${method} ${url}). A token works only on the stack that issued it.`,
        status,
        body,
      );
    }
    const message = body === '' ? '' : `: ${platformMessage(body)}`;
    return new PlatformApiError(`${service}: HTTP ${status} from ${method} ${url}${message}`, status, body);
  }
}
