/**
 * component.json is the Developer Portal payload (spec 07 §1), rendered by scripts/component-json.ts
 * from component_config/ and checked against spec 07's field list (scripts/portalFields.ts); it
 * is generated, never edited by hand: the committed file must match.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { syncActionNames } from '../../src/actions/index.ts';
import { COMPONENT_CONFIG, COMPONENT_JSON, packageVersion, portalPayload, renderComponentJson } from '../../scripts/component-json.ts';
import { portalFieldProblems } from '../../scripts/portalFields.ts';

const committed = (): Record<string, unknown> => JSON.parse(fs.readFileSync(COMPONENT_JSON, 'utf8'));

test('the committed component.json is exactly what `npm run component-json` generates', () => {
  assert.ok(fs.existsSync(COMPONENT_JSON), 'component.json is missing: run `npm run component-json`');
  assert.ok(fs.readFileSync(COMPONENT_JSON, 'utf8') === renderComponentJson(), 'component.json is stale: run `npm run component-json`');
});

test('component.json conforms to the Portal field list of spec 07 §1.2', () => {
  assert.deepEqual(portalFieldProblems(committed()), []);
});

test('the definition fields the runner reads have the values spec 07 §4 asks for', () => {
  const payload = committed();
  assert.equal(payload['id'], 'keboola.ex-generic-ts');
  assert.equal(payload['type'], 'extractor');
  assert.deepEqual(payload['repository'], {
    type: 'ecr',
    uri: '147946154733.dkr.ecr.us-east-1.amazonaws.com/developer-portal-v2/keboola.ex-generic-ts',
    tag: packageVersion(),
  });
  assert.deepEqual(payload['actions'], syncActionNames(), 'the registered sync actions, without run');
  assert.equal(payload['logger'], 'standard');
  assert.equal(payload['encryption'], true);
  assert.equal(payload['network'], 'bridge');
  assert.equal(payload['stagingStorageInput'], 'local', 'none would stop the upload of out/tables');
  assert.equal(payload['defaultBucket'], false, 'tables go where outputBucket and the manifests say');
  assert.equal(payload['configurationFormat'], 'json');
  assert.equal(payload['forwardToken'], false);
  assert.equal(payload['forwardTokenDetails'], false);
  // One full default retry schedule (1023 s of back-off, spec 01 §3.11) fits many times over.
  assert.ok((payload['processTimeout'] as number) >= 3600);
  assert.ok((payload['uiOptions'] as string[]).includes('appInfo.dataIn'));
  assert.ok((payload['uiOptions'] as string[]).some((o) => o === 'genericUI' || o === 'genericDockerUI'));
  for (const gone of ['image', 'dataFolder', 'exitCodes', 'version', 'configurationSchemaFile', 'description', 'logging'])
    assert.ok(!(gone in payload), `${gone} is not a Portal field`);
});

test('the texts and the parameters form come from component_config/, as the template maps its files', () => {
  const payload = committed();
  const file = (name: string): string => fs.readFileSync(path.join(COMPONENT_CONFIG, name), 'utf8');
  assert.equal(payload['shortDescription'], file('component_short_description.md').trim());
  assert.equal(payload['longDescription'], file('component_long_description.md').trim());
  assert.equal(payload['configurationDescription'], file('configuration_description.md').trim());
  assert.deepEqual(payload['configurationSchema'], JSON.parse(file('configSchema.json')));
  // The Portal's form edits `parameters`: the editor schema of the whole config.json stays a file.
  assert.ok(fs.readFileSync(COMPONENT_JSON).length < 16_000, 'no 63 KB schema of config.json in the payload');
});

test('the field list refuses what spec 07 rules out', () => {
  const valid = portalPayload(packageVersion());
  const broken: [string, Record<string, unknown>][] = [
    ['run among the sync actions', { actions: ['run', 'test_request'] }],
    ['staging input none', { stagingStorageInput: 'none' }],
    ['a name with "Extractor"', { name: 'Generic Extractor (TypeScript)' }],
    ['a descriptor field of our own', { image: { repository: 'keboola/ex-generic-ts' } }],
    ['memory not in m or g', { requiredMemory: '512MB' }],
    ['a ## heading in the configuration description', { configurationDescription: 'Intro\n## Setup\n' }],
    ['a tag that is not a semantic version', { repository: { type: 'ecr', uri: 'x', tag: 'latest' } }],
    ['a GELF-less logger name', { logger: 'syslog' }],
    ['a negative timeout', { processTimeout: -1 }],
  ];
  for (const [what, change] of broken) assert.notDeepEqual(portalFieldProblems({ ...valid, ...change }), [], what);
  // Each problem names the field and what is wrong, not ajv's "must NOT be valid".
  assert.deepEqual(portalFieldProblems({ ...valid, actions: ['run'] }), [
    '/actions/0: "run" is not a sync action: list only the sync actions',
  ]);
});
