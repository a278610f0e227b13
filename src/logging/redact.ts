/**
 * Secret redaction (spec 01 §4.5): every log line and error message passes through here,
 * because the reference relied on the platform's output filter and we must not.
 *
 * The rule (docs/failures.md, "Secrets"): a secret is hidden wherever it stands as a value — a query or
 * form value (`k=<secret>`), a JSON string (`"k":"<secret>"`), URL userinfo
 * (`//user:<secret>@`), the credential after an auth scheme word (`Bearer <secret>`), a header
 * value in a debug request line — in every encoding it can take there. A secret of at least
 * MIN_FREE_LENGTH characters is also hidden as a free substring anywhere; a shorter one is not,
 * because it is not unique: a one-character `#password` must not turn `logger` into
 * `l[hidden]gger`.
 */
import { PhpFloat, type Value } from '../php/value.ts';
import { pjsonString } from '../php/jsonEncode.ts';
import { phpString } from '../php/stringConversion.ts';
import { rawurlencode, urlencode } from '../php/urlEncoding.ts';

export const HIDDEN = '[hidden]';

/** Secrets this long (in characters) are hidden anywhere, shorter ones only where they stand as a value. */
export const MIN_FREE_LENGTH = 6;

/** Values computed per request attempt (nonces, signatures) that are remembered at once. */
const RECENT_LIMIT = 64;

/** Headers whose whole value is hidden in request logs, whatever it is. */
export const SENSITIVE_HEADERS = new Set(['authorization', 'proxy-authorization', 'x-storageapi-token', 'cookie']);

/**
 * Headers the HTTP layer computes (or that only describe the message): never taken for a secret
 * because their value happens to equal a short one (`Content-Length: 1` with a `#pin` of "1").
 */
export const PROTOCOL_HEADERS = new Set([
  'host',
  'content-length',
  'content-type',
  'user-agent',
  'accept',
  'accept-encoding',
  'connection',
]);

const CREDENTIAL_KEY = /token|secret|passw|session|cookie|signature|credential|api[_-]?key|auth|(^|[_-])sid$/i;
const NOT_CREDENTIAL_KEY = /type|expire|scope|_in$|_at$/i;

/**
 * A key (a header name, a login parameter, a member of a login response) under which a
 * credential usually stands: `access_token`, `X-Api-Key`, `Authorization`, `password`, `session`.
 */
export function isCredentialKey(key: string): boolean {
  return CREDENTIAL_KEY.test(key) && !NOT_CREDENTIAL_KEY.test(key);
}

export function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

/**
 * The places where a value stands, each as (what comes before, what comes after): a query or
 * form value, a JSON string (plain or escaped inside another JSON string; not a key), URL
 * userinfo, and the credential after an auth scheme word.
 */
const VALUE_PLACES: [string, string][] = [
  ['(?<==)', String.raw`(?=$|[&#\s'"\x60,;)\]}<>]|\\")`],
  [String.raw`(?<=[:,\[]\s*")`, String.raw`(?="(?!\s*:))`],
  [String.raw`(?<=[:,\[]\s*\\")`, String.raw`(?=\\"(?!\s*:))`],
  [String.raw`(?<=\/\/)`, String.raw`(?=@|:[^\s\/@]*@)`],
  [String.raw`(?<=\/\/[^\s\/@:]*:)`, '(?=@)'],
  [String.raw`(?<=\b(?:Bearer|Basic|Token|token|OAuth|MAC|Digest|Bot)\s)`, String.raw`(?=$|[\s"'\\,;&])`],
];

interface Compiled {
  free: RegExp | undefined;
  bound: RegExp | undefined;
  wrapped: RegExp | undefined;
}

export class SecretRegistry {
  /** Forms of secrets ≥ MIN_FREE_LENGTH characters: hidden anywhere. */
  private free = new Set<string>();
  /** Forms of shorter secrets: hidden only where they stand as a value. */
  private bound = new Set<string>();
  private readonly known = new Set<string>();
  /** Base64 of long secrets as a wrapped base64 text holds it (line breaks inside): regex sources. */
  private wrapped = new Set<string>();
  /** Per-attempt values, least recently used first; each with its forms. */
  private readonly recent = new Map<string, string[]>();
  private compiled: Compiled | undefined;

  /** Registers a secret for the rest of the run. */
  add(value: string): void {
    if (value === '' || this.known.has(value)) return;
    this.known.add(value);
    this.recent.delete(value);
    const target = [...value].length >= MIN_FREE_LENGTH ? this.free : this.bound;
    for (const form of derivedForms(value)) if (form !== '') target.add(form);
    for (const source of wrappedBase64Sources(value)) this.wrapped.add(source);
    this.compiled = undefined;
  }

  /**
   * Registers a value computed for one request attempt (a signature, a nonce-bearing header): the
   * last RECENT_LIMIT such values are hidden, so per-request values do not pile up for a whole run.
   */
  addRecent(value: string): void {
    if (value === '' || this.known.has(value)) return;
    if (this.recent.has(value)) {
      const forms = this.recent.get(value)!;
      this.recent.delete(value);
      this.recent.set(value, forms);
      return;
    }
    this.recent.set(value, derivedForms(value));
    if (this.recent.size > RECENT_LIMIT) this.recent.delete(this.recent.keys().next().value!);
    this.compiled = undefined;
  }

  /**
   * Registers a credential header value, and the credential after its scheme word
   * (`Bearer <token>`, `Basic <base64>`), which an API may echo on its own.
   */
  addHeaderValue(value: string, recent = false): void {
    const credential = /^(?:Bearer|Basic|Token|token|OAuth|MAC|Digest|Bot)\s+(\S.*)$/.exec(value)?.[1];
    for (const v of credential === undefined ? [value] : [value, credential]) {
      if (recent) this.addRecent(v);
      else this.add(v);
    }
  }

  /** Registers every string (and number) inside a computed value: lists and maps are walked. */
  addValue(v: Value | undefined, recent = false): void {
    if (v === undefined || v === null || typeof v === 'boolean') return;
    if (typeof v === 'string') {
      if (recent) this.addRecent(v);
      else this.add(v);
    } else if (typeof v === 'number' || typeof v === 'bigint' || v instanceof PhpFloat) this.addValue(phpString(v), recent);
    else if (Array.isArray(v)) for (const x of v) this.addValue(x, recent);
    else if (v instanceof Map) for (const x of v.values()) this.addValue(x, recent);
  }

  /**
   * Registers a value computed from a secret (a user function's result: an HMAC, a hash, a
   * concatenation). A derived value shorter than MIN_FREE_LENGTH is left alone: a length or a
   * flag computed from a token is not a credential, and hiding `16` would garble `limit=16`.
   */
  addDerived(v: Value): void {
    if (typeof v === 'string' || typeof v === 'number' || typeof v === 'bigint' || v instanceof PhpFloat) {
      const text = phpString(v);
      if ([...text].length >= MIN_FREE_LENGTH) this.add(text);
    } else if (Array.isArray(v)) for (const x of v) this.addDerived(x);
    else if (v instanceof Map) for (const x of v.values()) this.addDerived(x);
  }

  /** Collects every non-empty string under a key starting with `#`, anywhere (01 §4.5). */
  collectFrom(config: Value): void {
    const walk = (v: Value, secret: boolean): void => {
      if (typeof v === 'string') {
        if (secret) {
          this.add(v);
          if (v.startsWith('{') || v.startsWith('[')) this.collectJsonStrings(v);
        }
        return;
      }
      if (Array.isArray(v)) {
        for (const item of v) walk(item, secret);
      } else if (v instanceof Map) {
        for (const [k, child] of v) walk(child, secret || k.startsWith('#'));
      }
    };
    walk(config, false);
  }

  private collectJsonStrings(text: string): void {
    try {
      const walk = (v: unknown): void => {
        if (typeof v === 'string') this.add(v);
        else if (Array.isArray(v)) v.forEach(walk);
        else if (v !== null && typeof v === 'object') Object.values(v).forEach(walk);
      };
      walk(JSON.parse(text));
    } catch {
      // Not JSON: the string itself is already registered.
    }
  }

  private patterns(): Compiled {
    if (this.compiled) return this.compiled;
    const free = new Set(this.free);
    const bound = new Set(this.bound);
    const wrapped = new Set(this.wrapped);
    for (const [value, forms] of this.recent) {
      for (const f of forms) ([...value].length >= MIN_FREE_LENGTH ? free : bound).add(f);
      for (const source of wrappedBase64Sources(value)) wrapped.add(source);
    }
    // Longest first: the regex alternation takes the first alternative that matches, so a
    // secret containing another is hidden whole.
    const source = (set: Set<string>): string | undefined =>
      set.size === 0
        ? undefined
        : [...set]
            .sort((a, b) => b.length - a.length)
            .map(escapeRegExp)
            .join('|');
    const freeSource = source(free);
    const boundSource = source(bound);
    this.compiled = {
      free: freeSource === undefined ? undefined : new RegExp(freeSource, 'g'),
      bound:
        boundSource === undefined
          ? undefined
          : new RegExp(VALUE_PLACES.map(([before, after]) => `${before}(?:${boundSource})${after}`).join('|'), 'g'),
      wrapped: wrapped.size === 0 ? undefined : new RegExp([...wrapped].join('|'), 'g'),
    };
    return this.compiled;
  }

  redact(text: string): string {
    const { free, bound, wrapped } = this.patterns();
    let out = text;
    if (free) out = out.replace(free, HIDDEN);
    if (bound) out = out.replace(bound, HIDDEN);
    if (wrapped && WRAPPED_BASE64.test(out)) out = out.replace(wrapped, HIDDEN);
    return out;
  }

  /** True when the whole value is a secret (any form) or redaction would change it. */
  hides(value: string): boolean {
    if (value === '') return false;
    if (this.free.has(value) || this.bound.has(value)) return true;
    for (const forms of this.recent.values()) if (forms.includes(value)) return true;
    return this.redact(value) !== value;
  }

  get size(): number {
    return this.free.size + this.bound.size;
  }
}

/** `s` with the hex digits of its percent escapes lowercased (`%2F` → `%2f`). */
function lowercaseEscapes(s: string): string {
  return s.replace(/%[0-9A-F]{2}/g, (percent) => percent.toLowerCase());
}

/** The JSON string body of `s` (no quotes), as JSON.stringify / the log context escape it. */
function jsonInner(s: string): string {
  return JSON.stringify(s).slice(1, -1);
}

/**
 * The base64 characters that encode the secret wherever it stands in a longer base64-encoded
 * text (an API echoing the request headers as base64): one core per alignment (0, 1 or 2 bytes
 * before it), without the characters shared with the neighbouring bytes; standard and URL-safe
 * alphabets. Cores shorter than 8 characters are left out: too short to be unique.
 */
function base64Cores(value: string): string[] {
  if ([...value].length < MIN_FREE_LENGTH) return [];
  // Header bytes a server read as Latin-1, then echoed as UTF-8 inside base64.
  const latin1 = /[^\x00-\x7f]/.test(value) ? alignedCores(Buffer.from(value, 'utf8').toString('latin1')) : [];
  return [...alignedCores(value), ...latin1];
}

function alignedCores(value: string): string[] {
  const bytes = Buffer.from(value, 'utf8');
  const cores: string[] = [];
  for (const k of [0, 1, 2]) {
    const encoded = Buffer.concat([Buffer.alloc(k), bytes]).toString('base64');
    const whole = Math.floor((k + bytes.length) / 3) * 4;
    const core = encoded.slice(k === 0 ? 0 : 4, whole);
    if (core.length >= 8) cores.push(core, core.replaceAll('+', '-').replaceAll('/', '_'));
  }
  return cores;
}

/**
 * A line break inside a wrapped base64 text (MIME wraps at 76 characters, PEM at 64), as it
 * stands in a text being masked: raw, JSON-escaped in a log context, or escaped twice.
 */
const WRAP_BREAK = String.raw`(?:\r?\n|(?:\\r)?\\n|(?:\\\\r)?\\\\n)?`;

/**
 * A base64 run that goes on after a line break: only then is the wrapped search worth its cost.
 * The break comes first in the pattern, so the scan stops only at line breaks.
 */
export const WRAPPED_BASE64 = /(?<=[A-Za-z0-9+/_-]{16})(?:\r?\n|(?:\\r)?\\n|(?:\\\\r)?\\\\n)(?=[A-Za-z0-9+/_-])/;

/**
 * Regex sources for the base64 cores of a secret of MIN_FREE_LENGTH characters or more, with a
 * line break allowed between any two characters: wherever the wrapping falls, the characters that
 * encode the secret are found (each core alone is matched by the free forms; this catches the split).
 */
export function wrappedBase64Sources(value: string): string[] {
  return base64Cores(value).map((core) => [...core].map(escapeRegExp).join(WRAP_BREAK));
}

/**
 * The forms in which a secret can reach a log line: URL-encoded (form, raw and WHATWG styles, with
 * upper- or lowercase hex), base64, its UTF-8 bytes read as Latin-1, JSON-escaped (plain and PHP
 * style with `\/` and `\uXXXX`), with newlines flattened as the line format does, and each of
 * these JSON-escaped once more (a response body echoed inside the JSON context of a log line).
 */
export function derivedForms(value: string): string[] {
  const once = [
    value,
    urlencode(value),
    rawurlencode(value),
    Buffer.from(value).toString('base64'),
    jsonInner(value),
    pjsonString(value).slice(1, -1),
  ];
  // A header travels as UTF-8 bytes; a server reading them as Latin-1 echoes `Ã©` for `é`.
  if (/[^\x00-\x7f]/.test(value)) once.push(Buffer.from(value, 'utf8').toString('latin1'));
  try {
    once.push(encodeURIComponent(value));
  } catch {
    // A lone surrogate has no URI form.
  }
  // A URL that carries the secret, itself URL-encoded into another URL (a redirect's
  // `return_to=…`, an error body echoing the request): the percent-encoded forms encoded again.
  for (const encoded of [urlencode(value), rawurlencode(value)]) {
    if (encoded !== value) once.push(urlencode(encoded), rawurlencode(encoded));
  }
  // Hex digits of a percent escape may be lowercase (`%2f`: .NET's UrlEncode, many echo services);
  // the URL means the same, so the secret is the same.
  for (const form of [...once]) {
    const lower = lowercaseEscapes(form);
    if (lower !== form) once.push(lower);
  }
  once.push(...base64Cores(value));
  const forms = new Set<string>();
  for (const form of once) {
    forms.add(form);
    forms.add(form.replace(/\r\n|\r|\n/g, ' '));
    forms.add(jsonInner(form));
  }
  return [...forms];
}
