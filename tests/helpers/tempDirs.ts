/**
 * Temporary folders of a test file, removed when its process exits (node --test runs each file in
 * a process of its own): the data folders and spools the helpers make were left behind — one
 * `npm test` left ~620 folders in /tmp, and a developer's had gathered 40,000.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const made: string[] = [];

function removeAll(): void {
  for (const dir of made.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
}

/** A new empty folder under the system's temporary folder, named `prefix` and a random tail. */
export function tempDir(prefix: string): string {
  if (made.length === 0) process.once('exit', removeAll);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  made.push(dir);
  return dir;
}
