/** Keboola's multi-tenant stacks (spec 01 §5.1) and how a stack argument becomes a storage URL. */
import { PlatformUsageError } from './errors/PlatformUsageError.ts';

export interface Stack {
  name: string;
  label: string;
  storageUrl: string;
  portalUrl: string;
}

export const STACKS: readonly Stack[] = [
  { name: 'us-east-aws', label: 'US Virginia, AWS', storageUrl: 'https://connection.keboola.com', portalUrl: 'https://api.keboola.com' },
  {
    name: 'us-east-gcp',
    label: 'US Virginia, GCP',
    storageUrl: 'https://connection.us-east4.gcp.keboola.com',
    portalUrl: 'https://api.us-east4.gcp.keboola.com',
  },
  {
    name: 'eu-central-aws',
    label: 'EU Frankfurt, AWS',
    storageUrl: 'https://connection.eu-central-1.keboola.com',
    portalUrl: 'https://api.eu-central-1.keboola.com',
  },
  {
    name: 'eu-north-azure',
    label: 'EU Ireland, Azure',
    storageUrl: 'https://connection.north-europe.azure.keboola.com',
    portalUrl: 'https://api.north-europe.azure.keboola.com',
  },
  {
    name: 'eu-west-gcp',
    label: 'EU Frankfurt, GCP',
    storageUrl: 'https://connection.europe-west3.gcp.keboola.com',
    portalUrl: 'https://api.europe-west3.gcp.keboola.com',
  },
];

const LOOPBACK = /^(127\.\d{1,3}\.\d{1,3}\.\d{1,3}|\[::1\]|localhost)$/i;

/** Whether a URL's host is the local machine (plain http is tolerated there only when enabled, for tests). */
export function isLoopbackHost(hostname: string): boolean {
  return LOOPBACK.test(hostname);
}

/** The transport rule: https always; plain http only for a loopback host when `allowHttpLoopback` is set. */
export function hasAllowedScheme(url: URL, allowHttpLoopback: boolean): boolean {
  return url.protocol === 'https:' || (url.protocol === 'http:' && allowHttpLoopback && isLoopbackHost(url.hostname));
}

/**
 * Parses a base URL and applies the transport rule: https always; http only for loopback hosts
 * when `allowHttpLoopback` is set. Returns the URL without trailing `/`, query or fragment.
 */
export function normaliseBaseUrl(text: string, allowHttpLoopback: boolean, what = 'stack URL'): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new PlatformUsageError(`Invalid ${what} "${text}": not an absolute URL.`);
  }
  if (url.username !== '' || url.password !== '')
    throw new PlatformUsageError(`Invalid ${what} "${url.host}": credentials in URLs are not accepted.`);
  if (!hasAllowedScheme(url, allowHttpLoopback))
    throw new PlatformUsageError(`Invalid ${what} "${text}": platform APIs are called over https only.`);
  if (url.search !== '' || url.hash !== '') throw new PlatformUsageError(`Invalid ${what} "${text}": no query or fragment expected.`);
  return `${url.origin}${url.pathname}`.replace(/\/+$/, '');
}

/** A stack name from STACKS, or the URL of a (single-tenant) stack's storage API. */
export function resolveStack(nameOrUrl: string, allowHttpLoopback = false): { storageUrl: string; portalUrl: string | undefined } {
  const known = STACKS.find((s) => s.name === nameOrUrl);
  if (known) return { storageUrl: known.storageUrl, portalUrl: known.portalUrl };
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(nameOrUrl)) {
    throw new PlatformUsageError(
      `Unknown stack "${nameOrUrl}". Use one of ${STACKS.map((s) => s.name).join(', ')}, or the stack's https:// URL.`,
    );
  }
  const storageUrl = normaliseBaseUrl(nameOrUrl, allowHttpLoopback);
  // A multi-tenant stack given by URL still gets its portal; single-tenant portals are undetermined (01 §5.1).
  const byUrl = STACKS.find((s) => s.storageUrl === storageUrl);
  return { storageUrl, portalUrl: byUrl?.portalUrl };
}
