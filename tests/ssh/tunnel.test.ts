/**
 * The SSH proxy (spec 01 §6.1) against a real OpenSSH server on 127.0.0.1: HTTP requests of the
 * extractor's own client (Transport + HttpClient) travel through `direct-tcpip` channels.
 */
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import https from 'node:https';
import net from 'node:net';
import { after, before, describe, test } from 'node:test';
import { HttpClient, type ClientResponse } from '../../src/http/client.ts';
import { HeaderList } from '../../src/http/headers.ts';
import type { PreparedRequest } from '../../src/http/prepared.ts';
import { DEFAULT_RETRY } from '../../src/http/retry.ts';
import { Transport } from '../../src/http/transport.ts';
import { createLogger } from '../../src/logging/logger.ts';
import { sshProxyConfig } from '../../src/ssh/options.ts';
import { createSshTunnel, SshTunnelError, type SshTunnel, type SshTunnelOptions } from '../../src/ssh/index.ts';
import { cfg } from '../auth/helpers.ts';
import { json, startServer, type TestServer } from '../helpers/httpServer.ts';
import { freePort, sshdUnavailable, startRelay, startSshd, type Sshd } from './sshd.ts';
import { opensslMissing, selfSignedCertificate } from '../helpers/tls.ts';

// Skipped test by test, not as a suite: a skipped suite hides its tests from the summary's count.
const unavailable = sshdUnavailable();
if (unavailable) process.stdout.write(`# SKIP sshd tunnel tests: ${unavailable}\n`);

const FAST: SshTunnelOptions = { backoffMs: () => 20, readyTimeoutMs: 5000 };

interface Setup {
  tunnel: SshTunnel;
  client: HttpClient;
  lines: string[];
  transport: Transport;
  close(): Promise<void>;
}

function setup(section: Record<string, unknown>, options: SshTunnelOptions = FAST, maxRetries = 2): Setup {
  const lines: string[] = [];
  const logger = createLogger({ write: (l) => lines.push(l) });
  const tunnel = createSshTunnel(sshProxyConfig(cfg(section)), logger, options);
  const transport = new Transport({ connectTimeoutMs: 10_000, requestTimeoutMs: 10_000, connect: tunnel.connect });
  const client = new HttpClient({
    transport,
    retry: { ...DEFAULT_RETRY, maxRetries },
    logger,
    beforeRetry: tunnel.beforeRetry,
    sleep: async () => {},
  });
  return {
    tunnel,
    client,
    lines,
    transport,
    close: async () => {
      transport.close();
      await tunnel.close();
    },
  };
}

function get(host: string, port: number, path: string): PreparedRequest {
  return {
    method: 'GET',
    url: { scheme: 'http', userinfo: undefined, host, port, path, query: undefined },
    headers: HeaderList.from([['Host', [`${host}:${port}`]]]),
    body: undefined,
    authHeaders: new Set(),
  };
}

/** The retry lines of the tunnel opening, without timestamps and empty context. */
function retryLines(lines: string[]): string[] {
  return messages(lines).filter((l) => l.includes('Retrying...'));
}

function messages(lines: string[]): string[] {
  return lines.map((l) => l.replace(/^\[[^\]]+\] /, '').replace(/ \[\] \[\]$/, ''));
}

async function elapsed<T>(run: () => Promise<T>): Promise<{ ms: number; result: PromiseSettledResult<T> }> {
  const started = Date.now();
  const [result] = await Promise.allSettled([run()]);
  return { ms: Date.now() - started, result: result! };
}

describe('SSH tunnel through a real sshd', { timeout: 60_000 }, () => {
  let sshd: Sshd;
  let api: TestServer;

  before(async () => {
    if (unavailable !== undefined) return;
    sshd = await startSshd();
    api = await startServer((req, res) => {
      if (req.target === '/users')
        json(res, 200, [
          { id: 1, name: 'Ann' },
          { id: 2, name: 'Bob' },
        ]);
      else json(res, 404, { error: 'not found' });
    });
  });

  after(async () => {
    await api?.close();
    await sshd?.stop();
  });

  const section = (over: Record<string, unknown> = {}): Record<string, unknown> => ({
    host: '127.0.0.1',
    port: String(sshd.port),
    user: sshd.user,
    '#privateKey': sshd.privateKey,
    ...over,
  });

  test('requests travel through direct-tcpip channels; the target name is resolved by the server', {
    skip: unavailable ?? false,
  }, async () => {
    const s = setup(section());
    try {
      assert.equal(s.tunnel.alive, false, 'nothing is opened before the first request');
      const first: ClientResponse = await s.client.send(get('localhost', api.port, '/users'));
      assert.equal(first.status, 200);
      assert.deepEqual(JSON.parse(first.body.toString('utf8')), [
        { id: 1, name: 'Ann' },
        { id: 2, name: 'Bob' },
      ]);
      // Concurrent and sequential requests share the one SSH connection.
      const more = await Promise.all([1, 2, 3].map(() => s.client.send(get('localhost', api.port, '/users'))));
      assert.deepEqual(
        more.map((r) => r.status),
        [200, 200, 200],
      );
      const missing = await s.client.send(get('localhost', api.port, '/nope'));
      assert.equal(missing.status, 404);
      assert.equal(s.tunnel.alive, true);
      const log = messages(s.lines);
      assert.deepEqual(
        log.filter((l) => l.includes('SSH tunnel')),
        ["logger.INFO: Creating SSH tunnel to '127.0.0.1' ...", 'logger.DEBUG: SSH tunnel created.'],
      );
      assert.ok(!s.lines.join('\n').includes('PRIVATE KEY'), 'the key never reaches the log');
    } finally {
      await s.close();
    }
    assert.equal(api.requests.length, 5);
    // sshd itself opened the connections, to the name it was given.
    assert.match(sshd.log(), new RegExp(`direct_tcpip: originator 127\\.0\\.0\\.1 port 0, target localhost port ${api.port}`));
  });

  test('requests started together before the tunnel exists share one opening', { skip: unavailable ?? false }, async () => {
    const s = setup(section());
    try {
      const responses = await Promise.all([1, 2, 3, 4].map(() => s.client.send(get('127.0.0.1', api.port, '/users'))));
      assert.deepEqual(
        responses.map((r) => r.status),
        [200, 200, 200, 200],
      );
      assert.equal(messages(s.lines).filter((l) => l.includes('Creating SSH tunnel')).length, 1);
      assert.equal(messages(s.lines).filter((l) => l.includes('SSH tunnel created.')).length, 1);
    } finally {
      await s.close();
    }
  });

  test('a dead tunnel is reopened before the retry', { skip: unavailable ?? false }, async () => {
    const relay = await startRelay(sshd.port);
    const s = setup(section({ port: relay.port }));
    try {
      assert.equal((await s.client.send(get('127.0.0.1', api.port, '/users'))).status, 200);
      relay.cut();
      for (let i = 0; i < 100 && s.tunnel.alive; i++) await new Promise((r) => setTimeout(r, 20));
      assert.equal(s.tunnel.alive, false, 'the client noticed the dropped connection');
      const again = await s.client.send(get('127.0.0.1', api.port, '/users'));
      assert.equal(again.status, 200);
      const log = messages(s.lines);
      assert.ok(log.includes('logger.DEBUG: SSH tunnel is not alive. Reconnecting ...'), log.join('\n'));
      assert.equal(log.filter((l) => l === 'logger.DEBUG: SSH tunnel created.').length, 2);
      assert.equal(s.tunnel.alive, true);
    } finally {
      await s.close();
      await relay.close();
    }
  });

  test('https through the tunnel (TLS inside the channel, certificate checked against the target name)', {
    skip: unavailable ?? opensslMissing(),
  }, async () => {
    const { key, cert } = selfSignedCertificate();
    const server = https.createServer({ key, cert }, (_req, res) => res.end('{"tls":true}'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as net.AddressInfo).port;
    const lines: string[] = [];
    const logger = createLogger({ write: (l) => lines.push(l) });
    const tunnel = createSshTunnel(sshProxyConfig(cfg(section())), logger, FAST);
    const transport = new Transport({ connectTimeoutMs: 5000, requestTimeoutMs: 5000, ca: cert, connect: tunnel.connect });
    const client = new HttpClient({ transport, retry: { ...DEFAULT_RETRY, maxRetries: 0 }, logger, beforeRetry: tunnel.beforeRetry });
    try {
      const request = get('localhost', port, '/');
      request.url.scheme = 'https';
      const response = await client.send(request);
      assert.equal(response.body.toString('utf8'), '{"tls":true}');
    } finally {
      transport.close();
      await tunnel.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  test('a target the SSH server cannot reach is an ordinary network error', { skip: unavailable ?? false }, async () => {
    const closed = await freePort();
    const s = setup(section(), FAST, 1);
    try {
      await assert.rejects(s.client.send(get('127.0.0.1', closed, '/users')), (e: Error) => {
        assert.equal(e.name, 'CurlError');
        assert.match(e.message, new RegExp(`^CURL error 7: Failed to connect to 127\\.0\\.0\\.1 port ${closed}`));
        return true;
      });
      assert.equal(s.tunnel.alive, true, 'the tunnel itself stays up');
    } finally {
      await s.close();
    }
  });

  test('a key the server does not accept: 5 attempts, then one clear user error', { skip: unavailable ?? false }, async () => {
    const s = setup(section({ '#privateKey': sshd.otherKey }));
    try {
      const { ms, result } = await elapsed(() => s.client.send(get('127.0.0.1', api.port, '/users')));
      assert.equal(result.status, 'rejected');
      const error = (result as PromiseRejectedResult).reason as Error;
      assert.ok(error instanceof SshTunnelError);
      assert.equal(
        error.message,
        `Unable to create ssh tunnel. Output:  ErrorOutput: ${sshd.user}@127.0.0.1: Permission denied (publickey).`,
      );
      assert.ok(ms < 15_000, `took ${ms} ms`);
      assert.equal((sshd.log().match(/Connection from 127\.0\.0\.1/g) ?? []).length >= 5, true);
      assert.deepEqual(
        retryLines(s.lines),
        [1, 2, 3, 4].map((n) => `logger.INFO: ${error.message}. Retrying... [${n}x]`),
      );
    } finally {
      await s.close();
    }
    assert.ok(!s.lines.join('\n').includes('PRIVATE KEY'));
  });

  test('an unreadable key: connected without it and refused, 5 attempts each logged, like the reference', {
    skip: unavailable ?? false,
  }, async () => {
    const s = setup(section({ '#privateKey': 'not a key' }));
    const connections = (): number => (sshd.log().match(/Connection from 127\.0\.0\.1/g) ?? []).length;
    const before = connections();
    try {
      const expected = `Unable to create ssh tunnel. Output:  ErrorOutput: Load key "#privateKey": invalid format (Unsupported key format) ${sshd.user}@127.0.0.1: Permission denied (publickey).`;
      await assert.rejects(s.client.send(get('127.0.0.1', api.port, '/users')), (e: Error) => {
        assert.ok(e instanceof SshTunnelError);
        assert.equal(e.message, expected);
        return true;
      });
      assert.equal(connections() - before, 5, 'five connections to the SSH server');
      assert.deepEqual(
        retryLines(s.lines),
        [1, 2, 3, 4].map((n) => `logger.INFO: ${expected}. Retrying... [${n}x]`),
      );
    } finally {
      await s.close();
    }
  });
});

describe('SSH tunnel failures without a server', { timeout: 30_000 }, () => {
  const base = (port: number, over: Record<string, unknown> = {}): Record<string, unknown> => ({
    host: '127.0.0.1',
    port,
    user: 'nobody',
    '#privateKey': '-----BEGIN OPENSSH PRIVATE KEY-----\nxx\n-----END OPENSSH PRIVATE KEY-----',
    ...over,
  });

  test('an empty key: `Key must not be empty`, no connection attempt', async () => {
    for (const key of ['', null, '0']) {
      const s = setup(base(1, { '#privateKey': key }));
      try {
        await assert.rejects(s.client.send(get('127.0.0.1', 9, '/')), (e: Error) => {
          assert.ok(e instanceof SshTunnelError);
          assert.equal(e.message, 'Key must not be empty');
          return true;
        });
        assert.deepEqual(
          messages(s.lines).filter((l) => l.includes('SSH')),
          ["logger.INFO: Creating SSH tunnel to '127.0.0.1' ..."],
        );
      } finally {
        await s.close();
      }
    }
  });

  test('an unreachable SSH host (closed port): 5 attempts with backoff, bounded', async () => {
    const port = await freePort();
    const pauses: number[] = [];
    const s = setup(base(port, { '#privateKey': validLookingKey() }), {
      backoffMs: (n) => n * 10,
      sleep: async (ms) => {
        pauses.push(ms);
      },
    });
    try {
      const { ms, result } = await elapsed(() => s.client.send(get('127.0.0.1', 9, '/')));
      assert.equal(result.status, 'rejected');
      const error = (result as PromiseRejectedResult).reason as Error;
      assert.ok(error instanceof SshTunnelError, String(error));
      assert.equal(
        error.message,
        `Unable to create ssh tunnel. Output:  ErrorOutput: ssh: connect to host 127.0.0.1 port ${port}: Connection refused`,
      );
      assert.deepEqual(pauses, [10, 20, 30, 40], 'four pauses between five attempts');
      assert.deepEqual(
        retryLines(s.lines),
        [1, 2, 3, 4].map((n) => `logger.INFO: ${error.message}. Retrying... [${n}x]`),
      );
      assert.ok(ms < 5000, `took ${ms} ms`);
      // The HTTP client does not retry a tunnel failure; later connections fail the same way at once.
      await assert.rejects(s.tunnel.connect('127.0.0.1', 9), (e: Error) => e === error);
    } finally {
      await s.close();
    }
  });

  test('an SSH host that accepts but never answers: each attempt ends at the ready timeout', async () => {
    const accepted = new Set<net.Socket>();
    const silent = net.createServer((socket) => {
      accepted.add(socket);
      socket.on('error', () => {});
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const port = (silent.address() as net.AddressInfo).port;
    const s = setup(base(port, { '#privateKey': validLookingKey() }), { attempts: 2, backoffMs: () => 10, readyTimeoutMs: 300 });
    try {
      const { ms, result } = await elapsed(() => s.tunnel.connect('127.0.0.1', 9));
      assert.equal(result.status, 'rejected');
      assert.match(
        ((result as PromiseRejectedResult).reason as Error).message,
        new RegExp(
          `^Unable to create ssh tunnel\\. Output:  ErrorOutput: ssh: connect to host 127\\.0\\.0\\.1 port ${port}: Timed out while waiting for handshake$`,
        ),
      );
      assert.ok(ms >= 600 && ms < 5000, `took ${ms} ms`);
    } finally {
      await s.close();
      for (const socket of accepted) socket.destroy();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });

  test('beforeRetry does nothing before the tunnel was ever opened; close() is idempotent', async () => {
    const s = setup(base(1));
    await s.tunnel.beforeRetry();
    assert.deepEqual(s.lines, []);
    await s.close();
    await s.close();
    await assert.rejects(s.tunnel.connect('127.0.0.1', 9), (e: NodeJS.ErrnoException) => e.code === 'ECONNREFUSED');
  });
});

/** A well-formed RSA key (PKCS#1 PEM) that no server authorises. */
function validLookingKey(): string {
  return generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey.export({ type: 'pkcs1', format: 'pem' }).toString();
}
