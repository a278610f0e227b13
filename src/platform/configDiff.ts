/**
 * What `config push` would change, one line per changed value, shown before anything is written.
 * Values under a `#` key are never shown: a cipher reads `<encrypted>`, a plain value `<secret>`.
 */
import type { LocalConfiguration, LocalRow } from './configFolder.ts';

function isContainer(v: unknown): v is Record<string, unknown> | unknown[] {
  return typeof v === 'object' && v !== null;
}

function show(value: unknown, secret: boolean): string {
  if (secret) return typeof value === 'string' && value.startsWith('KBC::') ? '<encrypted>' : '<secret>';
  const text = JSON.stringify(value);
  return text.length > 80 ? `${text.slice(0, 79)}…` : text;
}

/** `a.b` for an object's key, `a[0]` for a list's index: the configuration paths errors use. */
function join(path: string, key: string, inList = false): string {
  if (inList) return `${path}[${key}]`;
  return path === '' ? key : `${path}.${key}`;
}

/** A value added or removed, leaf by leaf, so no `#` value deep inside is ever shown. */
function added(value: unknown, path: string, secret: boolean, sign: '+' | '-'): string[] {
  if (!isContainer(value) || Object.keys(value).length === 0) return [`${sign} ${path}: ${show(value, secret)}`];
  return Object.entries(value).flatMap(([key, item]) =>
    added(item, join(path, key, Array.isArray(value)), secret || key.startsWith('#'), sign),
  );
}

/** Differences between two JSON values, as `+ path: value`, `- path: value`, `~ path: old → new`. */
export function diffValues(before: unknown, after: unknown, path = '', secret = false): string[] {
  if (JSON.stringify(before) === JSON.stringify(after)) return [];
  if (isContainer(before) && isContainer(after) && Array.isArray(before) === Array.isArray(after)) {
    const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])];
    return keys.flatMap((key) => {
      const b = (before as Record<string, unknown>)[key];
      const a = (after as Record<string, unknown>)[key];
      const hidden = secret || key.startsWith('#');
      const where = join(path, key, Array.isArray(after));
      if (b === undefined) return added(a, where, hidden, '+');
      if (a === undefined) return added(b, where, hidden, '-');
      return diffValues(b, a, where, hidden);
    });
  }
  return [`~ ${path === '' ? '(whole)' : path}: ${show(before, secret)} → ${show(after, secret)}`];
}

function metaDiff(before: Omit<LocalRow, 'id' | 'configuration'>, after: Omit<LocalRow, 'id' | 'configuration'>): string[] {
  return (['name', 'description', 'isDisabled'] as const).flatMap((key) =>
    before[key] === after[key] ? [] : [`~ ${key}: ${show(before[key], false)} → ${show(after[key], false)}`],
  );
}

/** The diff of a whole configuration with its rows; `remote` undefined means it does not exist yet. */
export function diffConfiguration(remote: LocalConfiguration | undefined, local: LocalConfiguration): string[] {
  const indent = (lines: string[]): string[] => lines.map((l) => `    ${l}`);
  if (remote === undefined) {
    return [
      `  new configuration "${local.name}"`,
      ...indent(diffValues({}, local.configuration)),
      ...local.rows.flatMap((row) => [`  new row ${row.id} "${row.name}"`, ...indent(diffValues({}, row.configuration))]),
    ];
  }
  const lines: string[] = [];
  const own = [...metaDiff(remote, local), ...diffValues(remote.configuration, local.configuration)];
  if (own.length > 0) lines.push('  configuration:', ...indent(own));
  for (const row of local.rows) {
    const before = remote.rows.find((r) => r.id === row.id);
    if (before === undefined) lines.push(`  new row ${row.id} "${row.name}"`, ...indent(diffValues({}, row.configuration)));
    else {
      const changes = [...metaDiff(before, row), ...diffValues(before.configuration, row.configuration)];
      if (changes.length > 0) lines.push(`  row ${row.id}:`, ...indent(changes));
    }
  }
  for (const row of remote.rows) if (!local.rows.some((r) => r.id === row.id)) lines.push(`  removed row ${row.id} "${row.name}"`);
  const order = (c: LocalConfiguration) =>
    c.rows.map((r) => r.id).filter((id) => remote.rows.some((r) => r.id === id) && local.rows.some((r) => r.id === id));
  if (JSON.stringify(order(remote)) !== JSON.stringify(order(local))) lines.push(`  row order: ${local.rows.map((r) => r.id).join(', ')}`);
  return lines;
}
