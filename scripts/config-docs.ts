/**
 * Renders docs/configuration.md from the configuration JSON Schema (src/config/schema.ts), so the
 * documentation, the validator and the component descriptor share one source.
 *   node scripts/config-docs.ts          writes docs/configuration.md
 *   node scripts/config-docs.ts --check  exits 1 when the committed file is stale
 */
import fs from 'node:fs';
import path from 'node:path';
import { configSchema } from '../src/config/schema.ts';
import { paginationMethods } from '../src/pagination/registry.ts';
import { authMethodTypes } from '../src/auth/registry.ts';
import { functionNames } from '../src/functions/index.ts';
import '../src/pagination/index.ts';
import '../src/auth/index.ts';

type Node = { description?: string; properties?: Record<string, Node>; allOf?: Node[]; 'x-error'?: string; $ref?: string };

function rows(node: Node, prefix: string, out: string[]): void {
  const props: Record<string, Node> = { ...(node.properties ?? {}) };
  for (const part of node.allOf ?? []) Object.assign(props, part.properties ?? {});
  for (const [key, child] of Object.entries(props)) {
    const name = `${prefix}${key}`;
    const checks = [child['x-error'], ...(child.allOf ?? []).map((p) => p['x-error'])].filter(Boolean);
    const doc = (child.description ?? '').replaceAll('|', '\\|');
    out.push(`| \`${name}\` | ${doc} | ${checks.map((c) => `\`${c}\``).join('<br>')} |`);
    rows(child, `${name}.`, out);
  }
}

export function renderDocs(): string {
  const out = [
    '# Configuration reference',
    '',
    'Generated from `src/config/schema.ts` by `node scripts/config-docs.ts`; do not edit by hand.',
    "The last column lists the errors the validator reports for a key (exit 1, with the key's path).",
    '',
    '| key | meaning | error when invalid |',
    '|---|---|---|',
  ];
  rows(configSchema as unknown as Node, '', out);
  out.push(
    '',
    '## Jobs (`parameters.config.jobs[]`, and `children[]` at any depth)',
    '',
    '| key | meaning | error when invalid |',
    '|---|---|---|',
  );
  rows(configSchema.definitions.job as unknown as Node, '', out);
  out.push('', '## Registries', '');
  out.push(
    `- Pagination methods (\`api.pagination.method\`): ${paginationMethods()
      .map((m) => `\`${m}\``)
      .join(', ')}.`,
  );
  out.push(
    `- Authentication types (\`api.authentication.type\`): ${authMethodTypes()
      .map((m) => `\`${m}\``)
      .join(', ')}.`,
  );
  out.push(
    `- User functions: ${functionNames()
      .map((m) => `\`${m}\``)
      .join(', ')} (\`urlencode\` in placeholders only).`,
  );
  return out.join('\n') + '\n';
}

const target = path.join(import.meta.dirname, '..', 'docs', 'configuration.md');
if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  const text = renderDocs();
  if (process.argv.includes('--check')) {
    if (!fs.existsSync(target) || fs.readFileSync(target, 'utf8') !== text) {
      console.error('docs/configuration.md is stale: run node scripts/config-docs.ts');
      process.exitCode = 1;
    }
  } else {
    fs.writeFileSync(target, text);
  }
}
