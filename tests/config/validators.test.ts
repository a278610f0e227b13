/**
 * src/config/validators.generated.ts is generated (scripts/validators.ts) from the schema, never
 * edited by hand: the committed file must match, or validation would follow an older schema.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { test } from 'node:test';
import { renderValidators, VALIDATORS_FILE } from '../../scripts/validators.ts';
import { validateApiSection, validateConfigSection } from '../../src/config/validate.ts';
import { PhpArray } from '../../src/php/value.ts';
import { UserError } from '../../src/errors/UserError.ts';

test('the committed validators.generated.ts is exactly what `npm run validators` generates', () => {
  assert.ok(fs.existsSync(VALIDATORS_FILE), 'src/config/validators.generated.ts is missing: run `npm run validators`');
  const committed = fs.readFileSync(VALIDATORS_FILE, 'utf8');
  assert.ok(
    committed === renderValidators(),
    'src/config/validators.generated.ts is stale: run `npm run validators` and commit the result',
  );
});

test('the generated validators report the x-error message and path of the first failing check (params before endpoint)', () => {
  const job = new PhpArray([['params', 'x=1']]);
  const config = new PhpArray([
    [
      'jobs',
      [
        new PhpArray([['endpoint', 'a']]),
        new PhpArray([
          ['endpoint', 'b'],
          ['children', [job]],
        ]),
      ],
    ],
  ]);
  assert.throws(
    () => validateConfigSection(config, 'parameters.config'),
    (e: unknown) =>
      e instanceof UserError &&
      e.message === "The 'params' property must be an array." &&
      e.configPath === 'parameters.config.jobs[1].children[0].params',
  );
  assert.throws(
    () => validateApiSection(new PhpArray([['caCertificate', 5]]), 'parameters.api'),
    (e: unknown) =>
      e instanceof UserError && e.message === "The 'caCertificate' must be string." && e.configPath === 'parameters.api.caCertificate',
  );
  validateConfigSection(new PhpArray([['jobs', [new PhpArray([['endpoint', 'a']])]]]), 'parameters.config');
});
