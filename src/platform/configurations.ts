/**
 * Configurations and their rows in the Storage API (06 §4), on a branch (`default` unless given):
 * `{storage}/v2/storage/branch/{b}/components/{component}/configs…`. Bodies are JSON (SAPI, GO).
 */
import type { PlatformClient } from './client.ts';
import { PlatformApiError } from './errors/PlatformApiError.ts';
import { isObject } from './transport.ts';
import type { ConfigurationRecord } from './types.ts';

export interface ConfigurationAddress {
  component: string;
  configId: string;
  /** A dev-branch id; default the default branch. */
  branch?: string;
}

/** What a create or an update sends (only the keys given: updates send what changed, as SAPI's clients do). */
export interface ConfigurationWrite {
  name?: string;
  description?: string;
  configuration?: Record<string, unknown>;
  isDisabled?: boolean;
  changeDescription?: string;
  rowsSortOrder?: string[];
}

function configsUrl(client: PlatformClient, address: Omit<ConfigurationAddress, 'configId'>): string {
  const branch = encodeURIComponent(address.branch ?? 'default');
  return client.storageApiUrl(`/branch/${branch}/components/${encodeURIComponent(address.component)}/configs`);
}

function configUrl(client: PlatformClient, address: ConfigurationAddress): string {
  return `${configsUrl(client, address)}/${encodeURIComponent(address.configId)}`;
}

function rowUrl(client: PlatformClient, address: ConfigurationAddress, rowId: string): string {
  return `${configUrl(client, address)}/rows/${encodeURIComponent(rowId)}`;
}

function record(client: PlatformClient, data: unknown, method: string, url: string): ConfigurationRecord {
  if (!isObject(data) || typeof data['id'] !== 'string' || (!isObject(data['configuration']) && !Array.isArray(data['configuration'])))
    throw client.unexpected('Storage API', method, url, data, 'not a configuration');
  // PHP's JSON encoder writes an empty object as [] (a configuration never stored).
  if (Array.isArray(data['configuration'])) data['configuration'] = {};
  return data as ConfigurationRecord;
}

const storage = { service: 'Storage API', withToken: true } as const;

/** The configuration with its rows (in run order). */
export async function getConfiguration(client: PlatformClient, address: ConfigurationAddress): Promise<ConfigurationRecord> {
  const url = configUrl(client, address);
  return record(client, await client.request('GET', url, { ...storage, retry: true }), 'GET', url);
}

/** Whether the configuration exists (a 404 answer says it does not). */
export async function findConfiguration(client: PlatformClient, address: ConfigurationAddress): Promise<ConfigurationRecord | undefined> {
  try {
    return await getConfiguration(client, address);
  } catch (e) {
    if (e instanceof PlatformApiError && e.status === 404) return undefined;
    throw e;
  }
}

export async function createConfiguration(
  client: PlatformClient,
  address: ConfigurationAddress,
  write: ConfigurationWrite & { name: string },
): Promise<ConfigurationRecord> {
  const url = configsUrl(client, address);
  const body = { configurationId: address.configId, ...write };
  return record(client, await client.request('POST', url, { ...storage, json: body, retry: false }), 'POST', url);
}

export async function updateConfiguration(
  client: PlatformClient,
  address: ConfigurationAddress,
  write: ConfigurationWrite,
): Promise<ConfigurationRecord> {
  const url = configUrl(client, address);
  return record(client, await client.request('PUT', url, { ...storage, json: write, retry: false }), 'PUT', url);
}

export async function createRow(
  client: PlatformClient,
  address: ConfigurationAddress,
  rowId: string,
  write: ConfigurationWrite,
): Promise<ConfigurationRecord> {
  const url = `${configUrl(client, address)}/rows`;
  return record(client, await client.request('POST', url, { ...storage, json: { rowId, ...write }, retry: false }), 'POST', url);
}

export async function updateRow(
  client: PlatformClient,
  address: ConfigurationAddress,
  rowId: string,
  write: ConfigurationWrite,
): Promise<ConfigurationRecord> {
  const url = rowUrl(client, address, rowId);
  return record(client, await client.request('PUT', url, { ...storage, json: write, retry: false }), 'PUT', url);
}

export async function deleteRow(
  client: PlatformClient,
  address: ConfigurationAddress,
  rowId: string,
  changeDescription: string,
): Promise<void> {
  const url = rowUrl(client, address, rowId);
  await client.request('DELETE', url, { ...storage, json: { changeDescription }, retry: false });
}
