/**
 * Node 24 comes from the project (the `node` devDependency), not from the machine: npm scripts,
 * tests and the README's lines run on it, .ci/run and scripts/image-steps.sh refuse another
 * major, and the image is built on the same Node version. An `engines` field would be checked by npm against
 * the machine's own Node on every install (EBADENGINE on any machine with an older one), while
 * the Node that runs everything is the one the install brings.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const read = (file: string): string => fs.readFileSync(path.join(ROOT, file), 'utf8');
const pkg = JSON.parse(read('package.json')) as { devDependencies: Record<string, string>; engines?: unknown };

test('the tests run on the Node of the devDependency', () => {
  const version = pkg.devDependencies['node']!;
  const major = version.split('.')[0];
  assert.equal(process.versions.node.split('.')[0], major);
  assert.match(read('.ci/run'), new RegExp(`v${major}\\.\\*`));
  // The image's base is the exact Node version of the devDependency (a build argument, so that
  // the image test can build on a local stand-in of the same version).
  assert.match(read('Dockerfile'), new RegExp(`^ARG NODE_IMAGE=docker\\.io/library/node:${version.replaceAll('.', '\\.')}-`, 'm'));
});

test("no engines field for npm to check against the machine's Node (EBADENGINE on every install)", () => {
  assert.equal(pkg.engines, undefined);
  const lock = JSON.parse(read('package-lock.json')) as { packages: Record<string, { engines?: unknown }> };
  assert.equal(lock.packages['']!.engines, undefined);
});
