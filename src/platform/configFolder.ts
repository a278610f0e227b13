/**
 * A configuration in a local folder, laid out like the data folder the component reads:
 *   DIR/config.json            the stored `configuration` (parameters, storage, processors, runtime)
 *   DIR/meta.json              name, description, isDisabled, and the rows in run order
 *   DIR/rows/<row id>/config.json   each row's `configuration`
 * so `KBC_DATADIR=DIR` runs the configuration itself locally (rows aside).
 */
import fs from 'node:fs';
import path from 'node:path';
import { UserError } from '../errors/UserError.ts';
import type { ConfigurationRecord } from './types.ts';
import { isObject } from './transport.ts';

export interface LocalRow {
  id: string;
  name: string;
  description: string;
  isDisabled: boolean;
  configuration: Record<string, unknown>;
}

export interface LocalConfiguration extends Omit<LocalRow, 'id'> {
  rows: LocalRow[];
}

/** Keys of config.json the platform injects at run time and never stores (06 §4): push drops them. */
export const RUNTIME_ONLY_KEYS = ['image_parameters', 'action'] as const;

function readJson(file: string, what: string): Record<string, unknown> {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    throw new UserError(`${file}: not found; ${what}`, { configPath: file });
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    throw new UserError(`${file}: not valid JSON (${(e as Error).message}); fix the file or pull the configuration again`, {
      configPath: file,
    });
  }
  if (!isObject(data))
    throw new UserError(`${file}: must hold a JSON object; fix the file or pull the configuration again`, { configPath: file });
  return data;
}

function text(meta: Record<string, unknown>, key: string, fallback: string): string {
  return typeof meta[key] === 'string' ? (meta[key] as string) : fallback;
}

function withoutRuntimeKeys(configuration: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(configuration).filter(([k]) => !(RUNTIME_ONLY_KEYS as readonly string[]).includes(k)));
}

/** The rows: in meta.json's order, then any other folder under rows/ (sorted), so a new row needs no meta entry. */
function readRows(dir: string, meta: Record<string, unknown>): LocalRow[] {
  const listed = Array.isArray(meta['rows']) ? meta['rows'].filter(isObject) : [];
  const rowsDir = path.join(dir, 'rows');
  const folders = fs.existsSync(rowsDir) ? fs.readdirSync(rowsDir).filter((f) => fs.statSync(path.join(rowsDir, f)).isDirectory()) : [];
  const ids = [...listed.map((r) => String(r['id'])), ...folders.filter((f) => !listed.some((r) => String(r['id']) === f)).sort()];
  return ids.map((id) => {
    const rowMeta = listed.find((r) => String(r['id']) === id) ?? {};
    const file = path.join(rowsDir, id, 'config.json');
    return {
      id,
      name: text(rowMeta, 'name', id),
      description: text(rowMeta, 'description', ''),
      isDisabled: rowMeta['isDisabled'] === true,
      configuration: withoutRuntimeKeys(readJson(file, `meta.json lists row "${id}": add ${file} or remove the row from meta.json`)),
    };
  });
}

export function readConfigFolder(dir: string): LocalConfiguration {
  const metaFile = path.join(dir, 'meta.json');
  const meta = fs.existsSync(metaFile) ? readJson(metaFile, '') : {};
  const configuration = readJson(path.join(dir, 'config.json'), 'create it (with "parameters") or run `config pull` first');
  return {
    name: text(meta, 'name', path.basename(path.resolve(dir))),
    description: text(meta, 'description', ''),
    isDisabled: meta['isDisabled'] === true,
    configuration: withoutRuntimeKeys(configuration),
    rows: readRows(dir, meta),
  };
}

function writeJson(file: string, data: unknown): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `${JSON.stringify(data, null, 2)}\n`);
}

export function localFromRecord(record: ConfigurationRecord): LocalConfiguration {
  return {
    name: record.name,
    description: record.description ?? '',
    isDisabled: record.isDisabled === true,
    configuration: record.configuration,
    rows: (record.rows ?? []).map((row) => ({
      id: row.id,
      name: row.name ?? '',
      description: row.description ?? '',
      isDisabled: row.isDisabled === true,
      configuration: isObject(row.configuration) ? row.configuration : {},
    })),
  };
}

/** Writes the folder; row folders that are not rows of `local` are removed (the folder mirrors it). */
export function writeConfigFolder(dir: string, local: LocalConfiguration): void {
  writeJson(path.join(dir, 'config.json'), local.configuration);
  writeJson(path.join(dir, 'meta.json'), {
    name: local.name,
    description: local.description,
    isDisabled: local.isDisabled,
    rows: local.rows.map(({ id, name, description, isDisabled }) => ({ id, name, description, isDisabled })),
  });
  for (const row of local.rows) writeJson(path.join(dir, 'rows', row.id, 'config.json'), row.configuration);
  const rowsDir = path.join(dir, 'rows');
  if (!fs.existsSync(rowsDir)) return;
  for (const folder of fs.readdirSync(rowsDir)) {
    if (!local.rows.some((r) => r.id === folder)) fs.rmSync(path.join(rowsDir, folder), { recursive: true, force: true });
  }
}
