/**
 * The image build's cache fill (`--fill-compile-cache`, src/cli.ts): one small extraction against
 * an API served by this process on 127.0.0.1, before the extractor's code cache is written
 * (src/runtime/scriptCache.ts). The cache then holds the functions such a run calls — a job's
 * start compiles only what is particular to its configuration — instead of the bundle's top level
 * alone. Its data folder lives in the cache folder and is removed; nothing is printed unless the
 * run fails (the cache is then written with what was compiled, and the build goes on).
 */
import fs from 'node:fs';
import type http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

/** The extractor's `run` as the fill calls it (src/extractor.ts). */
export type FillRun = (options: { env: NodeJS.ProcessEnv; write: (line: string) => void }) => Promise<number>;

/** A page of records of several types, so the run maps nested objects and arrays too. */
const RECORDS = JSON.stringify([
  { id: 1, name: 'a', tags: ['x', 'y'], address: { city: 'c', geo: { lat: 1.5 } } },
  { id: 2, name: 'b', tags: [], address: null, active: true },
]);

/** Serves RECORDS to every request until closed. */
async function startApi(): Promise<http.Server> {
  const server = process.getBuiltinModule('node:http').createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'application/json' }).end(RECORDS);
  });
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(0, '127.0.0.1', resolve));
  return server;
}

/** One extraction of a job against the local API, in a data folder made under `folder`. */
export async function fillByRun(run: FillRun, folder: string): Promise<void> {
  const api = await startApi();
  const dataDir = fs.mkdtempSync(path.join(folder, 'fill-'));
  const lines: string[] = [];
  try {
    const baseUrl = `http://127.0.0.1:${(api.address() as AddressInfo).port}/`;
    const config = { parameters: { api: { baseUrl }, config: { outputBucket: 'fill', jobs: [{ endpoint: 'items', dataType: 'items' }] } } };
    fs.writeFileSync(path.join(dataDir, 'config.json'), JSON.stringify(config));
    const exitCode = await run({ env: { ...process.env, KBC_DATADIR: dataDir }, write: (line) => lines.push(line) });
    if (exitCode !== 0) process.stderr.write(`cache fill: the sample run exited with ${exitCode}:\n${lines.slice(-3).join('\n')}\n`);
  } finally {
    api.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
