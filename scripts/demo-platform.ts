/**
 * `npm run demo:platform`: the platform client end to end against the fake platform, on loopback
 * only. Encrypts a value, pushes a configuration with 100 iterations and a secret (encrypted
 * before it leaves), fans it out over 4 queue jobs, and prints one job's log. Each step runs the
 * built CLI as its own process, as a user would, and shows the command and what it printed.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startFakePlatform } from '../src/platform/fake/fakePlatform.ts';

const root = path.resolve(import.meta.dirname, '..');
const cli = path.join(root, 'dist', 'platform', 'cli.js');
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'platform-demo-'));
const platform = await startFakePlatform({ stepMs: 150, runSteps: 4 });
const env = {
  ...process.env,
  KBC_URL: platform.storageUrl,
  KBC_TOKEN: platform.token,
  // http is accepted for this loopback fake only; a real stack is https.
  EX_GENERIC_PLATFORM_ALLOW_HTTP_LOOPBACK: '1',
};

function step(args: string[]): Promise<string> {
  process.stdout.write(`\n$ ex-generic-platform ${args.join(' ')}\n`);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cli, ...args], { cwd: work, env, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      process.stdout.write(chunk);
    });
    child.on('close', (code) => (code === 0 ? resolve(out) : reject(new Error(`exit ${code}`))));
  });
}

const folder = path.join(work, 'shops');
fs.mkdirSync(folder);
const iterations = Array.from({ length: 100 }, (_, i) => ({ shopId: `shop-${i + 1}` }));
fs.writeFileSync(
  path.join(folder, 'config.json'),
  JSON.stringify(
    {
      parameters: {
        api: { baseUrl: 'https://shops.example.com/api/' },
        config: {
          '#apiKey': 'demo-secret-key',
          incrementalOutput: true,
          jobs: [{ endpoint: 'shops/{shopId}/orders', dataType: 'orders' }],
        },
        iterations,
      },
    },
    null,
    2,
  ),
);
try {
  await step(['encrypt', '--component', 'keboola.ex-generic-v2', '--value', 'another-secret']);
  await step(['config', 'push', '--component', 'keboola.ex-generic-v2', '--config', 'shops', '--dir', 'shops', '--dry-run']);
  await step(['config', 'push', '--component', 'keboola.ex-generic-v2', '--config', 'shops', '--dir', 'shops']);
  await step(['run', '--component', 'keboola.ex-generic-v2', '--config', 'shops', '--fan-out', 'iterations', '--slices', '4']);
  const jobs = await step(['jobs', '--config', 'shops', '--limit', '4']);
  const last = jobs.trim().split('\n')[0]!.split('\t')[0]!;
  await step(['job', 'log', last]);
} catch (e) {
  process.stderr.write(`demo failed: ${(e as Error).message}\n`);
  process.exitCode = 1;
} finally {
  await platform.close();
  fs.rmSync(work, { recursive: true, force: true });
}
