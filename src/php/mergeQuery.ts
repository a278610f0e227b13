/**
 * The reference's GET merge: request parameters merged into the query of an endpoint URL
 * (spec 01 §3.3 step 2, 03 §2.4).
 */
import { appendPairs } from './httpBuildQuery.ts';
import { phpParseUrl, type PhpUrlParts } from './parseUrl.ts';
import { formReencode, urlencode } from './urlEncoding.ts';
import { isMap, type Value } from './value.ts';

/** A value kept from the endpoint query, already form-encoded. */
class Encoded {
  readonly text: string;
  constructor(text: string) {
    this.text = text;
  }
}

function isParamsEmpty(params: Value): boolean {
  if (isMap(params)) return params.size === 0;
  if (Array.isArray(params)) return params.length === 0;
  return true;
}

/**
 * Merges GET `params` into the endpoint the way the reference does (01 §3.3 step 2): top-level
 * keys `""`/`"0"` (list index 0) are dropped, the endpoint query is split on `&` and the first `=`
 * (raw key, decoded value, a piece without `=` → `""`, repeated key: first position, last value),
 * params replace in place or are appended, the whole query is form-encoded and the URL is put back
 * together (`scheme://[user[:pass]@]host[:port]` only when both scheme and host are non-empty).
 * PHP-empty params (or a scalar) return the endpoint unchanged.
 */
export function mergeParamsIntoUrl(endpoint: string, params: Value): string {
  if (isParamsEmpty(params)) return endpoint;
  const parts: PhpUrlParts = phpParseUrl(endpoint) ?? {};
  const merged = new Map<string, Value | Encoded>();
  const query = parts.query;
  if (query !== undefined && query !== '') {
    for (const piece of query.split('&')) {
      const eq = piece.indexOf('=');
      if (eq === -1) merged.set(piece, new Encoded(''));
      else merged.set(piece.slice(0, eq), new Encoded(formReencode(piece.slice(eq + 1))));
    }
  }
  if (Array.isArray(params)) {
    for (let i = 1; i < params.length; i++) merged.set(String(i), params[i]!);
  } else if (isMap(params)) {
    for (const [k, v] of params) if (k !== '' && k !== '0') merged.set(k, v);
  }
  const pairs: string[] = [];
  for (const [k, v] of merged) {
    if (v instanceof Encoded) pairs.push(urlencode(k) + '=' + v.text);
    else appendPairs(pairs, urlencode(k), v);
  }
  const qs = pairs.join('&');

  let out = '';
  if (parts.scheme && parts.host) {
    out = parts.scheme + '://';
    if (parts.user !== undefined) {
      out += parts.user;
      if (parts.pass !== undefined) out += ':' + parts.pass;
      out += '@';
    }
    out += parts.host;
    if (parts.port !== undefined) out += ':' + parts.port;
  }
  out += parts.path ?? '';
  if (qs !== '') out += '?' + qs;
  if (parts.fragment) out += '#' + parts.fragment;
  return out;
}
