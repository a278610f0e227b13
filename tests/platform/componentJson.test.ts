/** component.json is generated (scripts/component-json.ts), never edited by hand: the committed file must match. */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { test } from 'node:test';
import { configSchema } from '../../src/config/schema.ts';
import { COMPONENT_JSON, renderComponentJson } from '../../scripts/component-json.ts';

test('the committed component.json is exactly what `npm run component-json` generates', () => {
  assert.ok(fs.existsSync(COMPONENT_JSON), 'component.json is missing: run `npm run component-json`');
  const committed = fs.readFileSync(COMPONENT_JSON, 'utf8');
  assert.ok(committed === renderComponentJson(), 'component.json is stale: run `npm run component-json` and commit the result');
});

test('the descriptor carries the identity, the data-folder contract and the configuration schema', () => {
  const descriptor = JSON.parse(fs.readFileSync(COMPONENT_JSON, 'utf8'));
  assert.equal(descriptor.id, 'keboola.ex-generic-ts');
  assert.equal(descriptor.type, 'extractor');
  assert.equal(typeof descriptor.name, 'string');
  assert.equal(descriptor.image.repository, 'keboola/ex-generic-ts');
  assert.deepEqual(Object.keys(descriptor.dataFolder.reads), ['config.json', 'in/state.json']);
  assert.deepEqual(Object.keys(descriptor.dataFolder.writes), ['out/tables/', 'out/state.json']);
  assert.deepEqual(descriptor.configurationSchema, JSON.parse(JSON.stringify(configSchema)));
});
