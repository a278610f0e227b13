/**
 * The one configuration schema (src/config/schema.ts): the editor schema rejects what the
 * run-time validator rejects (and the documented mistakes on top), the pagination variants are
 * assembled from the registered method specs, and the authentication variants are exactly what
 * the registry knows.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { describe, it } from 'node:test';
import { Ajv } from 'ajv';
import { configSchema } from '../../src/config/schema.ts';
import { validateApiSection, validateConfigSection } from '../../src/config/validate.ts';
import { decodeJson } from '../../src/php/jsonDecode.ts';
import { member } from '../../src/php/value.ts';
import { paginationMethods, paginationMethodSpecs, STOP_CONDITION_OPTIONS } from '../../src/pagination/index.ts';
import { authMethodTypes } from '../../src/auth/registry.ts';
import { EDITOR_SCHEMA, renderEditorSchema } from '../../scripts/component-json.ts';
import '../../src/auth/index.ts';

const ajv = new Ajv({ allErrors: true, strict: false });
ajv.addKeyword({ keyword: 'x-error', schemaType: 'string' });
ajv.addKeyword({ keyword: 'x-check', schemaType: 'boolean' });
ajv.addKeyword({ keyword: 'x-discriminator', schemaType: 'string' });
const editor = ajv.compile(configSchema);

const valid = {
  parameters: {
    api: {
      baseUrl: 'https://api.example.com/v1/',
      pagination: { method: 'offset', limit: 100, forceStop: { pages: 3 } },
      authentication: { type: 'query', query: { key: { attr: '#key' } } },
      retryConfig: { maxRetries: 3 },
      http: { headers: { Accept: 'application/json' }, ignoreErrors: [404] },
    },
    config: {
      '#key': 'x',
      incrementalOutput: true,
      jobs: [{ endpoint: 'users', dataField: 'data', params: [], children: [{ endpoint: 'users/{id}', placeholders: { id: 'id' } }] }],
      mappings: { users: { id: { type: 'column', mapping: { destination: 'id', primaryKey: true } }, name: 'name' } },
    },
  },
};

function withConfig(change: (c: typeof valid) => void): unknown {
  const copy = structuredClone(valid);
  change(copy);
  return copy;
}

/** Whether the run-time validator (the reference's checks) accepts the configuration. */
function runtimeAccepts(doc: unknown): boolean {
  const root = decodeJson(JSON.stringify(doc), 'config');
  const parameters = member(root, 'parameters');
  try {
    validateConfigSection(member(parameters, 'config'), 'parameters.config');
    validateApiSection(member(parameters, 'api'), 'parameters.api');
    return true;
  } catch {
    return false;
  }
}

describe('the configuration schema', () => {
  it('accepts a valid configuration (editor and run-time)', () => {
    assert.ok(editor(valid), JSON.stringify(editor.errors));
    assert.ok(runtimeAccepts(valid));
  });

  it('the editor schema rejects every configuration the run-time validator rejects', () => {
    const rejected = [
      withConfig((c) => ((c.parameters.config as Record<string, unknown>)['jobs'] = [])),
      withConfig((c) => ((c.parameters.config.jobs[0] as Record<string, unknown>)['endpoint'] = '')),
      withConfig((c) => ((c.parameters.config.jobs[0] as Record<string, unknown>)['params'] = 'x=1')),
      withConfig((c) => ((c.parameters.config.jobs[0] as Record<string, unknown>)['children'] = 'none')),
      withConfig((c) => ((c.parameters.config.jobs as unknown[])[1] = 'abc')),
      withConfig((c) => ((c.parameters.api as Record<string, unknown>)['caCertificate'] = 5)),
      withConfig((c) => ((c.parameters as Record<string, unknown>)['config'] = {})),
    ];
    for (const doc of rejected) {
      assert.equal(runtimeAccepts(doc), false, JSON.stringify(doc));
      assert.equal(editor(doc), false, JSON.stringify(doc));
    }
  });

  it('the editor schema flags the mistakes the reference silently tolerates; the run-time validator lets them run', () => {
    const tolerated = [
      withConfig((c) => ((c.parameters.config.jobs[0] as Record<string, unknown>)['dataFeild'] = 'data')),
      withConfig((c) => ((c.parameters.api as Record<string, unknown>)['paginaton'] = { method: 'pagenum' })),
      withConfig((c) => ((c.parameters.config.jobs[0] as Record<string, unknown>)['params'] = ['a', 'b'])),
      withConfig((c) => ((c.parameters.api.retryConfig as Record<string, unknown>)['maxRetries'] = 'three')),
      withConfig((c) => ((c.parameters.config as Record<string, unknown>)['incrementalOutput'] = 'true')),
      withConfig((c) => ((c.parameters.api.pagination as Record<string, unknown>)['limt'] = 5)),
      withConfig((c) => ((c.parameters.api.authentication as Record<string, unknown>)['type'] = 'bearer')),
      // Timeouts: text that is not a number, below 0, or longer than a timer holds (the longest timer, with a WARNING).
      withConfig((c) => ((c.parameters.api as Record<string, unknown>)['http'] = { requestTimeout: 'abc' })),
      withConfig((c) => ((c.parameters.api as Record<string, unknown>)['http'] = { connectTimeout: -5 })),
      withConfig((c) => ((c.parameters.api as Record<string, unknown>)['http'] = { connectTimeout: 1e12 })),
      withConfig((c) => ((c.parameters.api.retryConfig as Record<string, unknown>)['codes'] = [503])),
    ];
    for (const doc of tolerated) {
      assert.equal(runtimeAccepts(doc), true, JSON.stringify(doc));
      assert.equal(editor(doc), false, JSON.stringify(doc));
    }
  });

  it('assembles the pagination variants from the registered specs, in registration order', () => {
    const [noMethod, ...variants] = configSchema.definitions.pagination.oneOf;
    assert.deepEqual((noMethod!.properties as Record<string, unknown>)['method'], { enum: [null, ''] });
    assert.deepEqual(
      variants.map((v) => (v.properties as { method: { const: string } }).method.const),
      paginationMethods(),
    );
    const specs = paginationMethodSpecs();
    variants.forEach((variant, i) => {
      const spec = specs[i]!;
      const properties = variant.properties as Record<string, unknown>;
      assert.deepEqual(
        Object.keys(properties),
        ['method', ...Object.keys(spec.options), ...Object.keys(STOP_CONDITION_OPTIONS)],
        spec.method,
      );
      for (const [name, node] of Object.entries(spec.options)) assert.equal(properties[name], node, `${spec.method}.${name}`);
      for (const name of spec.required ?? []) assert.ok(name in spec.options, `${spec.method}: required '${name}' is not an option`);
      assert.deepEqual(variant.required, ['method', ...(spec.required ?? [])], spec.method);
    });
  });

  it('has one authentication variant per registered type', () => {
    const types = configSchema.definitions.authentication.oneOf.map((v) => (v.properties as { type: { const: string } }).type.const);
    assert.deepEqual([...types].sort(), authMethodTypes().sort());
  });

  it('schema/config.schema.json is the schema as generated', () => {
    assert.equal(fs.readFileSync(EDITOR_SCHEMA, 'utf8'), renderEditorSchema(), 'run `npm run component-json`');
  });
});
