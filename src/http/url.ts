/**
 * URL validation, parsing, normalisation and resolution (spec 01 §3.2, §3.3 steps 4–5; 03 §2.7).
 *
 * The reference parses every URL with Guzzle PSR-7 1.8 (`Uri`, which wraps PHP `parse_url`),
 * normalises it with its component filters and resolves it with `UriResolver::resolve`. This module
 * reproduces those steps on strings. WHATWG `URL` is never used: it encodes different characters.
 */
import { InvalidUriError } from '../errors/InvalidUriError.ts';
import { phpParseUrl } from '../php/parseUrl.ts';
import { rawurlencode } from '../php/urlEncoding.ts';

// ---------------------------------------------------------------------------------------------
// Validation (01 §3.2 item 4)

/** The ASCII members of the Unicode classes the validator uses (tests/http/url.test.ts checks them against ICU's). */
export const ASCII_MEMBERS: Readonly<Record<string, string>> = { '\\p{L}': 'A-Za-z', '\\p{N}': '0-9', '\\p{S}': '$+<=>^`|~' };
const ASCII_ONLY = /^[\0-\x7f]*$/;

/**
 * The pattern `source` (a Unicode one, flag `u`) tested through an ASCII twin when the text is
 * ASCII, as nearly every URL is: a `\p{…}` class builds its ICU set when the expression is
 * created and when first used, 1–2.5 ms of a one-request job in CPU profiles (issue 28), so the
 * Unicode expression is created only for a text that needs it. The twin is the pattern with each
 * class replaced by its ASCII members. Exported for the other printable-text checks of http/.
 */
export function asciiFirst(source: string, members: Readonly<Record<string, string>> = ASCII_MEMBERS): { test(text: string): boolean } {
  let asciiSource = source;
  for (const [unicode, ascii] of Object.entries(members)) asciiSource = asciiSource.replaceAll(unicode, ascii);
  const twin = new RegExp(asciiSource, 'u');
  let unicode: RegExp | undefined;
  return {
    test: (text) => {
      if (ASCII_ONLY.test(text)) return twin.test(text);
      unicode ??= new RegExp(source, 'u');
      return unicode.test(text);
    },
  };
}

const USER_PART = asciiFirst(String.raw`^(?:[_.\p{L}\p{N}-]|%[0-9A-Fa-f]{2})+$`);
const HOST_CHARS = asciiFirst(String.raw`^[\p{L}\p{N}\p{S}\-_.]+$`);
const LN = asciiFirst(String.raw`^[\p{L}\p{N}]$`);
const PORT = /^:[0-9]+$/;
const PATH_PART = asciiFirst(String.raw`^(?:[\p{L}\p{N}\-._~!$&'()*+,;=:@/]|%[0-9A-Fa-f]{2})*$`);
const QUERY_PART = asciiFirst(String.raw`^(?:[\p{L}\p{N}\-._~!$&'[\]()*+,;=:@/?]|%[0-9A-Fa-f]{2})*$`);
const FRAGMENT_PART = asciiFirst(String.raw`^(?:[\p{L}\p{N}\-._~!$&'()*+,;=:@/?]|%[0-9A-Fa-f]{2})*$`);

/**
 * The domain alternative of the validator: `[\pL\pN\pS\-_.]+(\.?([\pL\pN]|xn--[\pL\pN-]+)+\.?)`,
 * decided without backtracking: every character allowed, and the text ends with a letter/digit
 * (2+ characters), a letter/digit and a dot (3+), or `xn--` + letters/digits/dashes (+ optional dot)
 * after at least one character.
 */
function isDomain(d: string): boolean {
  if (!HOST_CHARS.test(d)) return false;
  const cps = Array.from(d);
  const n = cps.length;
  const last = cps[n - 1]!;
  if (n >= 2 && LN.test(last)) return true;
  if (n >= 3 && last === '.' && LN.test(cps[n - 2]!)) return true;
  const end = last === '.' ? n - 1 : n;
  let start = end;
  while (start > 0 && (cps[start - 1] === '-' || LN.test(cps[start - 1]!))) start--;
  // `xn--` inside the trailing letter/digit/dash run, not at the very start, followed by 1+ characters
  for (let p = Math.max(start, 1); p + 4 < end; p++) {
    if ((cps[p] === 'x' || cps[p] === 'X') && (cps[p + 1] === 'n' || cps[p + 1] === 'N') && cps[p + 2] === '-' && cps[p + 3] === '-')
      return true;
  }
  return false;
}

const H16 = /^[0-9a-f]{1,4}$/i;
const DEC_OCTET = /^(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])$/;

function isIPv4Strict(s: string): boolean {
  const p = s.split('.');
  return p.length === 4 && p.every((x) => DEC_OCTET.test(x));
}

/** RFC 3986 `IPv6address` (the validator's bracketed alternative). */
function isIPv6(s: string): boolean {
  const dbl = s.indexOf('::');
  if (dbl !== s.lastIndexOf('::')) return false;
  const units = (part: string, allowV4Last: boolean): number => {
    if (part === '') return 0;
    const groups = part.split(':');
    let count = 0;
    for (let i = 0; i < groups.length; i++) {
      const g = groups[i]!;
      if (H16.test(g)) count += 1;
      else if (allowV4Last && i === groups.length - 1 && isIPv4Strict(g)) count += 2;
      else return -1;
    }
    return count;
  };
  if (dbl === -1) {
    const n = units(s, true);
    return n === 8;
  }
  const left = units(s.slice(0, dbl), false);
  const rightText = s.slice(dbl + 2);
  const right = units(rightText, true);
  if (left < 0 || right < 0) return false;
  // `::` followed by a lone IPv4 is ls32 (2 units); `h16` alone after `::` may not be IPv4: covered.
  return left + right <= 7;
}

/**
 * The reference's baseUrl check (Symfony's URL validator, protocols http/https): see 01 §3.2 item 4.
 * Like PCRE's `$`, a single trailing `\n` is tolerated.
 */
export function isValidUrl(input: string): boolean {
  const s = input.endsWith('\n') ? input.slice(0, -1) : input;
  const m = /^https?:\/\//i.exec(s);
  if (m === null) return false;
  let i = m[0].length;
  let end = i;
  while (end < s.length) {
    const c = s.charCodeAt(end);
    if (c === 47 || c === 63 || c === 35) break;
    end++;
  }
  let hostPort = s.slice(i, end);
  const at = hostPort.indexOf('@');
  if (at !== -1) {
    const userinfo = hostPort.slice(0, at);
    const colon = userinfo.indexOf(':');
    if (colon === -1) {
      if (!USER_PART.test(userinfo)) return false;
    } else if (!USER_PART.test(userinfo.slice(0, colon)) || !USER_PART.test(userinfo.slice(colon + 1))) {
      return false;
    }
    hostPort = hostPort.slice(at + 1);
  }
  let rest: string;
  if (hostPort.startsWith('[')) {
    const close = hostPort.indexOf(']');
    if (close === -1 || !isIPv6(hostPort.slice(1, close))) return false;
    rest = hostPort.slice(close + 1);
  } else {
    const colon = hostPort.indexOf(':');
    const host = colon === -1 ? hostPort : hostPort.slice(0, colon);
    if (!isDomain(host)) return false;
    rest = colon === -1 ? '' : hostPort.slice(colon);
  }
  if (rest !== '' && !PORT.test(rest)) return false;

  i = end;
  const hash = s.indexOf('#', i);
  const beforeHash = hash === -1 ? s.length : hash;
  const qm = s.indexOf('?', i);
  const pathEnd = qm !== -1 && qm < beforeHash ? qm : beforeHash;
  if (!PATH_PART.test(s.slice(i, pathEnd))) return false;
  if (pathEnd < beforeHash && !QUERY_PART.test(s.slice(pathEnd + 1, beforeHash))) return false;
  if (hash !== -1 && !FRAGMENT_PART.test(s.slice(hash + 1))) return false;
  return true;
}

// ---------------------------------------------------------------------------------------------
// Parsing and normalisation (01 §3.3 step 4)

/**
 * A URI reference split into its components. `undefined` means "absent"; `''` means present but
 * empty (`users?` has query `''`). `authority` is present exactly when `host` is.
 */
export interface UriReference {
  scheme?: string;
  authority?: string;
  userinfo?: string;
  host?: string;
  port?: string;
  path: string;
  query?: string;
  fragment?: string;
}

/**
 * Splits a URI reference into components the way the reference does (Guzzle `Uri` → PHP
 * `parse_url`). For ordinary references this is RFC 3986 appendix B. PHP's parser differs on odd
 * input (`host:8080/x` without a scheme is a host and a port; the scheme may contain only
 * `A-Za-z0-9.-`, plus a space). Throws `InvalidUriError` where Guzzle throws.
 */
export function parseReference(s: string): UriReference {
  const p = phpParseUrl(s, true);
  if (p === null) throw new InvalidUriError(s);
  const ref: UriReference = { path: p.path ?? '' };
  if (p.scheme !== undefined) ref.scheme = p.scheme;
  if (p.user !== undefined) ref.userinfo = p.pass !== undefined ? p.user + ':' + p.pass : p.user;
  if (p.host !== undefined) {
    ref.host = p.host;
    if (p.port !== undefined) ref.port = String(p.port);
    ref.authority = composeAuthority(ref.userinfo, ref.host, ref.port);
  }
  if (p.query !== undefined) ref.query = p.query;
  if (p.fragment !== undefined) ref.fragment = p.fragment;
  return ref;
}

function composeAuthority(userinfo: string | undefined, host: string, port: string | undefined): string {
  let a = userinfo !== undefined && userinfo !== '' ? userinfo + '@' + host : host;
  if (port !== undefined) a += ':' + port;
  return a;
}

function charTable(extra: string): Uint8Array {
  const t = new Uint8Array(128);
  for (let c = 48; c <= 57; c++) t[c] = 1;
  for (let c = 65; c <= 90; c++) t[c] = 1;
  for (let c = 97; c <= 122; c++) t[c] = 1;
  for (const ch of "-._~!$&'()*+,;=" + extra) t[ch.charCodeAt(0)] = 1;
  return t;
}

const USERINFO_OK = charTable('');
const PATH_OK = charTable(':@/');
const QUERY_OK = charTable(':@/?');

function isHex(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102);
}

/**
 * Guzzle's component filter: characters outside `ok` (and `%` not followed by two hex digits) are
 * percent-encoded (UTF-8, uppercase hex); valid `%XX` stays as written.
 */
function filterComponent(s: string, ok: Uint8Array): string {
  const n = s.length;
  let i = 0;
  for (; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c >= 128) break;
    if (c === 37) {
      if (i + 2 < n && isHex(s.charCodeAt(i + 1)) && isHex(s.charCodeAt(i + 2))) {
        i += 2;
        continue;
      }
      break;
    }
    if (ok[c] === 0) break;
  }
  if (i === n) return s;
  let out = s.slice(0, i);
  let run = -1; // start of a pending stretch of characters to encode
  for (; i < n; i++) {
    const c = s.charCodeAt(i);
    const keep = c === 37 ? i + 2 < n && isHex(s.charCodeAt(i + 1)) && isHex(s.charCodeAt(i + 2)) : c < 128 && ok[c] === 1;
    if (!keep) {
      if (run === -1) run = i;
      continue;
    }
    if (run !== -1) {
      out += rawurlencode(s.slice(run, i));
      run = -1;
    }
    if (c === 37) {
      out += s.slice(i, i + 3);
      i += 2;
    } else out += s[i];
  }
  if (run !== -1) out += rawurlencode(s.slice(run));
  return out;
}

function asciiLower(s: string): string {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 65 && c <= 90) return s.replace(/[A-Z]+/g, (m) => m.toLowerCase());
  }
  return s;
}

function defaultPort(scheme: string | undefined): string | undefined {
  return scheme === 'http' ? '80' : scheme === 'https' ? '443' : undefined;
}

function filterUserinfo(u: string): string {
  const colon = u.indexOf(':');
  if (colon === -1) return filterComponent(u, USERINFO_OK);
  return filterComponent(u.slice(0, colon), USERINFO_OK) + ':' + filterComponent(u.slice(colon + 1), USERINFO_OK);
}

/**
 * Guzzle `Uri` normalisation: scheme and host ASCII-lower-cased, the scheme's default port
 * (80 http, 443 https) removed, path/query/fragment/userinfo percent-encoded outside their allowed
 * sets (`%` without two hex digits → `%25`, valid `%XX` kept). An empty query or fragment is
 * dropped (`users?` → `users`).
 */
export function normalizeReference(ref: UriReference): UriReference {
  const out: UriReference = { path: filterComponent(ref.path, PATH_OK) };
  if (ref.scheme !== undefined) out.scheme = asciiLower(ref.scheme);
  if (ref.host !== undefined) {
    out.host = asciiLower(ref.host);
    if (ref.userinfo !== undefined && ref.userinfo !== '') out.userinfo = filterUserinfo(ref.userinfo);
    if (ref.port !== undefined && ref.port !== defaultPort(out.scheme)) out.port = ref.port;
    out.authority = composeAuthority(out.userinfo, out.host, out.port);
  }
  if (ref.query !== undefined && ref.query !== '') out.query = filterComponent(ref.query, QUERY_OK);
  if (ref.fragment !== undefined && ref.fragment !== '') out.fragment = filterComponent(ref.fragment, QUERY_OK);
  return out;
}

// ---------------------------------------------------------------------------------------------
// Resolution (01 §3.3 step 5, 03 §2.7)

/** Guzzle `UriResolver::removeDotSegments`. */
export function removeDotSegments(path: string): string {
  if (path === '' || path === '/') return path;
  if (path.indexOf('.') === -1) return path;
  const segments = path.split('/');
  const results: string[] = [];
  for (const seg of segments) {
    if (seg === '..') results.pop();
    else if (seg !== '.') results.push(seg);
  }
  let newPath = results.join('/');
  const last = segments[segments.length - 1];
  if (path[0] === '/' && newPath[0] !== '/') newPath = '/' + newPath;
  else if (newPath !== '' && (last === '.' || last === '..')) newPath += '/';
  return newPath;
}

/** The effective URL of a request. */
export class ResolvedUrl {
  readonly scheme: string;
  /** `user[:password]`, percent-encoded as sent; `undefined` when absent. */
  readonly userinfo: string | undefined;
  readonly host: string;
  /** `undefined` when absent or the scheme's default. */
  readonly port: number | undefined;
  /** The path as Guzzle holds it (may be `''`). */
  readonly rawPath: string;
  /** The path sent on the request line: at least `/`. */
  readonly path: string;
  /** `undefined` when there is no query or it is empty. */
  readonly query: string | undefined;
  /** Kept for completeness; never sent. */
  readonly fragment: string | undefined;

  constructor(parts: {
    scheme: string;
    userinfo?: string | undefined;
    host: string;
    port?: number | undefined;
    path: string;
    query?: string | undefined;
    fragment?: string | undefined;
  }) {
    this.scheme = parts.scheme;
    this.userinfo = parts.userinfo === '' ? undefined : parts.userinfo;
    this.host = parts.host;
    this.port = parts.port;
    this.rawPath = parts.path;
    this.path = parts.path === '' ? '/' : parts.path;
    this.query = parts.query === '' ? undefined : parts.query;
    this.fragment = parts.fragment === '' ? undefined : parts.fragment;
  }

  /** Request target: `path[?query]`. */
  get target(): string {
    return this.query === undefined ? this.path : this.path + '?' + this.query;
  }

  /** Host header value: `host[:port]` (port only when not the default). */
  get hostHeader(): string {
    return this.port === undefined ? this.host : this.host + ':' + this.port;
  }

  private format(userinfo: string | undefined): string {
    let s = this.scheme === '' ? '' : this.scheme + ':';
    const authority = (userinfo !== undefined ? userinfo + '@' : '') + this.hostHeader;
    if (authority !== '') s += '//' + authority;
    s += this.rawPath;
    if (this.query !== undefined) s += '?' + this.query;
    return s;
  }

  /** `scheme://[userinfo@]host[:port]path[?query]` (Guzzle's string form without the fragment). */
  get href(): string {
    return this.format(this.userinfo);
  }

  /** `href` with the password of the userinfo shown as `***` (Guzzle's redacted form for messages). */
  get hrefMaskedPassword(): string {
    const u = this.userinfo;
    const colon = u === undefined ? -1 : u.indexOf(':');
    return this.format(colon === -1 ? u : u!.slice(0, colon) + ':***');
  }

  /** A copy with another query (normalised like any query; `''`/`undefined` → none). */
  withQuery(query: string | undefined): ResolvedUrl {
    return new ResolvedUrl({
      scheme: this.scheme,
      userinfo: this.userinfo,
      host: this.host,
      port: this.port,
      path: this.rawPath,
      query: query === undefined || query === '' ? undefined : filterComponent(query, QUERY_OK),
      fragment: this.fragment,
    });
  }

  toString(): string {
    return this.href;
  }
}

let cachedBaseText: string | undefined;
let cachedBase: UriReference | undefined;

function normalizedBase(base: string): UriReference {
  if (base !== cachedBaseText || cachedBase === undefined) {
    cachedBase = normalizeReference(parseReference(base));
    cachedBaseText = base;
  }
  return cachedBase;
}

function isEmptyReference(r: UriReference): boolean {
  return (
    (r.scheme === undefined || r.scheme === '') &&
    r.host === undefined &&
    r.path === '' &&
    r.query === undefined &&
    r.fragment === undefined
  );
}

/**
 * Resolves the endpoint against the base URL like Guzzle (`UriResolver::resolve` on the normalised
 * references, RFC 3986 §5.2 with Guzzle's quirks: an empty reference returns the base unchanged, a
 * reference with an empty path keeps the base query unless it has a non-empty query of its own,
 * the base query is otherwise dropped). The default port is removed for the final scheme.
 * Throws `InvalidUriError` for input PHP cannot parse.
 */
export function resolveUrl(base: string, endpoint: string): ResolvedUrl {
  const b = normalizedBase(base);
  const r = normalizeReference(parseReference(endpoint));

  let t: UriReference;
  if (isEmptyReference(r)) {
    t = b;
  } else if (r.scheme !== undefined && r.scheme !== '') {
    t = { ...r, path: removeDotSegments(r.path) };
  } else if (r.host !== undefined) {
    t = { ...r, scheme: b.scheme, path: removeDotSegments(r.path) };
  } else {
    t = { path: '' };
    if (b.scheme !== undefined) t.scheme = b.scheme;
    if (b.host !== undefined) {
      t.host = b.host;
      t.userinfo = b.userinfo;
      t.port = b.port;
    }
    if (r.path === '') {
      t.path = b.path;
      t.query = r.query !== undefined ? r.query : b.query;
    } else {
      let path: string;
      if (r.path[0] === '/') path = r.path;
      else if (b.host !== undefined && b.path === '') path = '/' + r.path;
      else {
        const slash = b.path.lastIndexOf('/');
        path = slash === -1 ? r.path : b.path.slice(0, slash + 1) + r.path;
      }
      t.path = removeDotSegments(path);
      t.query = r.query;
    }
    t.fragment = r.fragment;
  }

  let scheme = t.scheme ?? '';
  const host = t.host ?? '';
  if (scheme === '' && host !== '') scheme = 'http';
  const port = t.port === undefined || t.port === defaultPort(scheme) ? undefined : Number(t.port);
  return new ResolvedUrl({ scheme, userinfo: t.userinfo, host, port, path: t.path, query: t.query, fragment: t.fragment });
}
