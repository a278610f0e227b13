/**
 * Generates component.json and the editor schema schema/config.schema.json (the same schema as a
 * file editors can point "$schema" at; component.json names it), the platform descriptor of this component, from package.json and the
 * configuration JSON Schema (src/config/schema.ts, the one source of truth). The generated file is
 * committed; tests/platform/componentJson.test.ts fails when it is stale.
 *
 *   npm run component-json            rewrite component.json
 *   npm run component-json -- --check exit 1 if component.json differs from what would be generated
 */
import fs from 'node:fs';
import path from 'node:path';
import { syncActionNames } from '../src/actions/index.ts';
import { configSchema } from '../src/config/schema.ts';

export const ROOT = path.resolve(import.meta.dirname, '..');
export const COMPONENT_JSON = path.join(ROOT, 'component.json');
export const EDITOR_SCHEMA = path.join(ROOT, 'schema', 'config.schema.json');
const EDITOR_SCHEMA_RELATIVE = 'schema/config.schema.json';

export const COMPONENT_ID = 'keboola.ex-generic-ts';
export const IMAGE_REPOSITORY = 'keboola/ex-generic-ts';

export function componentDescriptor(version: string): Record<string, unknown> {
  return {
    id: COMPONENT_ID,
    type: 'extractor',
    name: 'Generic Extractor (TypeScript)',
    description:
      'Configuration-driven HTTP API extractor: a drop-in replacement for Keboola Generic Extractor. ' +
      'Reads a JSON configuration (API, authentication, jobs, pagination, mappings), calls the API and writes CSV tables with manifests and the run state.',
    version,
    image: {
      repository: IMAGE_REPOSITORY,
      tag: version,
      entrypoint: ['node', '/app/dist/cli.js'],
      user: 'node',
      env: { KBC_DATADIR: '/data' },
    },
    dataFolder: {
      path: '/data',
      env: 'KBC_DATADIR',
      reads: {
        'config.json':
          'Configuration: parameters (api, config, iterations, sshProxy, aws, cache), authorization.oauth_api.credentials, action, image_parameters.allowed_hosts. Required.',
        'in/state.json': 'State saved by the previous successful run (time.previousStart, json_parser.*). Optional.',
      },
      writes: {
        'out/tables/':
          'One CSV file (no extension) per table, each with a .manifest (destination, incremental, primary_key); written only when the whole run succeeds.',
        'out/state.json': 'State for the next run; written at the end of a successful run.',
      },
    },
    exitCodes: { '0': 'success', '1': 'user error (configuration, API answers, network, SSH tunnel)', '2': 'application error' },
    logging: {
      type: 'standard',
      description: 'One log line per record on stdout; nothing on stderr during normal runs; secrets replaced by [hidden].',
    },
    // The UI builder's sync actions (src/actions/, spec 05) besides the extraction.
    actions: ['run', ...syncActionNames()],
    configurationSchemaFile: EDITOR_SCHEMA_RELATIVE,
    configurationSchema: configSchema,
  };
}

export function packageVersion(): string {
  return (JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
}

/** The exact bytes of component.json. */
export function renderComponentJson(): string {
  return JSON.stringify(componentDescriptor(packageVersion()), null, 2) + '\n';
}

/** The exact bytes of schema/config.schema.json. */
export function renderEditorSchema(): string {
  return JSON.stringify(configSchema, null, 2) + '\n';
}

if (import.meta.main) {
  for (const [file, expected] of [
    [COMPONENT_JSON, renderComponentJson()],
    [EDITOR_SCHEMA, renderEditorSchema()],
  ] as const) {
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
