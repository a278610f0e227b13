/**
 * The user documentation in docs/ is generated from the configuration schema and the registries
 * (npm run docs) and committed; these tests fail when a page is stale or loses what a newcomer
 * needs: every pagination method, authentication type and function with an example, no spec
 * section numbers, the README linking the pages, and the migration page's three sections.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { renderAllDocs } from '../../scripts/config-docs.ts';
import { paginationMethods } from '../../src/pagination/registry.ts';
import { authMethodTypes } from '../../src/auth/registry.ts';
import { listFunctions } from '../../src/functions/index.ts';

const ROOT = path.join(import.meta.dirname, '..', '..');
const read = (file: string): string => fs.readFileSync(path.join(ROOT, file), 'utf8');
const pages = renderAllDocs();

test('the generated pages in docs/ are up to date', () => {
  for (const [file, text] of pages) assert.equal(read(`docs/${file}`), text, `docs/${file} is stale: run npm run docs`);
});

test('each pagination method, authentication type and user function has a section with an example', () => {
  const sections = (page: string, heading: string): Map<string, string> => {
    const out = new Map<string, string>();
    const parts = pages
      .get(page)!
      .split(new RegExp(`^${heading} `, 'm'))
      .slice(1);
    for (const part of parts) out.set(/^`([^`]+)`/.exec(part)?.[1] ?? '', part);
    return out;
  };
  const pagination = sections('pagination.md', '##');
  for (const method of paginationMethods()) {
    const text = pagination.get(method);
    assert.ok(text, `pagination.md: no section for ${method}`);
    assert.match(text, /Example:\n\n```json\n\{/, method);
    assert.ok(text.includes(`"method":"${method}"`) || text.includes(`"method": "${method}"`), method);
    assert.match(text, /\nSends: \S/, method);
  }
  const auth = sections('authentication.md', '##');
  for (const type of authMethodTypes()) {
    const text = auth.get(type);
    assert.ok(text, `authentication.md: no section for ${type}`);
    assert.ok(text.includes(`"type": "${type}"`) || text.includes(`"type":"${type}"`), type);
    assert.match(text, /\nSends: \S/, type);
  }
  const functions = sections('functions.md', '###');
  for (const spec of listFunctions()) {
    const text = functions.get(spec.name);
    assert.ok(text, `functions.md: no section for ${spec.name}`);
    assert.match(text, /\ngives `[^`]+`\./, spec.name);
  }
});

test('function examples show the result the extractor computes', () => {
  const functions = pages.get('functions.md')!;
  assert.ok(functions.includes('gives `"5d41402abc4b2a76b9719d911017c592"`.'), 'md5("hello")');
  assert.ok(functions.includes('gives `"Bearer abc123"`.'), 'concat with an attribute');
  assert.ok(functions.includes('gives `"Sm9obkRvZTpzZWNyZXQ="`.'), 'base64_encode of user:password');
});

test("user docs never cite the developers' spec", () => {
  for (const file of [...pages.keys(), 'migration.md']) {
    const text = read(`docs/${file}`);
    assert.ok(!/§|\bspec 0\d/.test(text), `docs/${file} cites the spec: ${/.{0,40}(§|spec 0\d).{0,40}/.exec(text)?.[0]}`);
  }
});

test('the README links every user page; the migration page has its guide and its three sections', () => {
  const readme = read('README.md');
  for (const file of [...pages.keys(), 'migration.md']) assert.ok(readme.includes(`(docs/${file})`), `README does not link docs/${file}`);
  const headings = read('docs/migration.md')
    .split('\n')
    .filter((l) => l.startsWith('## '));
  assert.deepEqual(headings, [
    '## Moving a working configuration, step by step',
    '## Identical',
    '## Deliberate differences',
    '## Not supported',
  ]);
});

test('every option in the generated tables has a type, a meaning and an example', () => {
  const missing: string[] = [];
  for (const file of ['configuration.md', 'pagination.md', 'authentication.md']) {
    for (const line of pages.get(file)!.split('\n')) {
      if (!line.startsWith('| `')) continue;
      const cells = line
        .slice(2, -2)
        .split(/(?<!\\)\|/)
        .map((c) => c.trim());
      if (cells.length !== 5) continue; // not an option table (e.g. the keys in the wrong place)
      const [name, type, , meaning, example] = cells;
      for (const [what, value] of [
        ['type', type],
        ['meaning', meaning],
        ['example', example],
      ] as const) {
        if (!value) missing.push(`${file} ${name}: no ${what}`);
      }
    }
  }
  assert.deepEqual(
    missing,
    [],
    'add a description or examples to the key in src/config/schema*.ts, or in the spec of its pagination method (src/pagination/*.ts) or authentication type (src/auth/*.ts)',
  );
});

test('configuration.md shows parent columns read with a user column, in a worked example', () => {
  const page = pages.get('configuration.md')!;
  assert.ok(page.includes('### Parent columns and user columns'));
  assert.ok(page.includes('"parent_id": {"type":"user","mapping":{"destination":"customer_id"}}'));
});
