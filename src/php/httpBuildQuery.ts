/**
 * PHP `http_build_query` with default settings: the form encoding of request parameters (spec 01 §3.4.1).
 */
import { phpString } from './stringConversion.ts';
import { urlencode } from './urlEncoding.ts';
import { isMap, PhpFloat, type Value } from './value.ts';

/** Appends the `key=value` pairs of one value (nested containers in bracket form). */
export function appendPairs(parts: string[], key: string, v: Value | undefined): void {
  if (v === null || v === undefined) return;
  switch (typeof v) {
    case 'string':
      parts.push(key + '=' + urlencode(v));
      return;
    case 'number':
    case 'bigint':
      parts.push(key + '=' + String(v));
      return;
    case 'boolean':
      parts.push(key + (v ? '=1' : '=0'));
      return;
  }
  if (v instanceof PhpFloat) {
    parts.push(key + '=' + urlencode(phpString(v)));
    return;
  }
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) appendPairs(parts, key + '%5B' + i + '%5D', v[i]);
    return;
  }
  for (const [k, c] of v) appendPairs(parts, key + '%5B' + urlencode(k) + '%5D', c);
}

/**
 * PHP `http_build_query($params)` with default settings: `&`-joined `key=value` pairs, nested
 * containers in bracket form (`%5B…%5D`), `null` omitted, booleans `1`/`0`, floats in PHP string
 * form, empty containers emit nothing. Keys are not filtered. A scalar argument gives `""`.
 */
export function httpBuildQuery(params: Value): string {
  const parts: string[] = [];
  if (Array.isArray(params)) {
    for (let i = 0; i < params.length; i++) appendPairs(parts, String(i), params[i]);
  } else if (isMap(params)) {
    for (const [k, v] of params) appendPairs(parts, urlencode(k), v);
  }
  return parts.join('&');
}
