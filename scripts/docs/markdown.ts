/** Small Markdown helpers shared by the generated user documentation (scripts/config-docs.ts). */

/** A JSON Schema node as the configuration schema writes it (the schema's own node type). */
export type { SchemaNode as Node } from '../../src/spec/schemaNode.ts';

/**
 * Text for users: the spec the developers work from is not theirs, so references to its parts
 * ("(spec 01 §3)", "§2.4") are dropped.
 */
export function userText(text: string): string {
  return text
    .replace(/\s*\((?:see )?spec \d+(?: §[\d.]+)?(?:,? §[\d.]+)*\)/g, '')
    .replace(/\s*\((?:§[\d.]+(?:, )?)+\)/g, '')
    .replace(/\bspec \d+ §[\d.]+/g, 'the reference')
    .replace(/§[\d.]+/g, '')
    .trim();
}

/** A table cell: no line breaks, pipes escaped. */
export function cell(text: string): string {
  return text.replace(/\r?\n/g, ' ').replaceAll('|', '\\|');
}

/** Inline code that survives backticks inside (Markdown's longer-fence rule). */
export function code(text: string): string {
  const fence = text.includes('`') ? '``' : '`';
  const pad = text.startsWith('`') || text.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${text}${pad}${fence}`;
}

/** Compact JSON, as a user writes it in config.json. */
export function json(v: unknown): string {
  return JSON.stringify(v) ?? 'undefined';
}

/** JSON indented for reading, with small objects and lists kept on one line (`column`: where it starts). */
export function prettyJson(v: unknown, indent = 0, column = indent): string {
  const flat = JSON.stringify(v);
  if (flat === undefined || v === null || typeof v !== 'object' || column + flat.length <= 90) return flat ?? 'null';
  const pad = ' '.repeat(indent + 2);
  const close = ' '.repeat(indent);
  if (Array.isArray(v)) return `[\n${v.map((x) => pad + prettyJson(x, indent + 2)).join(',\n')}\n${close}]`;
  const entries = Object.entries(v as Record<string, unknown>).map(([k, x]) => {
    const key = `${pad}${JSON.stringify(k)}: `;
    return key + prettyJson(x, indent + 2, key.length);
  });
  return `{\n${entries.join(',\n')}\n${close}}`;
}

/** A fenced JSON block. */
export function jsonBlock(v: unknown): string[] {
  return ['```json', prettyJson(v), '```'];
}

/** A Markdown table. */
export function table(header: string[], rows: string[][]): string[] {
  return [`| ${header.join(' | ')} |`, `|${header.map(() => '---').join('|')}|`, ...rows.map((r) => `| ${r.map(cell).join(' | ')} |`)];
}

/** GitHub's anchor of a heading. */
export function anchor(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');
}
