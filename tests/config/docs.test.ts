import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { renderDocs } from '../../scripts/config-docs.ts';

test('docs/configuration.md is generated from the schema and up to date', () => {
  const committed = fs.readFileSync(path.join(import.meta.dirname, '..', '..', 'docs', 'configuration.md'), 'utf8');
  assert.equal(committed, renderDocs(), 'run: node scripts/config-docs.ts');
});
