/**
 * Matching rules of keboola/ex-generic-mock-server (PHP 7.4, Symfony 5, Apache), as described in
 * conformance/README.md, "The mock server".
 */
import { numericString } from '../php/isNumeric.ts';
import { phpTrim, phpTrimBytes, type Sample } from './simulations.ts';

/** What the matcher needs to know about a received request. */
export interface IncomingRequest {
  /** Effective method (after `X-HTTP-Method-Override`). */
  method: string;
  /** Raw path and query string as sent (latin1 = raw bytes). */
  uri: string;
  /** Header names lower-cased; repeated headers joined with ", "; Apache-dropped names removed. */
  headers: Map<string, string>;
  /** Body as PHP sees it (empty for multipart). */
  body: Buffer;
}

/** Names Apache hands to PHP: letters, digits and `-` only (others, e.g. with `_`, are dropped). */
const VALID_HEADER_NAME = /^[A-Za-z0-9-]+$/;
/** Never reach PHP: `Proxy` (httpoxy) and `Proxy-Authorization`. */
const APACHE_HIDDEN_HEADERS = new Set(['proxy', 'proxy-authorization']);

/**
 * Header map from Node's `rawHeaders` ([name, value, name, value, ...]) as Symfony sees them
 * behind Apache: names lower-cased, values trimmed, repeated headers joined with ", " in arrival
 * order, names with other characters than letters, digits and `-` dropped, `Proxy` and
 * `Proxy-Authorization` dropped.
 */
export function normalizeHeaders(rawHeaders: readonly string[]): Map<string, string> {
  const out = new Map<string, string>();
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    const name = rawHeaders[i]!;
    if (!VALID_HEADER_NAME.test(name)) continue;
    const key = name.toLowerCase();
    if (APACHE_HIDDEN_HEADERS.has(key)) continue;
    const value = rawHeaders[i + 1]!.trim();
    const prev = out.get(key);
    out.set(key, prev === undefined ? value : `${prev}, ${value}`);
  }
  return out;
}

/** Symfony 5 `Request::getMethod()`: POST + `X-HTTP-Method-Override` uses the (upper-cased) header. */
export function effectiveMethod(method: string, headers: ReadonlyMap<string, string>): { method: string; error?: string } {
  const m = method.toUpperCase();
  if (m !== 'POST') return { method: m };
  const override = headers.get('x-http-method-override');
  // PHP `!$method`: an empty header and "0" count as absent.
  if (override === undefined || override === '' || override === '0') return { method: m };
  const o = override.toUpperCase();
  // Symfony throws SuspiciousOperationException (answered with 400) for anything but letters.
  if (!/^[A-Z]+$/.test(o)) return { method: m, error: `Invalid method override "${o}".` };
  return { method: o };
}

/** PHP parses `multipart/form-data` POST bodies into $_POST/$_FILES; `php://input` reads empty. */
export function isMultipartPost(receivedMethod: string, headers: ReadonlyMap<string, string>): boolean {
  if (receivedMethod.toUpperCase() !== 'POST') return false;
  const ct = headers.get('content-type');
  return ct !== undefined && /^multipart\/form-data/i.test(ct);
}

/** `trim(METHOD + " " + URI + "\r\n\r\n" + BODY)` as raw bytes. */
export function requestText(method: string, uri: string, body: Buffer): Buffer {
  return phpTrimBytes(Buffer.concat([Buffer.from(`${method} ${uri}\r\n\r\n`, 'latin1'), body]));
}

const INTEGER = /^[+-]?\d+$/;

type PhpNumber = { kind: 'int'; value: bigint } | { kind: 'double'; value: number; overflow: -1 | 0 | 1 };

/** A PHP 7.4 numeric string (php/isNumeric.ts), with the side an integer text beyond int64 overflows to. */
function phpNumeric(s: string): PhpNumber | null {
  const n = numericString(s);
  if (n === undefined || n.trailing) return null;
  if (n.kind === 'int') return { kind: 'int', value: n.int };
  // numericString accepted only PHP's whitespace before the number, so trimStart removes just that.
  const overflow = INTEGER.test(s.trimStart()) ? (n.float > 0 ? 1 : -1) : 0;
  return { kind: 'double', value: n.float, overflow };
}

/** PHP 7.4 `$a == $b` for two strings: numeric strings compare as numbers, others byte for byte. */
export function phpLooseEquals(a: string, b: string): boolean {
  if (a === b) return true;
  const x = phpNumeric(a);
  const y = phpNumeric(b);
  if (x === null || y === null) return false;
  if (x.kind === 'int' && y.kind === 'int') return x.value === y.value;
  const ox = x.kind === 'double' ? x.overflow : 0;
  const oy = y.kind === 'double' ? y.overflow : 0;
  // Integers overflowing to the same side compare as strings (already known to differ).
  if (ox !== 0 && ox === oy) return false;
  if (x.kind === 'int') return oy !== 0 ? false : Number(x.value) === (y as { value: number }).value;
  if (y.kind === 'int') return ox !== 0 ? false : x.value === Number(y.value);
  // Two infinite doubles of the same sign: numeric comparison would be meaningless; strings differ.
  if (x.value === y.value && !Number.isFinite(x.value)) return false;
  return x.value === y.value;
}

/** The first required header the request lacks or has another value of, or `null` if all are satisfied. */
export function headerMismatch(sample: Sample, headers: ReadonlyMap<string, string>): string | null {
  for (const h of sample.requestHeaders) {
    const got = headers.get(h.name.toLowerCase());
    if (got === undefined) return `missing header ${h.name}`;
    if (h.value === '*') continue;
    if (!phpLooseEquals(phpTrim(got), h.value)) return `header ${h.name}: ${JSON.stringify(got)} != ${JSON.stringify(h.value)}`;
  }
  return null;
}

/** The first sample (in load order) matching the request, or `undefined`. */
export function findMatch(samples: readonly Sample[], req: IncomingRequest): Sample | undefined {
  const text = requestText(req.method, req.uri, req.body);
  for (const s of samples) {
    if (s.request.equals(text) && headerMismatch(s, req.headers) === null) return s;
  }
  return undefined;
}

/**
 * Samples close to an unmatched request, for the log: same request but other headers, or the same
 * method and path with another query string or body. At most `limit`.
 */
export function nearMisses(samples: readonly Sample[], req: IncomingRequest, limit = 3): string[] {
  const text = requestText(req.method, req.uri, req.body);
  const path = `${req.method} ${req.uri.split('?')[0]}`;
  const exact: string[] = [];
  const similar: string[] = [];
  for (const s of samples) {
    if (s.request.equals(text)) {
      exact.push(`${s.name} (${headerMismatch(s, req.headers) ?? 'headers'})`);
    } else {
      const line = s.request.toString('latin1').split('\r\n')[0]!;
      if (line === path || line.startsWith(path + '?')) similar.push(`${s.name} (${JSON.stringify(line)})`);
    }
  }
  return [...exact, ...similar].slice(0, limit);
}

/**
 * PHP `json_encode()` of a string with default flags: `/` escaped, non-ASCII as `\uXXXX` (UTF-16).
 * Returns `null` for invalid UTF-8 (PHP returns false).
 */
export function phpJsonString(bytes: Buffer): string | null {
  let s: string;
  try {
    s = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
  let out = '"';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    switch (c) {
      case 0x22:
        out += '\\"';
        break;
      case 0x5c:
        out += '\\\\';
        break;
      case 0x2f:
        out += '\\/';
        break;
      case 0x08:
        out += '\\b';
        break;
      case 0x0c:
        out += '\\f';
        break;
      case 0x0a:
        out += '\\n';
        break;
      case 0x0d:
        out += '\\r';
        break;
      case 0x09:
        out += '\\t';
        break;
      default:
        out += c < 0x20 || c > 0x7f ? '\\u' + c.toString(16).padStart(4, '0') : s[i];
    }
  }
  return out + '"';
}

/**
 * Body of the 404 reply: `{"message":"Unknown request METHOD URI"}`, followed (as upstream does with
 * the whole trimmed request text) by "\r\n\r\nBODY" when the request had a body. Empty if not UTF-8.
 */
export function notFoundBody(method: string, uri: string, body: Buffer): Buffer {
  const message = Buffer.concat([Buffer.from('Unknown request ', 'latin1'), requestText(method, uri, body)]);
  const json = phpJsonString(message);
  return json === null ? Buffer.alloc(0) : Buffer.from(`{"message":${json}}`, 'latin1');
}
