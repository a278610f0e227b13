/**
 * The image is built and run for real by `npm run image-test` (scripts/image/test.sh, where podman
 * is available); without a container engine scripts/image-steps.sh runs its steps. These checks
 * keep the Dockerfile, that script, .dockerignore and docker-compose.yml in agreement.
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

/** The default of the Dockerfile's `ARG NODE_IMAGE` (the base image of both stages). */
function baseImage(): string {
  const m = /^ARG NODE_IMAGE=(\S+)$/m.exec(read('Dockerfile'));
  assert.ok(m, 'ARG NODE_IMAGE=… in the Dockerfile');
  return m[1]!;
}

test('both stages start from the Node 24 slim image of the `node` devDependency', () => {
  const node = (JSON.parse(read('package.json')) as { devDependencies: Record<string, string> }).devDependencies['node']!;
  const image = baseImage();
  const m = /^docker\.io\/library\/node:(\d+\.\d+\.\d+)-bookworm-slim(@sha256:[0-9a-f]{64})?$/.exec(image);
  assert.ok(m, `${image}: node:⟨version⟩-bookworm-slim, optionally @sha256:…`);
  assert.equal(m[1], node);
  const froms = read('Dockerfile').match(/^FROM .*$/gm) ?? [];
  const from = 'FROM $' + '{NODE_IMAGE}'; // the Dockerfile's ARG, not a template placeholder
  assert.deepEqual(froms, [`${from} AS build`, from]);
});

test('the runtime stage installs, warms the compile cache and starts exactly as scripts/image-steps.sh does', () => {
  const stage = runtimeStage();
  const install = stage.find((l) => l.startsWith('RUN npm ci'));
  assert.ok(install, 'RUN npm ci in the runtime stage');
  assert.equal(install.replace(/^RUN /, '').split(' && ')[0]!.trim(), scriptValue('INSTALL'));
  assert.ok(scriptValue('INSTALL').includes('--omit=dev'));
  const entrypoint = stage.find((l) => l.startsWith('ENTRYPOINT '));
  assert.equal(entrypoint, `ENTRYPOINT ${scriptValue('ENTRYPOINT')}`);
  const user = stage.filter((l) => l.startsWith('USER ')).at(-1);
  assert.ok(user && !/^USER (root|0)(:|$)/.test(user.slice(5)), 'runs as a non-root user');
  const warm = stage.indexOf(`RUN ${scriptValue('WARM_CACHE')}`);
  assert.ok(
    warm > stage.indexOf(install) && warm < stage.indexOf(entrypoint),
    'the cache warm-up runs after the install, before ENTRYPOINT',
  );
  assert.ok(
    stage.some((l) => /^ENV .*KBC_DATADIR=\/data\b/.test(l)),
    'KBC_DATADIR=/data',
  );
  const target = JSON.parse(scriptValue('ENTRYPOINT')) as string[];
  assert.equal(target[1], '/app/dist/cli.js');
  assert.ok(fs.existsSync(path.join(ROOT, 'src', 'cli.ts')), 'dist/cli.js is built from src/cli.ts');
});

test('the compile cache is shipped outside /tmp, readable by every uid (the runner mounts a fresh /tmp)', () => {
  const stage = runtimeStage();
  const env = stage.map((l) => /^ENV .*EX_GENERIC_COMPILE_CACHE=(\S+)/.exec(l)?.[1]).find((v) => v !== undefined);
  assert.ok(env, 'ENV EX_GENERIC_COMPILE_CACHE=… in the runtime stage');
  assert.ok(env.startsWith('/app/'), `${env} is under /app`);
  assert.equal(scriptValue('WARM_CACHE'), `node /app/dist/cli.js --fill-compile-cache && chmod -R a+rX ${env}`);
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

test('docker-compose mimics the runner: its uid:gid, read-only with a fresh /tmp, the memory of component.json, the KBC_* variables', () => {
  const compose = read('docker-compose.yml');
  const requiredMemory = (JSON.parse(read('component.json')) as { requiredMemory: string }).requiredMemory;
  assert.match(compose, /^ {2}user: "\$\{RUNNER_UID:-1000\}:\$\{RUNNER_GID:-1000\}"$/m);
  assert.match(compose, /^ {2}read_only: true$/m);
  assert.match(compose, /^ {2}tmpfs:\n {4}- \/tmp$/m);
  assert.match(compose, new RegExp(`^ {2}mem_limit: ${requiredMemory}$`, 'm'));
  for (const name of ['KBC_DATADIR', 'KBC_RUNID', 'KBC_PROJECTID', 'KBC_CONFIGID', 'KBC_COMPONENTID'])
    assert.match(compose, new RegExp(`^ {6}${name}: `, 'm'), name);
  // Every service takes the shared runner settings; one of them builds the image the others run.
  const services = compose.slice(compose.indexOf('\nservices:')).match(/^ {2}[a-z-]+:$/gm) ?? [];
  assert.equal(compose.match(/^ {4}<<: \*runner$/gm)?.length, services.length);
  assert.equal(compose.match(/^\s+build:/gm)?.length, 1, 'one build for all services');
});

test("docker-compose: the health check is in shell form (podman's Docker API splits an exec form with spaces)", () => {
  const compose = read('docker-compose.yml');
  const check = /^ {6}test: (.*)$/m.exec(compose);
  assert.ok(check, 'a healthcheck test');
  assert.ok(!check[1]!.trimStart().startsWith('['), `shell form, not ${check[1]}`);
});
