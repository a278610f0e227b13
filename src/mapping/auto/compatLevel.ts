/**
 * The compatibility level of a configuration: which parser the automatic mapping uses (04 §3)
 * and how `responseFilter` encodes scalars (03 §3.4).
 */
import { phpIntval } from '../../php/intval.ts';
import { isEmpty, type PhpArray, type Value } from '../../php/value.ts';

/** Effective compat level (04 §3, 03 §3.4): `(int) config.compatLevel`, or 3 when PHP-empty. */
export function effectiveCompatLevel(raw: Value | undefined): number {
  return isEmpty(raw) ? 3 : phpIntval(raw);
}

/** `config.compatLevel` as PHP reads it: empty → 3, else `(int)`. */
export function compatLevelOf(config: PhpArray): number {
  return effectiveCompatLevel(config.get('compatLevel'));
}
