/**
 * JSON text as the reference produces it.
 *
 * - `pjson`: PHP `json_encode` with default flags (spec 04 §2.4, 03 §0.4, 01 §3.5).
 * - `logJson`: the log-context JSON of Monolog (spec 01 §4.1): normalisation (depth 9,
 *   1000 items, INF/NaN as strings) then `json_encode` with unescaped slashes and Unicode and
 *   preserved zero fractions.
 */
import { JsonEncodeError } from '../errors/JsonEncodeError.ts';
import { formatFloat, formatFloatShortest } from './numbers.ts';
import { JsonObject, PhpFloat, type Value } from './value.ts';

// ---------------------------------------------------------------------------------------------
// pjson

/** Characters PHP's default encoder escapes: `"`, `\`, `/`, controls and every non-ASCII unit. */
const PJSON_ESCAPE = /["\\/\u0000-\u001f\u0080-\uffff]/;

const HEX = '0123456789abcdef';

function u4(c: number): string {
  return '\\u' + HEX[(c >> 12) & 15] + HEX[(c >> 8) & 15] + HEX[(c >> 4) & 15] + HEX[c & 15];
}

/** The escape for a control character (< 0x20), `"` or `\`. */
function basicEscape(c: number): string {
  switch (c) {
    case 0x22:
      return '\\"';
    case 0x5c:
      return '\\\\';
    case 0x08:
      return '\\b';
    case 0x0c:
      return '\\f';
    case 0x0a:
      return '\\n';
    case 0x0d:
      return '\\r';
    case 0x09:
      return '\\t';
    default:
      return u4(c);
  }
}

/** A JSON string literal as PHP `json_encode` (default flags) writes it. */
export function pjsonString(s: string): string {
  if (!PJSON_ESCAPE.test(s)) return '"' + s + '"';
  let out = '"';
  let start = 0;
  const n = s.length;
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x20 && c < 0x80 && c !== 0x22 && c !== 0x5c && c !== 0x2f) continue;
    if (i > start) out += s.slice(start, i);
    out += c === 0x2f ? '\\/' : c >= 0x80 ? u4(c) : basicEscape(c);
    start = i + 1;
  }
  if (n > start) out += s.slice(start);
  return out + '"';
}

/** PHP int from a JS number (integral) or bigint. */
function intText(v: number | bigint): string {
  if (typeof v === 'bigint') return v.toString();
  if (Number.isSafeInteger(v)) return String(v);
  return BigInt(v).toString();
}

/** True when the keys of a configuration map are exactly "0", "1", …, "n-1" in order. */
export function isListLike(m: Map<string, unknown>): boolean {
  let i = 0;
  for (const k of m.keys()) {
    if (k !== String(i)) return false;
    i++;
  }
  return true;
}

function pjsonFloat(x: number, p17: boolean): string {
  if (!Number.isFinite(x)) throw new JsonEncodeError();
  return p17 ? formatFloat(x, 17, 'e') : formatFloatShortest(x);
}

function encodeValue(v: Value | undefined, p17: boolean): string {
  if (v === null || v === undefined) return 'null';
  switch (typeof v) {
    case 'string':
      return pjsonString(v);
    case 'number':
      return Number.isInteger(v) ? intText(v) : pjsonFloat(v, p17);
    case 'bigint':
      return v.toString();
    case 'boolean':
      return v ? 'true' : 'false';
  }
  if (v instanceof PhpFloat) return pjsonFloat(v.value, p17);
  if (Array.isArray(v)) {
    const n = v.length;
    if (n === 0) return '[]';
    let out = '[' + encodeValue(v[0], p17);
    for (let i = 1; i < n; i++) out += ',' + encodeValue(v[i], p17);
    return out + ']';
  }
  if (v instanceof JsonObject) {
    if (v.size === 0) return '{}';
    return encodeMembers(v, p17);
  }
  // PhpArray (or any other map): a list when its keys are 0..n-1 in order, `[]` when empty.
  const m = v as Map<string, Value>;
  if (isListLike(m)) {
    if (m.size === 0) return '[]';
    let out = '[';
    let first = true;
    for (const item of m.values()) {
      out += (first ? '' : ',') + encodeValue(item, p17);
      first = false;
    }
    return out + ']';
  }
  return encodeMembers(m, p17);
}

function encodeMembers(m: Map<string, Value>, p17: boolean): string {
  let out = '{';
  let first = true;
  for (const [k, item] of m) {
    out += (first ? '' : ',') + pjsonString(k) + ':' + encodeValue(item, p17);
    first = false;
  }
  return out + '}';
}

/**
 * PHP `json_encode($v)` with default flags. `floats`: `p17` = 17 significant digits (the
 * reference's setting while parsing: CSV cells, `forceType`, responseFilter), `shortest` =
 * shortest round-trip digits (request bodies, spec 01 §3.4.3). Integral floats carry no `.0`.
 * INF/NaN cannot be encoded: throws an `Error`.
 */
export function pjson(v: Value, floats: 'p17' | 'shortest'): string {
  return encodeValue(v, floats === 'p17');
}

/**
 * PHP `json_encode` with its failure value: `false` when the value holds INF or NaN. The reference
 * writes that `false` into cells (an empty cell) and measures it as "" (spec 04 §2.4).
 */
export function pjsonOrFalse(v: Value, floats: 'p17' | 'shortest'): string | false {
  try {
    return encodeValue(v, floats === 'p17');
  } catch (e) {
    if (e instanceof JsonEncodeError) return false;
    throw e;
  }
}

// ---------------------------------------------------------------------------------------------
// logJson

const MAX_LOG_DEPTH = 9;
const MAX_LOG_ITEMS = 1000;
const TOO_DEEP = `Over ${MAX_LOG_DEPTH} levels deep, aborting normalization`;

/** Characters escaped with JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE. */
const LOG_ESCAPE = /["\\\u0000-\u001f\u2028\u2029]/;

function logString(s: string): string {
  if (!LOG_ESCAPE.test(s)) return '"' + s + '"';
  let out = '"';
  let start = 0;
  const n = s.length;
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x20 && c !== 0x22 && c !== 0x5c && c !== 0x2028 && c !== 0x2029) continue;
    if (i > start) out += s.slice(start, i);
    out += c >= 0x2028 ? u4(c) : basicEscape(c);
    start = i + 1;
  }
  if (n > start) out += s.slice(start);
  return out + '"';
}

function logFloat(x: number, p17: boolean): string {
  // Monolog normalises non-finite floats to strings.
  if (Number.isNaN(x)) return '"NaN"';
  if (!Number.isFinite(x)) return x > 0 ? '"INF"' : '"-INF"';
  const s = p17 ? formatFloat(x, 17, 'e') : formatFloatShortest(x);
  // JSON_PRESERVE_ZERO_FRACTION
  return s.includes('.') || s.includes('e') ? s : s + '.0';
}

function logEntries(
  entries: Iterable<readonly [string, unknown]>,
  size: number,
  depth: number,
  p17: boolean,
  forceObject: boolean,
): string {
  const parts: [string, string][] = [];
  let count = 0;
  let list = !forceObject;
  for (const [k, item] of entries) {
    if (count === MAX_LOG_ITEMS) {
      parts.push(['...', logString(`Over ${MAX_LOG_ITEMS} items (${size} total), aborting normalization`)]);
      list = false;
      break;
    }
    if (list && k !== String(count)) list = false;
    parts.push([k, logValue(item, depth + 1, p17)]);
    count++;
  }
  if (list) return '[' + parts.map((p) => p[1]).join(',') + ']';
  if (parts.length === 0) return forceObject ? '{}' : '[]';
  return '{' + parts.map((p) => logString(p[0]) + ':' + p[1]).join(',') + '}';
}

function logValue(v: unknown, depth: number, p17: boolean): string {
  if (depth > MAX_LOG_DEPTH) return logString(TOO_DEEP);
  if (v === null || v === undefined) return 'null';
  switch (typeof v) {
    case 'string':
      return logString(v);
    case 'number':
      return Number.isSafeInteger(v) ? String(v) : logFloat(v, p17);
    case 'bigint':
      return v.toString();
    case 'boolean':
      return v ? 'true' : 'false';
    case 'function':
    case 'symbol':
      return 'null';
  }
  if (v instanceof PhpFloat) return logFloat(v.value, p17);
  if (Array.isArray(v)) {
    return logEntries(
      v.map((item, i) => [String(i), item] as const),
      v.length,
      depth,
      p17,
      false,
    );
  }
  if (v instanceof JsonObject) return logEntries(v, v.size, depth, p17, true);
  if (v instanceof Map) {
    return logEntries(
      [...v].map(([k, item]) => [String(k), item] as const),
      v.size,
      depth,
      p17,
      false,
    );
  }
  if (v instanceof Set) return logValue([...v], depth, p17);
  if (v instanceof Date) return logString(v.toISOString());
  if (v instanceof Error) {
    return logEntries(
      [
        ['class', v.name],
        ['message', v.message],
      ],
      2,
      depth,
      p17,
      true,
    );
  }
  const entries = Object.entries(v as Record<string, unknown>);
  return logEntries(entries, entries.length, depth, p17, false);
}

/**
 * The JSON of a log context (spec 01 §4.1): compact, `/` and Unicode unescaped, integral floats
 * keep `.0`, values deeper than 9 levels (the context itself is level 1, as in Monolog where
 * the record is level 0) become `"Over 9 levels deep, aborting normalization"`.
 * Accepts the value model and plain JS values (`undefined` → `null`). Maps and plain objects
 * are PHP arrays (empty → `[]`, keys 0..n-1 → a list); `JsonObject` is always an object.
 * Floats use 17 significant digits by default (the reference's global precision during a run).
 */
export function logJson(v: unknown, floats: 'p17' | 'shortest' = 'p17'): string {
  return logValue(v, 1, floats === 'p17');
}
