/**
 * Node 24 comes from the project (the `node` devDependency), not from the machine: npm scripts,
 * tests and the README's lines run on it, .ci/run and scripts/image-steps.sh refuse another
 * major, and the image is built on node:24. An `engines` field would be checked by npm against
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
  const major = pkg.devDependencies['node']!.split('.')[0];
  assert.equal(process.versions.node.split('.')[0], major);
  assert.match(read('.ci/run'), new RegExp(`v${major}\\.\\*`));
  assert.match(read('Dockerfile'), new RegExp(`^FROM node:${major}-slim`, 'm'));
});

test("no engines field for npm to check against the machine's Node (EBADENGINE on every install)", () => {
  assert.equal(pkg.engines, undefined);
  const lock = JSON.parse(read('package-lock.json')) as { packages: Record<string, { engines?: unknown }> };
  assert.equal(lock.packages['']!.engines, undefined);
});
