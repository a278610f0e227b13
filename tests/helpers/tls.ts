/** A self-signed certificate for TLS tests, made with the openssl CLI (Node cannot issue one). */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { tempDir } from './tempDirs.ts';

/** A skip reason for node:test when the openssl CLI is not installed, else false. */
export function opensslMissing(): string | false {
  try {
    execFileSync('openssl', ['version'], { stdio: 'ignore' });
    return false;
  } catch {
    return 'openssl is missing';
  }
}

/** A certificate for `localhost` (CN and subjectAltName), valid for two days, with its key. */
export function selfSignedCertificate(): { key: string; cert: string } {
  const dir = tempDir('tls-test-');
  try {
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-keyout',
        'key.pem',
        '-out',
        'cert.pem',
        '-days',
        '2',
        '-subj',
        '/CN=localhost',
        '-addext',
        'subjectAltName=DNS:localhost',
      ],
      { cwd: dir, stdio: 'ignore' },
    );
    return { key: fs.readFileSync(path.join(dir, 'key.pem'), 'utf8'), cert: fs.readFileSync(path.join(dir, 'cert.pem'), 'utf8') };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
