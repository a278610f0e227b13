/**
 * The SSH proxy (spec 01 §6.1) as an in-process client: every HTTP connection of the run is a
 * `direct-tcpip` channel of one shared SSH connection, opened to the target host:port by the
 * SSH server (so names resolve on the server side, like socks5h in the reference).
 *
 * Wiring: `Transport({ connect: tunnel.connect })`, `HttpClient({ beforeRetry: tunnel.beforeRetry })`,
 * and `await tunnel.close()` when the run ends (the connection keeps the process alive).
 */
import type { Duplex } from 'node:stream';
import type { Client, ConnectConfig } from 'ssh2';
import type { Logger } from '../logging/logger.ts';
import type { SshProxyConfig } from './options.ts';
import { SshTunnelError } from '../errors/SshTunnelError.ts';

export interface SshTunnel {
  /** Opens a connection to host:port through the tunnel; opens the tunnel itself on first use. */
  connect(host: string, port: number): Promise<Duplex>;
  /** Before each HTTP retry: reopens a tunnel that has died. Never throws. */
  beforeRetry(): Promise<void>;
  /** Ends the SSH connection. */
  close(): Promise<void>;
  /** Whether the SSH connection is currently up. */
  readonly alive: boolean;
}

export interface SshTunnelOptions {
  /** Opening attempts (default 5, like the reference); each retry is logged `… Retrying... [Nx]`. */
  attempts?: number;
  /** Pause after failed attempt `n` (1-based); default 1 s, 2 s, 4 s, 8 s. */
  backoffMs?: (attempt: number) => number;
  /** Limit for TCP connect + handshake + authentication of one attempt (default 10 s). */
  readyTimeoutMs?: number;
  /** SSH keep-alive interval (default 10 s; one unanswered keep-alive ends the connection). */
  keepaliveIntervalMs?: number;
  sleep?: (ms: number) => Promise<void>;
}

const DEFAULTS = {
  attempts: 5,
  backoffMs: (attempt: number) => 1000 * 2 ** (attempt - 1),
  readyTimeoutMs: 10_000,
  keepaliveIntervalMs: 10_000,
};

/** A connect failure the transport maps to a network error (curl 7), which the retry policy may retry. */
function networkError(message: string, cause?: unknown): NodeJS.ErrnoException {
  const error = new Error(message, cause === undefined ? undefined : { cause }) as NodeJS.ErrnoException;
  error.code = 'ECONNREFUSED';
  return error;
}

/**
 * ssh2 is loaded at the first opening, so only runs with `sshProxy` load it (it is a large module
 * tree, kept outside the extractor's bundle because of its optional native part).
 */
let ssh2: Promise<typeof import('ssh2')> | undefined;
const loadSsh2 = (): Promise<typeof import('ssh2')> => (ssh2 ??= import('ssh2'));

/**
 * The text OpenSSH would have printed on stderr for a failed attempt. `keyProblem`: why the
 * private key could not be loaded (OpenSSH then connects without it and is refused).
 */
export function describeOpenError(error: unknown, config: SshProxyConfig, keyProblem?: string): string {
  const err = error as NodeJS.ErrnoException & { level?: string };
  if (keyProblem !== undefined && err.level === 'client-authentication') {
    return `Load key "#privateKey": invalid format (${keyProblem}) ${config.user}@${config.host}: Permission denied (publickey).`;
  }
  const where = `ssh: connect to host ${config.host} port ${config.port}`;
  switch (err.code) {
    case 'ECONNREFUSED':
      return `${where}: Connection refused`;
    case 'ETIMEDOUT':
      return `${where}: Connection timed out`;
    case 'EHOSTUNREACH':
      return `${where}: No route to host`;
    case 'ENETUNREACH':
      return `${where}: Network is unreachable`;
    case 'ENOTFOUND':
    case 'EAI_NONAME':
      return `ssh: Could not resolve hostname ${config.host}: Name or service not known`;
    case 'EAI_AGAIN':
      return `ssh: Could not resolve hostname ${config.host}: Temporary failure in name resolution`;
    default:
  }
  if (err.level === 'client-authentication') return `${config.user}@${config.host}: Permission denied (publickey).`;
  if (err.level === 'client-timeout') return `${where}: ${err.message}`;
  return String(err.message ?? err);
}

class Tunnel implements SshTunnel {
  private readonly config: SshProxyConfig;
  private readonly logger: Logger;
  private readonly options: Required<SshTunnelOptions>;
  private client: Client | undefined;
  private opening: Promise<Client> | undefined;
  /** The failure of the first opening: later connections fail the same way at once. */
  private failure: SshTunnelError | undefined;
  private closed = false;
  private everOpened = false;
  alive = false;

  constructor(config: SshProxyConfig, logger: Logger, options: SshTunnelOptions) {
    this.config = config;
    this.logger = logger;
    this.options = {
      attempts: Math.max(1, options.attempts ?? DEFAULTS.attempts),
      backoffMs: options.backoffMs ?? DEFAULTS.backoffMs,
      readyTimeoutMs: options.readyTimeoutMs ?? DEFAULTS.readyTimeoutMs,
      keepaliveIntervalMs: options.keepaliveIntervalMs ?? DEFAULTS.keepaliveIntervalMs,
      sleep: options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms))),
    };
    this.connect = this.connect.bind(this);
    this.beforeRetry = this.beforeRetry.bind(this);
    this.close = this.close.bind(this);
  }

  async connect(host: string, port: number): Promise<Duplex> {
    if (this.closed) throw networkError('The SSH tunnel is closed.');
    let client: Client;
    if (this.opening) {
      try {
        client = await this.opening;
      } catch (e) {
        // A failed reopening is not this connection's error (01 §6.1 item 4): it fails as a network error.
        if (this.everOpened) throw networkError('SSH tunnel is not alive.', e);
        throw e;
      }
    } else if (this.client === undefined) {
      if (this.failure) throw this.failure;
      try {
        client = await this.open();
      } catch (e) {
        this.failure = e as SshTunnelError;
        throw e;
      }
    } else if (this.alive) client = this.client;
    else throw networkError('SSH tunnel is not alive.');
    return this.forward(client, host, port);
  }

  async beforeRetry(): Promise<void> {
    // Never opened yet, or being opened: the next connection attempt takes care of it.
    if (this.closed || this.opening || this.client === undefined || this.alive) return;
    this.logger.debug('SSH tunnel is not alive. Reconnecting ...');
    try {
      await this.open();
    } catch {
      // Ignored (01 §6.1 item 4): the request then fails with its own network error.
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.opening) await this.opening.catch(() => undefined);
    const client = this.client;
    this.client = undefined;
    this.alive = false;
    if (client) await endClient(client);
  }

  private open(): Promise<Client> {
    this.opening ??= this.openWithAttempts().finally(() => {
      this.opening = undefined;
    });
    return this.opening;
  }

  private async openWithAttempts(): Promise<Client> {
    this.logger.info(`Creating SSH tunnel to '${this.config.host}' ...`);
    if (this.config.privateKey === '') throw new SshTunnelError('Key must not be empty');
    // `utils` is not among the named exports Node detects in ssh2's CommonJS module.
    const ssh2Module = (await loadSsh2()) as typeof import('ssh2') & { default?: typeof import('ssh2') };
    const utils = ssh2Module.utils ?? ssh2Module.default!.utils;
    // A key ssh2 cannot read does not stop the attempts: OpenSSH (the reference) warns, connects
    // without it and is refused, and the reference retries that like any other failure.
    const parsed = utils.parseKey(this.config.privateKey);
    const keyProblem = parsed instanceof Error ? parsed.message : undefined;
    let last = '';
    for (let attempt = 1; attempt <= this.options.attempts; attempt++) {
      try {
        const client = await this.connectOnce(keyProblem === undefined);
        if (this.closed) {
          await endClient(client);
          throw networkError('The SSH tunnel is closed.');
        }
        const previous = this.client;
        this.client = client;
        this.alive = true;
        this.everOpened = true;
        if (previous) void endClient(previous);
        this.logger.debug('SSH tunnel created.');
        return client;
      } catch (e) {
        last = `Unable to create ssh tunnel. Output:  ErrorOutput: ${describeOpenError(e, this.config, keyProblem)}`;
        if (this.closed) break;
        if (attempt < this.options.attempts) {
          // The reference's retry proxy: INFO `<message>. Retrying... [<retry number>x]`.
          this.logger.info(`${last}. Retrying... [${attempt}x]`);
          await this.options.sleep(this.options.backoffMs(attempt));
        }
      }
    }
    throw new SshTunnelError(last);
  }

  /** One attempt: TCP connect, handshake, authentication (with the key unless it is unreadable). */
  private async connectOnce(withKey: boolean): Promise<Client> {
    const { Client } = await loadSsh2();
    return new Promise<Client>((resolve, reject) => {
      const client = new Client();
      let settled = false;
      const settle = (error: Error | undefined): void => {
        if (settled) return;
        settled = true;
        if (error) {
          client.end();
          reject(error);
        } else resolve(client);
      };
      client.once('ready', () => settle(undefined));
      // The listener stays for the client's lifetime: later errors (keep-alive timeout, reset) only mark it dead.
      client.on('error', (error) => {
        if (!settled) settle(error);
        else this.markDead(client);
      });
      client.on('close', () => {
        ended.add(client);
        if (!settled) settle(new Error('Connection closed by remote host'));
        else this.markDead(client);
      });
      const config: ConnectConfig = {
        host: this.config.host,
        port: this.config.port,
        username: this.config.user,
        ...(withKey ? { privateKey: this.config.privateKey } : {}),
        readyTimeout: this.options.readyTimeoutMs,
        keepaliveInterval: this.options.keepaliveIntervalMs,
        keepaliveCountMax: 1,
        // No host-key checking, like the reference (StrictHostKeyChecking=no).
        hostVerifier: () => true,
      };
      try {
        client.connect(config);
      } catch (e) {
        settle(e as Error);
      }
    });
  }

  private markDead(client: Client): void {
    if (this.client === client) this.alive = false;
  }

  private forward(client: Client, host: string, port: number): Promise<Duplex> {
    const target = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
    return new Promise<Duplex>((resolve, reject) => {
      try {
        client.forwardOut('127.0.0.1', 0, target, port, (error, channel) => {
          if (error) reject(networkError(`The SSH server could not connect to ${target} port ${port}: ${error.message}`, error));
          else resolve(channel);
        });
      } catch (e) {
        this.markDead(client);
        reject(networkError(`SSH tunnel is not alive: ${(e as Error).message}`, e));
      }
    });
  }
}

/** Clients whose connection has closed. */
const ended = new WeakSet<Client>();

function endClient(client: Client): Promise<void> {
  return new Promise<void>((resolve) => {
    if (ended.has(client)) {
      resolve();
      return;
    }
    const timer = setTimeout(() => {
      client.destroy();
      resolve();
    }, 1000);
    client.once('close', () => {
      clearTimeout(timer);
      resolve();
    });
    client.end();
  });
}

/**
 * Creates the tunnel of a run from `parameters.sshProxy` (parsed by options.ts); nothing is opened until the first
 * connection. Key presence was checked up front (01 §2.4 S1); an empty key fails at opening.
 */
export function createSshTunnel(config: SshProxyConfig, logger: Logger, options: SshTunnelOptions = {}): SshTunnel {
  if (config.privateKey !== '') logger.secrets.add(config.privateKey);
  return new Tunnel(config, logger, options);
}
