/**
 * The helper is a Python program (spec 05): its answers are Python's `json.dumps` with default
 * settings (§1.5), and wherever it turns a value into text it uses Python's `str()` (the
 * "Python string form"). Both live here so that every action prints values the same way.
 */
import { JsonObject, type PhpArray, PhpFloat, type Value } from '../php/value.ts';

/** Python `repr(float)`: shortest round-trip digits, exponent form below 1e-4 and from 1e16. */
export function pythonFloat(x: number): string {
  if (Number.isNaN(x)) return 'NaN';
  if (!Number.isFinite(x)) return x > 0 ? 'Infinity' : '-Infinity';
  if (x === 0) return Object.is(x, -0) ? '-0.0' : '0.0';
  const [mantissa, expText] = x.toExponential().split('e') as [string, string];
  const exp = Number(expText);
  const negative = mantissa.startsWith('-');
  const digits = mantissa.replace('-', '').replace('.', '');
  const sign = negative ? '-' : '';
  if (exp < -4 || exp >= 16) {
    const body = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
    return `${sign}${body}e${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`;
  }
  if (exp < 0) return `${sign}0.${'0'.repeat(-exp - 1)}${digits}`;
  const intPart = digits.slice(0, exp + 1).padEnd(exp + 1, '0');
  const frac = digits.slice(exp + 1);
  return `${sign}${intPart}.${frac === '' ? '0' : frac}`;
}

/** `str(float)` differs from the JSON form only for the non-finite values. */
function pythonFloatStr(x: number): string {
  if (Number.isNaN(x)) return 'nan';
  if (!Number.isFinite(x)) return x > 0 ? 'inf' : '-inf';
  return pythonFloat(x);
}

function jsonString(s: string): string {
  let out = '"';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x22) out += '\\"';
    else if (c === 0x5c) out += '\\\\';
    else if (c === 0x0a) out += '\\n';
    else if (c === 0x0d) out += '\\r';
    else if (c === 0x09) out += '\\t';
    else if (c === 0x08) out += '\\b';
    else if (c === 0x0c) out += '\\f';
    // ensure_ascii: every non-ASCII UTF-16 unit (surrogates included) as \uXXXX.
    else if (c < 0x20 || c > 0x7e) out += c === 0x7f ? s[i] : `\\u${c.toString(16).padStart(4, '0')}`;
    else out += s[i];
  }
  return `${out}"`;
}

/** Python `json.dumps(v)` with default settings: `", "` and `": "`, ASCII only, no newline. */
export function pythonJson(v: Value | undefined): string {
  if (v === undefined || v === null) return 'null';
  if (v === true) return 'true';
  if (v === false) return 'false';
  if (typeof v === 'number' || typeof v === 'bigint') return String(v);
  if (v instanceof PhpFloat) return pythonFloat(v.value);
  if (typeof v === 'string') return jsonString(v);
  if (Array.isArray(v)) return `[${v.map((e) => pythonJson(e)).join(', ')}]`;
  const parts: string[] = [];
  for (const [k, e] of v) parts.push(`${jsonString(k)}: ${pythonJson(e)}`);
  return `{${parts.join(', ')}}`;
}

/** Python `repr(str)`: single quotes unless the text has a `'` and no `"`. */
export function pythonRepr(s: string): string {
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
  let out = quote;
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    if (ch === '\\') out += '\\\\';
    else if (ch === quote) out += `\\${quote}`;
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (c < 0x20 || c === 0x7f) out += `\\x${c.toString(16).padStart(2, '0')}`;
    else out += ch;
  }
  return out + quote;
}

function reprOf(v: Value | undefined): string {
  return typeof v === 'string' ? pythonRepr(v) : pythonStr(v);
}

/** Python `str(v)`: the "Python string form" of spec 05. */
export function pythonStr(v: Value | undefined): string {
  if (v === undefined || v === null) return 'None';
  if (v === true) return 'True';
  if (v === false) return 'False';
  if (typeof v === 'number' || typeof v === 'bigint') return String(v);
  if (v instanceof PhpFloat) return pythonFloatStr(v.value);
  if (typeof v === 'string') return v;
  if (Array.isArray(v)) return `[${v.map(reprOf).join(', ')}]`;
  return `{${[...v].map(([k, e]) => `${pythonRepr(k)}: ${reprOf(e)}`).join(', ')}}`;
}

/** Python truthiness: `""`, `0`, `0.0`, `None`, `False`, `[]` and `{}` are false; `"0"` is true. */
export function pythonTruthy(v: Value | undefined): boolean {
  if (v === undefined || v === null || v === false) return false;
  if (v === true) return true;
  if (typeof v === 'number') return v !== 0;
  if (typeof v === 'bigint') return v !== 0n;
  if (v instanceof PhpFloat) return v.value !== 0;
  if (typeof v === 'string') return v !== '';
  if (Array.isArray(v)) return v.length > 0;
  return v.size > 0;
}

/** Python's type name of a value, for the helper's TypeError texts. */
export function pythonTypeName(v: Value | undefined): string {
  if (v === undefined || v === null) return 'NoneType';
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'number' || typeof v === 'bigint') return 'int';
  if (v instanceof PhpFloat) return 'float';
  if (typeof v === 'string') return 'str';
  if (Array.isArray(v)) return 'list';
  return 'dict';
}

/** A Python dict built in insertion order (printed as a JSON object even when empty). */
export function dict(entries: Iterable<readonly [string, Value]> = []): JsonObject {
  return new JsonObject(entries);
}

export function isDict(v: Value | undefined): v is JsonObject | PhpArray {
  return v instanceof Map;
}
