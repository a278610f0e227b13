/**
 * Renders the Developer Portal payload component.json (spec 07 §1) from component_config/ — the
 * layout of Keboola's component template: descriptions, the `parameters` form, the configuration
 * description — and the definition fields the runner reads (PORTAL_FIELDS below, each value's
 * reason in docs/deployment.md). The payload is checked against spec 07's field list
 * (scripts/portalFields.ts) before it is written. Also writes the editor schema
 * schema/config.schema.json, the JSON Schema of the whole config.json for editors (from
 * src/config/schema.ts), which is not the Portal's form. Both files are committed;
 * tests/platform/componentJson.test.ts and tests/config/schema.test.ts fail when they are stale.
 *
 *   npm run component-json            rewrite component.json and schema/config.schema.json
 *   npm run component-json -- --check exit 1 if either differs from what would be generated
 */
import fs from 'node:fs';
import path from 'node:path';
import { syncActionNames } from '../src/actions/index.ts';
import { configSchema } from '../src/config/schema.ts';
import { portalFieldProblems } from './portalFields.ts';

export const ROOT = path.resolve(import.meta.dirname, '..');
export const COMPONENT_JSON = path.join(ROOT, 'component.json');
export const COMPONENT_CONFIG = path.join(ROOT, 'component_config');
export const EDITOR_SCHEMA = path.join(ROOT, 'schema', 'config.schema.json');

export const COMPONENT_ID = 'keboola.ex-generic-ts';
/** What `ecr:get-repository keboola keboola.ex-generic-ts` answers (spec 07 §1.1 item 3). */
export const ECR_REPOSITORY = `147946154733.dkr.ecr.us-east-1.amazonaws.com/developer-portal-v2/${COMPONENT_ID}`;

/** component_config/ files → Portal fields, as the template's update_properties.sh maps them (§1.1 item 4). */
const TEMPLATE_FILES: readonly (readonly [file: string, field: string, kind: 'text' | 'json'])[] = [
  ['component_short_description.md', 'shortDescription', 'text'],
  ['component_long_description.md', 'longDescription', 'text'],
  ['configSchema.json', 'configurationSchema', 'json'],
  ['configRowSchema.json', 'configurationRowSchema', 'json'],
  ['configuration_description.md', 'configurationDescription', 'text'],
  ['documentationUrl.md', 'documentationUrl', 'text'],
  ['sourceCodeUrl.md', 'sourceCodeUrl', 'text'],
  ['licenseUrl.md', 'licenseUrl', 'text'],
];

/** The definition fields the runner reads; docs/deployment.md gives the reason for each value. */
const PORTAL_FIELDS = {
  id: COMPONENT_ID,
  name: 'Generic (TypeScript)',
  type: 'extractor',
  uiOptions: ['genericUI', 'appInfo.dataIn'],
  encryption: true,
  network: 'bridge',
  requiredMemory: '512m',
  processTimeout: 10800,
  forwardToken: false,
  forwardTokenDetails: false,
  defaultBucket: false,
  stagingStorageInput: 'local',
  configurationFormat: 'json',
  logger: 'standard',
} as const;

/** The template's files present in component_config/, read as the template reads them (empty files skipped). */
function templateFields(dir: string): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  for (const [file, field, kind] of TEMPLATE_FILES) {
    const full = path.join(dir, file);
    if (!fs.existsSync(full)) continue;
    const text = fs.readFileSync(full, 'utf8');
    if (text.trim() === '') continue;
    fields[field] = kind === 'json' ? JSON.parse(text) : text.trim();
  }
  return fields;
}

/** The Portal payload: identity, the image to run, the template's files, the runner's fields, the sync actions. */
export function portalPayload(version: string, dir = COMPONENT_CONFIG): Record<string, unknown> {
  const { id, name, type, ...definition } = PORTAL_FIELDS;
  return {
    id,
    name,
    type,
    ...templateFields(dir),
    repository: { type: 'ecr', uri: ECR_REPOSITORY, tag: version },
    ...definition,
    // The configuration editor's sync actions (src/actions/, spec 05); `run` is not one (§2.2).
    actions: syncActionNames(),
  };
}

export function packageVersion(): string {
  return (JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
}

/** The exact bytes of component.json; throws when the payload breaks spec 07's field list. */
export function renderComponentJson(): string {
  const payload = portalPayload(packageVersion());
  const problems = portalFieldProblems(payload);
  if (problems.length > 0) throw new Error(`component.json would not be a valid Portal payload:\n${problems.join('\n')}`);
  return JSON.stringify(payload, null, 2) + '\n';
}

/** The exact bytes of schema/config.schema.json. */
export function renderEditorSchema(): string {
  return JSON.stringify(configSchema, null, 2) + '\n';
}

/** The files to write, or undefined after printing why component.json cannot be made. */
function rendered(): (readonly [string, string])[] | undefined {
  try {
    return [
      [COMPONENT_JSON, renderComponentJson()],
      [EDITOR_SCHEMA, renderEditorSchema()],
    ];
  } catch (e) {
    process.stderr.write(`${(e as Error).message}\nFix component_config/ or PORTAL_FIELDS in scripts/component-json.ts.\n`);
    process.exitCode = 1;
    return undefined;
  }
}

if (import.meta.main) {
  for (const [file, expected] of rendered() ?? []) {
    const relative = path.relative(process.cwd(), file) || file;
    if (process.argv.includes('--check')) {
      const current = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
      if (current !== expected) {
        process.stderr.write(`${relative} is stale: run \`npm run component-json\` and commit the result.\n`);
        process.exitCode = 1;
      }
    } else {
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, expected);
      process.stdout.write(`wrote ${relative}\n`);
    }
  }
}
