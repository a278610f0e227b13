/**
 * A small harness for the authentication tests: a real HTTP client (Transport + HttpClient) with
 * an authenticator built from a JSON configuration, an injectable clock and nonce, and a debug
 * logger whose lines are collected.
 */
import { startServer as startRecordingServer, type Received, type TestServer } from '../helpers/httpServer.ts';
import { createAuthenticator, parseAuthentication, type AuthenticationSetup } from '../../src/auth/index.ts';
import { HttpClient, type ClientResponse, type Signer } from '../../src/http/client.ts';
import { HeaderList, headerValues } from '../../src/http/headers.ts';
import { buildRequest } from '../../src/http/request.ts';
import { DEFAULT_RETRY } from '../../src/http/retry.ts';
import { Transport, type TransportOptions, type WireRequest, type WireResponse } from '../../src/http/transport.ts';
import { decodeJson } from '../../src/php/jsonDecode.ts';
import { PhpArray, type Value } from '../../src/php/value.ts';
import { createLogger, type Logger } from '../../src/logging/logger.ts';

/** A plain JSON value as the configuration loader would give it. */
export function cfg(v: unknown): Value {
  return decodeJson(JSON.stringify(v), 'config');
}

/**
 * Connects to 127.0.0.1:`port` whatever the URL's host is; the Host header and the request
 * target stay those of the URL (like a DNS entry for `mock-server`).
 */
class RoutedTransport extends Transport {
  private readonly port: number;
  constructor(options: TransportOptions, port: number) {
    super(options);
    this.port = port;
  }
  override send(req: WireRequest): Promise<WireResponse> {
    return super.send({ ...req, host: '127.0.0.1', port: this.port });
  }
}

export interface HarnessOptions {
  baseUrl: string;
  /** `api.authentication`. */
  authentication?: unknown;
  /** Configuration attributes (`parameters.config` without jobs). */
  attributes?: unknown;
  /** `authorization.oauth_api.credentials`. */
  oauthCredentials?: unknown;
  legacyQuery?: unknown;
  /** Evaluated client headers (name → value). */
  clientHeaders?: Record<string, unknown>;
  defaultOptions?: unknown;
  /** Milliseconds; a function or a mutable holder. */
  clock?: { ms: number };
  nonce?: (length: number) => string;
  /** Routes every connection to this local port (lets URLs keep hosts like `mock-server`). */
  routeToPort?: number;
  signer?: Signer;
  /** Whole configuration, for secret registration (defaults to the pieces above). */
  secretsFrom?: unknown;
}

export interface Harness {
  logger: Logger;
  lines: string[];
  clock: { ms: number };
  client: HttpClient;
  /** Builds a job request from a description (`endpoint`, `params`, `method`, `headers`) and sends it. */
  send(description: Record<string, unknown>): Promise<ClientResponse>;
  close(): void;
}

export function harness(options: HarnessOptions): Harness {
  const lines: string[] = [];
  const logger = createLogger({ write: (l) => lines.push(l) });
  const clock = options.clock ?? { ms: 1_700_000_000_000 };
  const clientHeaders = new HeaderList();
  for (const [name, value] of Object.entries(options.clientHeaders ?? {})) clientHeaders.append(name, headerValues(cfg(value)));
  const config = new PhpArray([
    ['parameters', cfg({ api: { authentication: options.authentication ?? null }, config: options.attributes ?? {} })],
    ['authorization', cfg({ oauth_api: { credentials: options.oauthCredentials ?? null } })],
  ]);
  logger.secrets.collectFrom(options.secretsFrom !== undefined ? cfg(options.secretsFrom) : config);
  let n = 0;
  const setup: AuthenticationSetup = {
    options: parseAuthentication({
      authentication: options.authentication === undefined ? undefined : cfg(options.authentication),
      legacyQuery: options.legacyQuery === undefined ? undefined : cfg(options.legacyQuery),
      attributes: cfg(options.attributes ?? {}),
      oauthCredentials: options.oauthCredentials === undefined ? undefined : cfg(options.oauthCredentials),
      logger,
    }),
    attributes: cfg(options.attributes ?? {}),
    baseUrl: options.baseUrl,
    logger,
    nowMs: () => clock.ms,
    nonce: options.nonce ?? ((length) => String(++n).padStart(length, '0')),
    clientHeaders: () => clientHeaders,
  };
  const authenticator = createAuthenticator(setup);
  const transportOptions = { connectTimeoutMs: 5000, requestTimeoutMs: 5000 };
  const transport =
    options.routeToPort !== undefined ? new RoutedTransport(transportOptions, options.routeToPort) : new Transport(transportOptions);
  const client = new HttpClient({
    transport,
    retry: { ...DEFAULT_RETRY, maxRetries: 2 },
    logger,
    ...(authenticator ? { authenticator } : {}),
    ...(options.signer ? { signer: options.signer } : {}),
    sleep: async () => {},
    nowMs: () => clock.ms,
  });
  const settings = {
    baseUrl: options.baseUrl,
    clientHeaders,
    defaultOptions: options.defaultOptions === undefined ? undefined : cfg(options.defaultOptions),
  };
  return {
    logger,
    lines,
    clock,
    client,
    send: (description) => client.send(buildRequest(cfg(description) as PhpArray, settings)),
    close: () => transport.close(),
  };
}

/** Builds the authenticator only (for constructor validations). */
export function setupError(options: Omit<HarnessOptions, 'baseUrl'> & { baseUrl?: string }): unknown {
  try {
    harness({ baseUrl: 'http://127.0.0.1:1/', ...options }).close();
    return undefined;
  } catch (e) {
    return e;
  }
}

/** The value of a header as the test server received it (joined like Node does). */
export function header(req: { headers: Record<string, string | string[] | undefined> }, name: string): string | undefined {
  const v = req.headers[name.toLowerCase()];
  return Array.isArray(v) ? v.join(', ') : v;
}

// ---------------------------------------------------------------------------------------------
// A recording HTTP server on 127.0.0.1:0

export type { Received, TestServer };

export type Reply = { status?: number; body?: string; headers?: Record<string, string> };

/** `reply` gets each request (and its 0-based index) and says what to answer (default 200 `[]`). */
export function startServer(reply: (req: Received, index: number) => Reply = () => ({})): Promise<TestServer> {
  return startRecordingServer((req, res, index) => {
    const r = reply(req, index);
    res.writeHead(r.status ?? 200, { 'Content-Type': 'application/json', ...(r.headers ?? {}) });
    res.end(r.body ?? '[]');
  });
}

/** Request line as received: `METHOD target`. */
export function line(r: Received): string {
  return `${r.method} ${r.target}`;
}
