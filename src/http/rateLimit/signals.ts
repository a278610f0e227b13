/**
 * What an API says about its request budget, read from one response's headers:
 *
 * - IETF draft "RateLimit header fields": `RateLimit-Limit`, `RateLimit-Remaining`,
 *   `RateLimit-Reset` (delta seconds), `RateLimit-Policy` (`100;w=60`, or `"name";q=100;w=60`),
 *   and the later single field `RateLimit` (`limit=100, remaining=5, reset=3` or `"name";r=5;t=3`);
 * - the common `X-RateLimit-*` and `X-Rate-Limit-*` variants, whose reset is delta seconds, a
 *   Unix time in seconds or in milliseconds (told apart by size);
 * - `Retry-After` (seconds or an HTTP date) on 429 and 503 answers.
 */
export interface RateSignal {
  /** Requests allowed per window. */
  limit?: number;
  /** Requests left in the current window. */
  remaining?: number;
  /** Milliseconds until the window resets. */
  resetMs?: number;
  /** Length of the policy's window in milliseconds (RateLimit-Policy `w`). */
  windowMs?: number;
  /** Milliseconds the server asks us to wait (Retry-After on 429/503). */
  retryAfterMs?: number;
}

export type Headers = Record<string, string | string[] | undefined>;

function header(headers: Headers, name: string): string | undefined {
  const v = headers[name];
  if (v === undefined) return undefined;
  return Array.isArray(v) ? v.join(', ') : v;
}

function firstHeader(headers: Headers, names: readonly string[]): string | undefined {
  for (const name of names) {
    const v = header(headers, name);
    if (v !== undefined && v.trim() !== '') return v;
  }
  return undefined;
}

/** The leading number of a field value (`100`, `100, 100;w=60`, ` 2.5`); undefined otherwise. */
function leadingNumber(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const m = /^\s*"?(\d+(?:\.\d+)?)/.exec(text);
  return m ? Number(m[1]) : undefined;
}

/** `key=value` parameters of a structured field item (`;w=60`, `r=5`), lower-case keys. */
function params(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of text.matchAll(/([A-Za-z][\w-]*)\s*=\s*"?([^;,"\s]+)"?/g)) out.set(m[1]!.toLowerCase(), m[2]!);
  return out;
}

function num(v: string | undefined): number | undefined {
  if (v === undefined || !/^\d+(\.\d+)?$/.test(v)) return undefined;
  return Number(v);
}

/** A reset value: delta seconds, or an absolute Unix time in seconds or milliseconds. */
function resetMs(value: number, nowMs: number): number {
  if (value >= 1e12) return Math.max(0, value - nowMs);
  if (value >= 1e9) return Math.max(0, value * 1000 - nowMs);
  return value * 1000;
}

/** Retry-After: delta seconds, a Unix time (as the reference also reads it) or an HTTP date. */
export function retryAfterMs(text: string | undefined, nowMs: number): number | undefined {
  if (text === undefined) return undefined;
  const trimmed = text.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return resetMs(Number(trimmed), nowMs);
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? undefined : Math.max(0, at - nowMs);
}

/** The budget signals of one response; undefined when it carries none. */
export function readSignals(status: number, headers: Headers, nowMs: number): RateSignal | undefined {
  const signal: RateSignal = {};
  const limitText = firstHeader(headers, ['ratelimit-limit', 'x-ratelimit-limit', 'x-rate-limit-limit']);
  const limit = leadingNumber(limitText);
  if (limit !== undefined) signal.limit = limit;
  const remaining = leadingNumber(firstHeader(headers, ['ratelimit-remaining', 'x-ratelimit-remaining', 'x-rate-limit-remaining']));
  if (remaining !== undefined) signal.remaining = remaining;
  const reset = leadingNumber(firstHeader(headers, ['ratelimit-reset', 'x-ratelimit-reset', 'x-rate-limit-reset']));
  if (reset !== undefined) signal.resetMs = resetMs(reset, nowMs);

  // The single `RateLimit` field of later drafts: `limit=…, remaining=…, reset=…` or `"p";r=…;t=…`.
  const combined = header(headers, 'ratelimit');
  if (combined !== undefined) {
    const p = params(combined);
    const l = num(p.get('limit') ?? p.get('q'));
    const r = num(p.get('remaining') ?? p.get('r'));
    const t = num(p.get('reset') ?? p.get('t'));
    if (l !== undefined) signal.limit = l;
    if (r !== undefined) signal.remaining = r;
    if (t !== undefined) signal.resetMs = t * 1000;
  }
  // The window: `RateLimit-Policy: 100;w=60` (or `"p";q=100;w=60`), or a `;w=` in the limit field.
  const policy = header(headers, 'ratelimit-policy') ?? limitText;
  if (policy !== undefined) {
    const first = policy.split(',')[0]!;
    const p = params(first);
    const w = num(p.get('w'));
    if (w !== undefined && w > 0) signal.windowMs = w * 1000;
    const q = num(p.get('q')) ?? leadingNumber(first);
    if (signal.limit === undefined && q !== undefined) signal.limit = q;
  }
  if (status === 429 || status === 503) {
    const wait = retryAfterMs(header(headers, 'retry-after'), nowMs);
    if (wait !== undefined) signal.retryAfterMs = wait;
  }
  return Object.keys(signal).length === 0 ? undefined : signal;
}
