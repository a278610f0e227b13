/**
 * The image cannot be built here (no Docker engine), so scripts/image-steps.sh runs its steps in CI.
 * These checks keep the Dockerfile, that script, .dockerignore and docker-compose.yml in agreement.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const read = (file: string): string => fs.readFileSync(path.join(ROOT, file), 'utf8');

function scriptValue(name: string): string {
  const m = new RegExp(`^${name}='([^']*)'$`, 'm').exec(read('scripts/image-steps.sh'));
  assert.ok(m, `${name}= not found in scripts/image-steps.sh`);
  return m[1]!;
}

/** Instructions of the Dockerfile's last stage, continuation lines joined. */
function runtimeStage(): string[] {
  const lines = read('Dockerfile')
    .replace(/\\\n\s*/g, ' ')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('#'));
  const from = lines.map((l, i) => (l.startsWith('FROM ') ? i : -1)).filter((i) => i >= 0);
  return lines.slice(from.at(-1));
}

test('the runtime stage installs, warms the compile cache and starts exactly as scripts/image-steps.sh does', () => {
  const stage = runtimeStage();
  assert.match(stage[0]!, /^FROM node:24(-slim|-alpine)?(@sha256:[0-9a-f]+)?$/);
  const install = stage.find((l) => l.startsWith('RUN npm ci'));
  assert.ok(install, 'RUN npm ci in the runtime stage');
  assert.equal(install.replace(/^RUN /, '').split(' && ')[0]!.trim(), scriptValue('INSTALL'));
  assert.ok(scriptValue('INSTALL').includes('--omit=dev'));
  const entrypoint = stage.find((l) => l.startsWith('ENTRYPOINT '));
  assert.equal(entrypoint, `ENTRYPOINT ${scriptValue('ENTRYPOINT')}`);
  const user = stage.filter((l) => l.startsWith('USER ')).at(-1);
  assert.ok(user && !/^USER (root|0)(:|$)/.test(user.slice(5)), 'runs as a non-root user');
  // The compile cache is kept per user: the warm-up must run as the user of the entrypoint.
  const warm = stage.indexOf(`RUN ${scriptValue('WARM_CACHE')}`);
  assert.ok(warm > stage.lastIndexOf(user) && warm < stage.indexOf(entrypoint), 'the cache warm-up runs after USER, before ENTRYPOINT');
  assert.ok(
    stage.some((l) => /^ENV .*KBC_DATADIR=\/data\b/.test(l)),
    'KBC_DATADIR=/data',
  );
  const target = JSON.parse(scriptValue('ENTRYPOINT')) as string[];
  assert.equal(target[1], '/app/dist/cli.js');
  assert.ok(fs.existsSync(path.join(ROOT, 'src', 'cli.ts')), 'dist/cli.js is built from src/cli.ts');
});

test('.dockerignore lets through everything the Dockerfile copies from the context', () => {
  const allowed = read('.dockerignore')
    .split('\n')
    .filter((l) => l.startsWith('!'))
    .map((l) => l.slice(1).replace(/\/$/, ''));
  const copied = read('Dockerfile')
    .split('\n')
    .filter((l) => /^COPY (?!--from)/.test(l))
    .flatMap((l) =>
      l
        .replace(/^COPY /, '')
        .split(/\s+/)
        .slice(0, -1),
    );
  for (const file of copied) assert.ok(allowed.includes(file.replace(/\/$/, '')), `${file} is excluded by .dockerignore`);
});

test('docker-compose: the mock server listens where data/config.json looks for it', () => {
  const compose = read('docker-compose.yml');
  const baseUrl = new URL(JSON.parse(read('data/config.json')).parameters.api.baseUrl as string);
  assert.equal(baseUrl.hostname, '127.0.0.1');
  assert.ok(compose.includes(`"--port", "${baseUrl.port}"`), `mock server on port ${baseUrl.port}`);
  assert.ok(compose.includes('"/app/dist/mock-server/cli.js"') && fs.existsSync(path.join(ROOT, 'src', 'mock-server', 'cli.ts')));
  assert.match(compose, /extractor:\n(?: {4}.*\n)*? {4}network_mode: service:mock-server\n/);
  assert.match(compose, /extractor:\n(?: {4}.*\n| {6}.*\n| {8}.*\n| *#.*\n)*? {6}- \.\/data:\/data\n/);
});
