/**
 * The value model shared by every stage. It mirrors the reference's PHP values,
 * because output bytes and link hashes depend on distinctions JavaScript does not make:
 *
 * - PHP int   → `number` (safe integer) or `bigint` (beyond 2^53, within signed 64-bit)
 * - PHP float → `PhpFloat` (boxed, so `1.0` stays a float and `1` stays an int)
 * - string, boolean, null → themselves
 * - JSON list → `Value[]`
 * - decoded response object (PHP stdClass) → `JsonObject` (ordered; never "empty", even `{}`)
 * - configuration object (PHP associative array) → `PhpArray` (ordered; `{}` decodes to `[]`)
 */

export class PhpFloat {
  readonly value: number;
  constructor(value: number) {
    this.value = value;
  }
}

/** A JSON object decoded from a response: PHP `stdClass`. Integer-like keys keep their order. */
export class JsonObject extends Map<string, Value> {}

/** A JSON object decoded from configuration: a PHP associative array. */
export class PhpArray extends Map<string, Value> {}

export type Scalar = null | boolean | number | bigint | PhpFloat | string;
export type Value = Scalar | Value[] | JsonObject | PhpArray;
export type ValueMap = JsonObject | PhpArray;

export function isMap(v: Value | undefined): v is ValueMap {
  return v instanceof Map;
}

export function isList(v: Value | undefined): v is Value[] {
  return Array.isArray(v);
}

/** PHP int (either representation). */
export function isInt(v: Value | undefined): v is number | bigint {
  return typeof v === 'number' || typeof v === 'bigint';
}

export function isFloat(v: Value | undefined): v is PhpFloat {
  return v instanceof PhpFloat;
}

/** A value that is not a list or a map (`null` included). */
export function isScalar(v: Value | undefined): v is Scalar {
  return v === null || v === undefined || typeof v !== 'object' || v instanceof PhpFloat;
}

/**
 * PHP `empty()`: null, false, 0, 0.0, "", "0", an empty list or configuration map.
 * A decoded response object is never empty.
 */
export function isEmpty(v: Value | undefined): boolean {
  if (v === undefined || v === null || v === false) return true;
  if (typeof v === 'number') return v === 0;
  if (typeof v === 'bigint') return v === 0n;
  if (typeof v === 'string') return v === '' || v === '0';
  if (v instanceof PhpFloat) return v.value === 0;
  if (Array.isArray(v)) return v.length === 0;
  if (v instanceof JsonObject) return false;
  return (v as PhpArray).size === 0;
}

export function truthy(v: Value | undefined): boolean {
  return !isEmpty(v);
}

/** PHP `gettype()`. */
export function phpType(v: Value | undefined): string {
  if (v === undefined || v === null) return 'NULL';
  if (typeof v === 'boolean') return 'boolean';
  if (typeof v === 'number' || typeof v === 'bigint') return 'integer';
  if (v instanceof PhpFloat) return 'double';
  if (typeof v === 'string') return 'string';
  if (v instanceof JsonObject) return 'object';
  return 'array';
}

/** Member of a map by exact key; `undefined` when absent (a stored `null` is present). */
export function member(v: Value | undefined, key: string): Value | undefined {
  return v instanceof Map ? v.get(key) : undefined;
}
