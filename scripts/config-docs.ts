/**
 * Generates the user documentation in docs/ from the configuration JSON Schema
 * (src/config/schema.ts) and the registries' specs (pagination methods, authentication types,
 * user functions, sync actions), so the docs, the validator and the component descriptor share one source.
 *   npm run docs                       writes the pages
 *   node scripts/config-docs.ts --check  exits 1 when a committed page is stale
 */
import fs from 'node:fs';
import path from 'node:path';
import { configSchema } from '../src/config/schema.ts';
import type { Node } from './docs/markdown.ts';
import { renderConfigurationPage } from './docs/schemaDocs.ts';
import { renderAuthenticationPage, renderFunctionsPage, renderPaginationPage } from './docs/registryDocs.ts';
import { renderActionsPage } from './docs/actionsDocs.ts';

const DOCS = path.join(import.meta.dirname, '..', 'docs');

/** Generated page (file name in docs/) → its content. */
export function renderAllDocs(): Map<string, string> {
  const schema = configSchema as unknown as Node;
  return new Map([
    ['configuration.md', renderConfigurationPage(schema)],
    ['pagination.md', renderPaginationPage(schema)],
    ['authentication.md', renderAuthenticationPage(schema)],
    ['functions.md', renderFunctionsPage()],
    ['actions.md', renderActionsPage()],
  ]);
}

/** The generated configuration reference (kept for callers of the single-page generator). */
export function renderDocs(): string {
  return renderAllDocs().get('configuration.md')!;
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  const check = process.argv.includes('--check');
  for (const [file, text] of renderAllDocs()) {
    const target = path.join(DOCS, file);
    if (!check) fs.writeFileSync(target, text);
    else if (!fs.existsSync(target) || fs.readFileSync(target, 'utf8') !== text) {
      console.error(`docs/${file} is stale: run npm run docs`);
      process.exitCode = 1;
    }
  }
}
