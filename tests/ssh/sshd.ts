/**
 * A real OpenSSH server for the tunnel tests: host and user keys generated in a temporary
 * folder, listening on 127.0.0.1 on a free port, key authentication only, TCP forwarding on.
 * `/usr/sbin/sshd` comes from Debian's openssh-server (.ci/run installs it).
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

/** TEST_SSHD points elsewhere to try the suites as a machine without OpenSSH runs them (tests/ssh/skipped.test.ts). */
export const SSHD = process.env['TEST_SSHD'] ?? '/usr/sbin/sshd';

/** Why the sshd tests cannot run here, or undefined when they can. */
export function sshdUnavailable(): string | undefined {
  if (!fs.existsSync(SSHD)) return `${SSHD} is missing (install Debian's openssh-server)`;
  try {
    execFileSync('ssh-keygen', ['-?'], { stdio: 'ignore' });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return 'ssh-keygen is missing';
  }
  return undefined;
}

export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export interface Sshd {
  port: number;
  user: string;
  /** The authorised user key (PEM, unencrypted). */
  privateKey: string;
  /** A valid key that is not authorised. */
  otherKey: string;
  /** Everything sshd wrote (it logs to stderr with -e). */
  log(): string;
  stop(): Promise<void>;
}

function keygen(dir: string, name: string, type: string[]): string {
  const file = path.join(dir, name);
  execFileSync('ssh-keygen', ['-q', ...type, '-N', '', '-C', name, '-f', file], { stdio: 'ignore' });
  return file;
}

async function waitForListen(port: number, child: ChildProcess, deadline: number, log: () => string): Promise<void> {
  for (;;) {
    if (child.exitCode !== null) throw new Error(`sshd exited with ${child.exitCode}: ${log()}`);
    const ok = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`sshd did not listen on ${port} in time: ${log()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export async function startSshd(): Promise<Sshd> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sshd-test-'));
  const user = os.userInfo().username;
  const hostKey = keygen(dir, 'host_key', ['-t', 'ed25519']);
  const userKey = keygen(dir, 'user_key', ['-t', 'rsa', '-b', '2048', '-m', 'PEM']);
  const otherKey = keygen(dir, 'other_key', ['-t', 'ed25519']);
  fs.copyFileSync(`${userKey}.pub`, path.join(dir, 'authorized_keys'));
  // As root, sshd needs its privilege-separation folder (systemd creates it on a normal host).
  if (process.getuid?.() === 0 && !fs.existsSync('/run/sshd')) fs.mkdirSync('/run/sshd', { recursive: true, mode: 0o755 });
  const port = await freePort();
  const configFile = path.join(dir, 'sshd_config');
  fs.writeFileSync(
    configFile,
    [
      `Port ${port}`,
      'ListenAddress 127.0.0.1',
      `HostKey ${hostKey}`,
      `PidFile ${path.join(dir, 'sshd.pid')}`,
      `AuthorizedKeysFile ${path.join(dir, 'authorized_keys')}`,
      'StrictModes no',
      'UsePAM no',
      'PubkeyAuthentication yes',
      'PasswordAuthentication no',
      'KbdInteractiveAuthentication no',
      'PermitRootLogin prohibit-password',
      'AllowTcpForwarding yes',
      'LogLevel DEBUG1',
      '',
    ].join('\n'),
  );
  const child = spawn(SSHD, ['-D', '-e', '-f', configFile], { stdio: ['ignore', 'ignore', 'pipe'] });
  let output = '';
  child.stderr!.setEncoding('utf8');
  child.stderr!.on('data', (chunk: string) => {
    output += chunk;
  });
  const log = (): string => output;
  try {
    await waitForListen(port, child, Date.now() + 10_000, log);
  } catch (e) {
    child.kill('SIGKILL');
    fs.rmSync(dir, { recursive: true, force: true });
    throw e;
  }
  return {
    port,
    user,
    privateKey: fs.readFileSync(userKey, 'utf8'),
    otherKey: fs.readFileSync(otherKey, 'utf8'),
    log,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 2000);
        await exited;
        clearTimeout(timer);
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A TCP relay in front of a port; `cut()` drops every connection (a dying SSH link). */
export interface Relay {
  port: number;
  cut(): void;
  close(): Promise<void>;
}

export async function startRelay(targetPort: number): Promise<Relay> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((inbound) => {
    const outbound = net.connect(targetPort, '127.0.0.1');
    sockets.add(inbound).add(outbound);
    inbound.pipe(outbound).pipe(inbound);
    const drop = (): void => {
      inbound.destroy();
      outbound.destroy();
      sockets.delete(inbound);
      sockets.delete(outbound);
    };
    inbound.on('error', drop).on('close', drop);
    outbound.on('error', drop).on('close', drop);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  const cut = (): void => {
    for (const s of sockets) s.destroy();
    sockets.clear();
  };
  return {
    port,
    cut,
    close: () => {
      cut();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
