/**
 * The Encryption API (06 §3): `POST {encryption}/encrypt?componentId=…&projectId=…[&configId=…]`.
 * The service takes no token (EOA: no security scheme), so none is ever sent to it.
 */
import type { PlatformClient } from './client.ts';
import { isObject } from './transport.ts';

/**
 * What a cipher may be decrypted in (06 §3): a component of the project (ProjectSecure, the
 * default), one configuration (+configId: ConfigSecure), or every component of the project
 * (no componentId: ProjectWideSecure).
 */
export interface CipherScope {
  componentId?: string;
  projectId?: string;
  configId?: string;
}

/** Legacy cipher prefixes OE still recognises (06 §3). */
const LEGACY_PREFIXES = ['KBC::Encrypted==', 'KBC::ComponentEncrypted==', 'KBC::ComponentProjectEncrypted=='];

/** GO's `IsEncrypted` (06 §3): a value the service would return unchanged, so there is no need to send it. */
export function isEncrypted(value: string): boolean {
  return /^KBC::.+Secure.*::.+$/s.test(value) || LEGACY_PREFIXES.some((p) => value.startsWith(p)) || /^\{\{\s*vault\..+\}\}$/.test(value);
}

function encryptUrl(base: string, scope: CipherScope): string {
  const query = new URLSearchParams();
  if (scope.componentId !== undefined) query.set('componentId', scope.componentId);
  if (scope.projectId !== undefined) query.set('projectId', scope.projectId);
  if (scope.configId !== undefined) query.set('configId', scope.configId);
  return `${base}/encrypt?${query}`;
}

/** Encrypts every scalar under a `#` key, at any depth; the answer has the same shape. */
export async function encryptObject(
  client: PlatformClient,
  values: Record<string, unknown>,
  scope: CipherScope,
): Promise<Record<string, unknown>> {
  const url = encryptUrl(await client.getServiceUrl('encryption'), scope);
  const data = await client.request('POST', url, { service: 'Encryption API', withToken: false, json: values, retry: false });
  if (!isObject(data)) throw client.unexpected('Encryption API', 'POST', url, data, 'not an object');
  return data;
}

/** Encrypts one value (text/plain); a value that is already a cipher comes back unchanged. */
export async function encryptText(client: PlatformClient, value: string, scope: CipherScope): Promise<string> {
  const url = encryptUrl(await client.getServiceUrl('encryption'), scope);
  return client.requestText('POST', url, { service: 'Encryption API', withToken: false, text: value, retry: false });
}

/** Paths (as lists of keys: `['a', '#b']`, `['list', '2', '#c']`) of the plain strings under `#` keys of `value`. */
export function plainSecretPaths(value: unknown, prefix: string[] = []): string[][] {
  if (Array.isArray(value)) return value.flatMap((item, i) => plainSecretPaths(item, [...prefix, String(i)]));
  if (!isObject(value)) return [];
  return Object.entries(value).flatMap(([key, item]) => {
    if (key.startsWith('#') && typeof item === 'string') return isEncrypted(item) ? [] : [[...prefix, key]];
    return plainSecretPaths(item, [...prefix, key]);
  });
}
