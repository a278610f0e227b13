/**
 * The README's demo: serves the bundled example API (data/mock-api) on the port named in
 * data/config.json, runs the built extractor on data/, and reports the tables it wrote.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { startMockServer } from '../src/mock-server/server.ts';

const root = path.resolve(import.meta.dirname, '..');
const dataDir = path.join(root, 'data');
const config = JSON.parse(fs.readFileSync(path.join(dataDir, 'config.json'), 'utf8'));
const port = Number(new URL(config.parameters.api.baseUrl).port);

fs.rmSync(path.join(dataDir, 'out'), { recursive: true, force: true });
const server = await startMockServer({ dir: path.join(dataDir, 'mock-api'), port, log: () => {} });
try {
  // The extractor runs as its own process, exactly as the container entrypoint does.
  const child = spawn(process.execPath, [path.join(root, 'dist', 'cli.js')], {
    env: { ...process.env, KBC_DATADIR: dataDir },
    stdio: 'inherit',
  });
  const status = await new Promise<number | null>((resolve) => child.on('close', resolve));
  if (status !== 0) {
    console.error(`extractor exited with ${status}`);
    process.exitCode = status ?? 2;
  } else {
    const tables = path.join(dataDir, 'out', 'tables');
    console.log(`\nTables written to ${path.relative(process.cwd(), tables) || '.'}:`);
    for (const file of fs.readdirSync(tables).sort()) {
      if (file.endsWith('.manifest')) continue;
      const lines = fs
        .readFileSync(path.join(tables, file), 'utf8')
        .split('\n')
        .filter((l) => l !== '').length;
      console.log(`  ${file}: ${Math.max(0, lines - 1)} rows`);
    }
    console.log(`State: ${path.relative(process.cwd(), path.join(dataDir, 'out', 'state.json'))}`);
  }
} finally {
  await server.close();
}
