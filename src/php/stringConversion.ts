/**
 * PHP's conversion of a value to a string (`(string)$v`, spec 03 §0.3): what a value becomes in a
 * URL, a header, a placeholder or a CSV cell.
 */
import { ApplicationError } from '../errors/ApplicationError.ts';
import { formatFloat, numberText } from './numbers.ts';
import { JsonObject, PhpFloat, type Value } from './value.ts';

/** PHP string conversion of a float (`precision = 14`). */
export function phpFloatString(x: number): string {
  return formatFloat(x, 14, 'E');
}

/**
 * PHP string conversion of a scalar (`(string)$v`, spec 03 §0.3): null/false → "",
 * true → "1", floats with 14 significant digits, lists → "Array".
 * A decoded object cannot be converted: the reference crashes with this message (exit 2), so it is
 * an application error here too — without a JavaScript stack trace in the log.
 */
export function phpString(v: Value | undefined): string {
  if (v === undefined || v === null || v === false) return '';
  if (v === true) return '1';
  if (typeof v === 'string') return v;
  if (typeof v === 'number') return numberText(v);
  if (typeof v === 'bigint') return String(v);
  if (v instanceof PhpFloat) return phpFloatString(v.value);
  if (Array.isArray(v)) return 'Array';
  if (v instanceof JsonObject) throw new ApplicationError('Object of class stdClass could not be converted to string');
  return 'Array';
}
