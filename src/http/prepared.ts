/** A request ready for the retry loop: URL parts, ordered headers and body bytes. */
import type { HeaderList } from './headers.ts';

export interface RequestUrl {
  scheme: 'http' | 'https';
  userinfo: string | undefined;
  host: string;
  /** Explicit non-default port, else undefined. */
  port: number | undefined;
  path: string;
  query: string | undefined;
}

export interface PreparedRequest {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD' | 'OPTIONS';
  url: RequestUrl;
  headers: HeaderList;
  body: Buffer | undefined;
  /** Names of headers set by authentication: hidden whole in logs. */
  authHeaders: Set<string>;
}

export function defaultPort(scheme: string): number {
  return scheme === 'https' ? 443 : 80;
}

export function requestTarget(url: RequestUrl): string {
  const path = url.path === '' ? '/' : url.path;
  return url.query !== undefined && url.query !== '' ? `${path}?${url.query}` : path;
}

export function hostHeader(url: RequestUrl): string {
  return url.port === undefined ? url.host : `${url.host}:${url.port}`;
}

/** The URL as the reference prints it in messages (password masked). */
export function displayUrl(url: RequestUrl): string {
  let auth = '';
  if (url.userinfo !== undefined) {
    const colon = url.userinfo.indexOf(':');
    auth = (colon >= 0 ? `${url.userinfo.slice(0, colon)}:***` : url.userinfo) + '@';
  }
  return `${url.scheme}://${auth}${hostHeader(url)}${requestTarget(url)}`;
}

export function cloneRequest(req: PreparedRequest): PreparedRequest {
  return { ...req, url: { ...req.url }, headers: req.headers.clone(), authHeaders: new Set(req.authHeaders) };
}
