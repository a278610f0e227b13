/** `encrypt`, `config pull`, `config push` (06 §3, §4). */
import fs from 'node:fs';
import path from 'node:path';
import { UserError } from '../errors/UserError.ts';
import type { PlatformClient } from './client.ts';
import { type CliContext, required } from './cliContext.ts';
import { diffConfiguration } from './configDiff.ts';
import { type LocalConfiguration, localFromRecord, readConfigFolder, writeConfigFolder } from './configFolder.ts';
import {
  type ConfigurationAddress,
  createConfiguration,
  createRow,
  deleteRow,
  findConfiguration,
  getConfiguration,
  updateConfiguration,
  updateRow,
} from './configurations.ts';
import { type CipherScope, encryptObject, encryptText, plainSecretPaths } from './encryption.ts';
import { CommandLineUsageError } from './errors/CommandLineUsageError.ts';
import { isObject } from './transport.ts';

async function projectId(ctx: CliContext): Promise<string> {
  return ctx.values.project ?? (await ctx.client().verifyToken()).projectId;
}

export async function encryptValues(ctx: CliContext): Promise<number> {
  const { values } = ctx;
  if ((values.value === undefined) === (values.file === undefined))
    throw new CommandLineUsageError('give --value TEXT (repeatable) or --file PATH');
  // Without --component the cipher works for every component of the project (ProjectWideSecure).
  const scope: CipherScope = { projectId: await projectId(ctx) };
  if (values.component !== undefined) scope.componentId = values.component;
  if (values.config !== undefined) {
    if (values.component === undefined)
      throw new CommandLineUsageError('--config needs --component (a configuration belongs to a component)');
    scope.configId = values.config;
  }
  const client = ctx.client();
  if (values.file !== undefined) {
    const file = path.resolve(ctx.cwd, values.file);
    const data = readJsonObject(file);
    ctx.out(JSON.stringify(await encryptObject(client, data, scope), null, 2));
    return 0;
  }
  const ciphers: string[] = [];
  for (const value of values.value ?? []) ciphers.push(await encryptText(client, value, scope));
  ctx.out(values.json ? JSON.stringify(ciphers, null, 2) : ciphers.join('\n'));
  return 0;
}

function readJsonObject(file: string): Record<string, unknown> {
  let data: unknown;
  try {
    data = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (e) {
    throw new UserError(
      `--file ${file}: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'not found' : 'not valid JSON'}; give a JSON file with the values to encrypt`,
    );
  }
  if (!isObject(data)) throw new UserError(`--file ${file}: must hold a JSON object`);
  return data;
}

function address(ctx: CliContext): ConfigurationAddress {
  const { values } = ctx;
  return {
    component: required(values.component, 'component'),
    configId: required(values.config, 'config'),
    ...(values.branch ? { branch: values.branch } : {}),
  };
}

function folder(ctx: CliContext): string {
  return path.resolve(ctx.cwd, required(ctx.values.dir, 'dir'));
}

export async function configPull(ctx: CliContext): Promise<number> {
  const where = address(ctx);
  const record = await getConfiguration(ctx.client(), where);
  const dir = folder(ctx);
  const local = localFromRecord(record);
  writeConfigFolder(dir, local);
  if (ctx.values.json) ctx.out(JSON.stringify({ dir, version: record.version, rows: local.rows.map((r) => r.id) }, null, 2));
  else
    ctx.out(
      `pulled ${where.component} ${where.configId} (version ${String(record.version ?? '?')}, ${local.rows.length} row${local.rows.length === 1 ? '' : 's'}) into ${dir}`,
    );
  return 0;
}

/**
 * Replaces every plain `#` string of the configuration and its rows with a cipher (ProjectSecure:
 * component and project, as the UI and KAC encrypt), one call per configuration or row with a
 * flat object of `#` keys, as KAC sends; returns how many values were encrypted.
 */
async function encryptSecrets(client: PlatformClient, local: LocalConfiguration, scope: CipherScope): Promise<number> {
  let count = 0;
  for (const target of [local, ...local.rows]) {
    const paths = plainSecretPaths(target.configuration);
    if (paths.length === 0) continue;
    // Keys of the request are the paths, each made a `#` key so the service encrypts its value.
    const plain = Object.fromEntries(paths.map((keys, i) => [`#${i}`, walk(target.configuration, keys)]));
    const ciphers = await encryptObject(client, plain, scope);
    for (const [i, keys] of paths.entries()) setPath(target.configuration, keys, ciphers[`#${i}`]);
    count += paths.length;
  }
  return count;
}

function walk(root: unknown, keys: string[]): unknown {
  return keys.reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], root);
}

function setPath(root: unknown, keys: string[], value: unknown): void {
  (walk(root, keys.slice(0, -1)) as Record<string, unknown>)[keys.at(-1)!] = value;
}

export async function configPush(ctx: CliContext): Promise<number> {
  const where = address(ctx);
  const dir = folder(ctx);
  const local = readConfigFolder(dir);
  const client = ctx.client();
  const remoteRecord = await findConfiguration(client, where);
  const dryRun = ctx.values['dry-run'] === true;
  if (!dryRun) {
    const encrypted = await encryptSecrets(client, local, { componentId: where.component, projectId: await projectId(ctx) });
    // The folder keeps the ciphers, not the plain values: nothing secret stays on disk, and a second push changes nothing.
    if (encrypted > 0) {
      writeConfigFolder(dir, local);
      ctx.err(`encrypted ${encrypted} secret value${encrypted === 1 ? '' : 's'} (written back to ${dir})`);
    }
  }
  const remote = remoteRecord ? localFromRecord(remoteRecord) : undefined;
  const diff = diffConfiguration(remote, local);
  const written = diff.length > 0 && !dryRun ? await writeRemote(client, where, remote, local) : undefined;
  if (ctx.values.json)
    ctx.out(JSON.stringify({ component: where.component, config: where.configId, changes: diff, dryRun, version: written }, null, 2));
  else printPush(ctx, where, diff, dryRun, written);
  return 0;
}

/** Text output: the diff (at most DIFF_LINES lines; --json has them all), then what was done. */
function printPush(ctx: CliContext, where: ConfigurationAddress, diff: string[], dryRun: boolean, version: number | undefined): void {
  ctx.out(`${where.component} ${where.configId}${diff.length === 0 ? ': no changes' : ':'}`);
  for (const line of diff.slice(0, DIFF_LINES)) ctx.out(line);
  if (diff.length > DIFF_LINES) ctx.out(`  … and ${diff.length - DIFF_LINES} more changed values (--json lists them all)`);
  if (diff.length > 0 && dryRun) ctx.out('dry run: nothing written (plain `#` values are encrypted when you push)');
  if (version !== undefined) ctx.out(`pushed: version ${version}`);
}

const DIFF_LINES = 40;

/** Creates or updates the configuration, then its rows, then their order; returns the new version. */
async function writeRemote(
  client: PlatformClient,
  where: ConfigurationAddress,
  remote: LocalConfiguration | undefined,
  local: LocalConfiguration,
): Promise<number> {
  const change = 'Pushed by ex-generic-platform';
  const own = {
    name: local.name,
    description: local.description,
    isDisabled: local.isDisabled,
    configuration: local.configuration,
    changeDescription: change,
  };
  if (remote === undefined) await createConfiguration(client, where, own);
  else await updateConfiguration(client, where, own);
  for (const row of local.rows) {
    const write = {
      name: row.name,
      description: row.description,
      isDisabled: row.isDisabled,
      configuration: row.configuration,
      changeDescription: change,
    };
    const before = remote?.rows.find((r) => r.id === row.id);
    if (before === undefined) await createRow(client, where, row.id, write);
    else if (JSON.stringify(before) !== JSON.stringify(row)) await updateRow(client, where, row.id, write);
  }
  for (const row of remote?.rows ?? []) if (!local.rows.some((r) => r.id === row.id)) await deleteRow(client, where, row.id, change);
  const after = await getConfiguration(client, where);
  const order = local.rows.map((r) => r.id);
  if (order.length > 1 && JSON.stringify(after.rowsSortOrder ?? after.rows?.map((r) => r.id)) !== JSON.stringify(order))
    return Number((await updateConfiguration(client, where, { rowsSortOrder: order, changeDescription: change })).version);
  return Number(after.version);
}
