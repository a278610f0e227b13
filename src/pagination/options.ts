/**
 * Reading pagination options the way the reference does (spec 03 §5.1, §5.3): `empty(…)`
 * defaults, string casts, numeric comparisons, truthiness, and the strictly typed options. A wrong
 * type of those crashes the reference (a PHP type error, exit code 2) and does so here, naming
 * the option, with what to write on the line after it.
 */
import { ApplicationError } from '../errors/ApplicationError.ts';
import { isNumericString } from '../php/isNumeric.ts';
import { phpString } from '../php/stringConversion.ts';
import { isEmpty, member, PhpArray, PhpFloat, phpType, truthy, type Value } from '../php/value.ts';

/** PHP numeric value of a scalar for comparisons (`null` for values that are not numeric). */
export function numericValue(v: Value | undefined): number | null {
  if (typeof v === 'number') return v;
  if (typeof v === 'bigint') return Number(v);
  if (v instanceof PhpFloat) return v.value;
  if (typeof v === 'string' && isNumericString(v)) return Number(v);
  return null;
}

/** A scalar value as a JavaScript value for log contexts. */
export function shownOption(v: Value | undefined): unknown {
  if (v instanceof PhpFloat) return v.value;
  if (typeof v === 'bigint') return v.toString();
  if (v === undefined) return null;
  if (v instanceof Map) return Object.fromEntries(v);
  return v;
}

/**
 * A configuration reader bound to one pagination configuration and its config path.
 * `path` is used for the `configPath` of errors (e.g. `parameters.api.pagination.limit`).
 */
export class OptionReader {
  readonly config: PhpArray;
  readonly path: string;

  constructor(config: Value | undefined, path: string) {
    this.config = config instanceof PhpArray ? config : new PhpArray();
    this.path = path;
  }

  at(key: string): string {
    return `${this.path}.${key}`;
  }

  get(key: string): Value | undefined {
    return member(this.config, key);
  }

  /** empty(…) → default, else the value cast to string. */
  castString(key: string, fallback: string): string {
    const v = this.get(key);
    return isEmpty(v) ? fallback : phpString(v!);
  }

  /**
   * A name/path option that must be a JSON string when set (03 §5.1 "type strictness"):
   * empty(…) → `fallback` (undefined = not set); another type → the reference's type error (exit 2).
   */
  strictString(key: string, fallback?: string): string | undefined {
    const v = this.get(key);
    if (isEmpty(v)) return fallback;
    if (typeof v !== 'string') throw this.wrongType(key, 'a string', 'Write the name in quotes, e.g. "next".');
    return v;
  }

  /**
   * The reference's type error (`Option '…' must be a string, array given.`), exit 2 as there
   * (spec 03 §5.1), naming the option; the fix is the line logged after it.
   */
  wrongType(key: string, expected: string, fix: string): ApplicationError {
    const v = this.get(key);
    return new ApplicationError(`Option '${this.at(key)}' must be ${expected}, ${phpType(v ?? null)} given.`, {
      context: { configPath: this.at(key), value: shownOption(v) },
      hint: fix,
    });
  }

  /** Truthiness with a default for an absent or `null` member. */
  flag(key: string, fallback: boolean): boolean {
    const v = this.get(key);
    if (v === undefined || v === null) return fallback;
    return truthy(v);
  }
}
