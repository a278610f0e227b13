/**
 * PHP `var_export($v, true)` (PHP ≥ 7.3 layout), used in error messages
 * (`Job configuration must be an array: 'abc'`, spec 03 §1.1; 04 §7.8).
 *
 * - strings: single-quoted, `\` and `'` backslash-escaped, a NUL byte written `' . "\0" . '`;
 * - ints: decimal (PHP_INT_MIN is written `-9223372036854775807-1`, as PHP does);
 * - floats: shortest round-trip digits (`serialize_precision = -1`; pass `'p17'` for 17 digits),
 *   exponent char `E`, integral values keep `.0` (`1.0`, `1.0E+25`), `INF`, `-INF`, `NAN`;
 * - `true` / `false` / `NULL`;
 * - lists and configuration maps (best effort, PHP's layout):
 *     array (
 *       0 => 1,
 *       'a' =>
 *       array (
 *         0 => 2,
 *       ),
 *     )
 *   (note the trailing space after `=>` before a nested array); configuration keys that are
 *   canonical integers are written unquoted;
 * - decoded objects (stdClass, best effort): `(object) array(\n   'a' => 1,\n)`, properties
 *   indented by level + 2 spaces, keys always quoted.
 */
import { formatFloat, formatFloatShortest } from './numbers.ts';
import { JsonObject, PhpFloat, type Value } from './value.ts';
import { isCanonicalIntKey } from './serialize.ts';

function quote(s: string): string {
  let out = "'" + s.replace(/[\\']/g, '\\$&') + "'";
  if (out.includes('\0')) out = out.replaceAll('\0', '\' . "\\0" . \'');
  return out;
}

function floatText(x: number, p17: boolean): string {
  if (Number.isNaN(x)) return 'NAN';
  if (!Number.isFinite(x)) return x > 0 ? 'INF' : '-INF';
  const s = p17 ? formatFloat(x, 17, 'E') : formatFloatShortest(x).replace('e', 'E');
  return s.includes('.') ? s : s + '.0';
}

function intText(v: number | bigint): string {
  if (typeof v === 'bigint') return v === -9223372036854775808n ? '-9223372036854775807-1' : v.toString();
  return Number.isSafeInteger(v) ? String(v) : BigInt(v).toString();
}

function exportValue(v: Value | undefined, level: number, p17: boolean): string {
  if (v === null || v === undefined) return 'NULL';
  switch (typeof v) {
    case 'string':
      return quote(v);
    case 'number':
      return Number.isInteger(v) ? intText(v) : floatText(v, p17);
    case 'bigint':
      return intText(v);
    case 'boolean':
      return v ? 'true' : 'false';
  }
  if (v instanceof PhpFloat) return floatText(v.value, p17);
  const outerPad = ' '.repeat(level - 1);
  const head = level > 1 ? '\n' + outerPad : '';
  const tail = level > 1 ? outerPad : '';
  if (v instanceof JsonObject) {
    const pad = ' '.repeat(level + 2);
    let out = head + '(object) array(\n';
    for (const [k, item] of v) out += pad + quote(k) + ' => ' + exportValue(item, level + 2, p17) + ',\n';
    return out + tail + ')';
  }
  const pad = ' '.repeat(level + 1);
  let out = head + 'array (\n';
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) out += pad + i + ' => ' + exportValue(v[i], level + 2, p17) + ',\n';
  } else {
    for (const [k, item] of v) {
      out += pad + (isCanonicalIntKey(k) ? k : quote(k)) + ' => ' + exportValue(item, level + 2, p17) + ',\n';
    }
  }
  return out + tail + ')';
}

/** PHP `var_export($v, true)`; `undefined` (an absent value) is `NULL`. */
export function varExport(v: Value | undefined, floats: 'shortest' | 'p17' = 'shortest'): string {
  return exportValue(v, 1, floats === 'p17');
}
