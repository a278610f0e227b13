/**
 * `npm run conformance`: the shared conformance harness (not part of this repository: it lives in
 * ../shared/conformance/, next to the project) on the built command. Without the harness, one
 * line saying what is missing and where it was looked for, exit 1; otherwise build, then run it.
 *
 *   npm run conformance                 build, then node ../shared/conformance/run.mjs --cmd "node dist/cli.js" --jobs 4
 *   npm run conformance -- --jobs 2     arguments after -- go to the harness
 *   CONFORMANCE_HARNESS=path/run.mjs    another copy of the harness
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..');
const harness = path.resolve(ROOT, process.env['CONFORMANCE_HARNESS'] ?? '../shared/conformance/run.mjs');

if (!fs.existsSync(harness)) {
  process.stderr.write(
    `conformance: the harness ${harness} is missing; it is not part of this repository: put the shared folder (shared/conformance/run.mjs) next to the project, or set CONFORMANCE_HARNESS to its run.mjs.\n`,
  );
  process.exit(1);
}
const build = spawnSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 2);
const args = process.argv.slice(2);
const jobs = args.includes('--jobs') ? [] : ['--jobs', '4'];
const run = spawnSync(process.execPath, [harness, '--cmd', 'node dist/cli.js', ...jobs, ...args], { cwd: ROOT, stdio: 'inherit' });
process.exit(run.status ?? 2);
