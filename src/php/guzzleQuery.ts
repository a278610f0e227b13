/**
 * Guzzle's `Query::parse` / `Query::build` (RFC 3986 encoding), used to merge authentication
 * parameters into a query (spec 02 §1.3, 01 §3.4.2), and a next-page link read as a query
 * (03 §5.3.4).
 */
import { phpString } from './stringConversion.ts';
import { percentDecode, rawurlencode } from './urlEncoding.ts';
import { PhpArray, type Value } from './value.ts';

const QUESTION_MARK = 63;

export type RebuildValue = string | null | (string | null)[];

function parseGuzzleQuery(qs: string, into: Map<string, Value>): void {
  if (qs === '') return;
  for (const piece of qs.split('&')) {
    const eq = piece.indexOf('=');
    const key = percentDecode(eq === -1 ? piece : piece.slice(0, eq), true);
    const value = eq === -1 ? null : percentDecode(piece.slice(eq + 1), true);
    const existing = into.get(key);
    if (existing === undefined || existing === null) into.set(key, value);
    else if (Array.isArray(existing)) existing.push(value);
    else into.set(key, [existing, value]);
  }
}

/**
 * Parses a query string for the rebuild (02 §1.3): split on `&` and the first `=`, `+` → space then
 * percent-decoding in keys and values, a piece without `=` → `null`, a repeated key collects a list
 * (first position kept; an existing `null` is simply replaced).
 */
export function parseQueryRebuild(qs: string): Map<string, RebuildValue> {
  const m = new Map<string, Value>();
  parseGuzzleQuery(qs, m);
  return m as Map<string, RebuildValue>;
}

function rebuildValue(ek: string, v: Value): string {
  return v === null ? ek : ek + '=' + rawurlencode(phpString(v));
}

/**
 * Builds a query string (02 §1.3): `rawurlencode(key)` then `=` + `rawurlencode(PHP string form)`
 * unless the value is `null`; a list (or configuration map) repeats the key once per element;
 * `true` → `1`, `false` → empty. An empty map gives `""`.
 */
export function buildQueryRebuild(q: ReadonlyMap<string, Value>): string {
  const parts: string[] = [];
  for (const [k, v] of q) {
    const ek = rawurlencode(k);
    if (Array.isArray(v)) for (const x of v) parts.push(rebuildValue(ek, x));
    else if (v instanceof PhpArray) for (const x of v.values()) parts.push(rebuildValue(ek, x));
    else parts.push(rebuildValue(ek, v));
  }
  return parts.join('&');
}

/** Replace variant (`query`, `oauth20`): same key replaced in place, new keys appended. Returns a new map. */
export function mergeReplace(q: ReadonlyMap<string, Value>, authParams: ReadonlyMap<string, Value>): Map<string, Value> {
  const out = new Map<string, Value>(q);
  for (const [k, v] of authParams) out.set(k, v);
  return out;
}

/**
 * Indexed-list variant (`login`, `oauth20.login`): a colliding key is removed from its place and
 * re-added at the end as `k[0]`, `k[1]` after de-duplicating `[existing, auth value]` by PHP string
 * form (first occurrence and its index kept). Returns a new map.
 */
export function mergeIndexedList(q: ReadonlyMap<string, Value>, authParams: ReadonlyMap<string, Value>): Map<string, Value> {
  const out = new Map<string, Value>(q);
  const collided: [string, Value[]][] = [];
  for (const [k, v] of authParams) {
    if (out.has(k)) {
      collided.push([k, [out.get(k)!, v]]);
      out.delete(k);
    } else {
      out.set(k, v);
    }
  }
  for (const [k, values] of collided) {
    const seen = new Set<string>();
    for (let i = 0; i < values.length; i++) {
      const form = phpString(values[i]);
      if (seen.has(form)) continue;
      seen.add(form);
      out.set(`${k}[${i}]`, values[i]!);
    }
  }
  return out;
}

/** Parse `qs`, merge `authParams` with the given variant and rebuild (02 §1.3). */
export function rebuildQuery(qs: string, authParams: ReadonlyMap<string, Value>, variant: 'replace' | 'indexed'): string {
  const q = parseQueryRebuild(qs);
  return buildQueryRebuild(variant === 'replace' ? mergeReplace(q, authParams) : mergeIndexedList(q, authParams));
}

// ---------------------------------------------------------------------------------------------
// response.url with paramIsQuery (03 §5.3.4)

/**
 * The next-page link read as a query string: leading `?` characters removed, then parsed like
 * `parseQueryRebuild` (values are strings, `null` for a piece without `=`, lists for repeated keys).
 */
export function parseQueryParamIsQuery(qs: string): PhpArray {
  let i = 0;
  while (i < qs.length && qs.charCodeAt(i) === QUESTION_MARK) i++;
  const out = new PhpArray();
  parseGuzzleQuery(i === 0 ? qs : qs.slice(i), out);
  return out;
}
