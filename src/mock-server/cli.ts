#!/usr/bin/env node
/**
 * ex-generic-mock-server: replays API simulations (see server.ts).
 * Prints `listening HOST:PORT` first on stdout; logs each request to stderr; stops on SIGTERM/SIGINT.
 */
import fs from 'node:fs';
import { parseArgs } from 'node:util';
import { startMockServer, type MockServerTlsOptions } from './server.ts';

const USAGE =
  'usage: ex-generic-mock-server --dir DIR [--dir DIR...] [--port N] [--host H] [--flat]\n' +
  '                              [--tls-key FILE --tls-cert FILE [--tls-ca FILE] [--tls-request-cert]]';

function fail(message: string, code: number): never {
  process.stderr.write(`${message}\n`);
  process.exit(code);
}

/** The parsed command line; a usage error ends the process. */
function readArgs() {
  try {
    return parseArgs({
      args: process.argv.slice(2),
      options: {
        dir: { type: 'string', multiple: true },
        port: { type: 'string', default: '0' },
        host: { type: 'string', default: '127.0.0.1' },
        flat: { type: 'boolean', default: false },
        'tls-key': { type: 'string' },
        'tls-cert': { type: 'string' },
        'tls-ca': { type: 'string' },
        'tls-request-cert': { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
      strict: true,
      allowPositionals: false,
    }).values;
  } catch (err) {
    fail(`${(err as Error).message}\n${USAGE}`, 2);
  }
}

async function main(): Promise<void> {
  const values = readArgs();
  if (values.help) {
    process.stdout.write(USAGE + '\n');
    return;
  }
  if (values.dir === undefined || values.dir.length === 0) fail(`--dir is required\n${USAGE}`, 2);
  if (!/^\d+$/.test(values.port) || Number(values.port) > 65535) fail(`invalid --port ${values.port}\n${USAGE}`, 2);

  let tls: MockServerTlsOptions | undefined;
  if (values['tls-key'] !== undefined || values['tls-cert'] !== undefined) {
    if (values['tls-key'] === undefined || values['tls-cert'] === undefined) fail(`--tls-key and --tls-cert go together\n${USAGE}`, 2);
    try {
      tls = {
        key: fs.readFileSync(values['tls-key']),
        cert: fs.readFileSync(values['tls-cert']),
        requestCert: values['tls-request-cert'],
      };
      if (values['tls-ca'] !== undefined) tls.ca = fs.readFileSync(values['tls-ca']);
    } catch (err) {
      fail((err as Error).message, 1);
    }
  }

  const server = await startMockServer({
    dir: values.dir,
    port: Number(values.port),
    host: values.host,
    flat: values.flat,
    log: (line) => process.stderr.write(line + '\n'),
    ...(tls !== undefined ? { tls } : {}),
  }).catch((err: unknown) => fail(`mock server: ${(err as Error).message}`, 1));
  process.stdout.write(`listening ${values.host}:${server.port}\n`);

  const stop = (): void => {
    server.close().then(
      () => process.exit(0),
      () => process.exit(0),
    );
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

await main();
