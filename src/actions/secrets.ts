/**
 * Hiding secrets in answers (spec 05 §5.3): user parameters named `#…` or `__…`, then the
 * authentication's secrets, then the values user functions computed from them (dialect.ts), each replaced by `--HIDDEN--` in turn. Unlike the reference, an
 * empty secret is skipped (it would put `--HIDDEN--` between every character), numbers and
 * booleans are compared in their Python string form instead of crashing, and null or
 * structured values are skipped.
 */
import { derivedForms } from '../logging/redact.ts';
import { valueMasker } from '../logging/valueMask.ts';
import { pjsonString } from '../php/jsonEncode.ts';
import { JsonObject, PhpArray, PhpFloat, type Value } from '../php/value.ts';
import type { ActionContext } from './context.ts';
import { pythonStr } from './pythonValues.ts';

export const HIDDEN_TEXT = '--HIDDEN--';

function secretText(v: Value): string | undefined {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'bigint' || typeof v === 'boolean' || v instanceof PhpFloat) return pythonStr(v);
  return undefined;
}

export function secretsOf(ctx: ActionContext): string[] {
  const out: string[] = [];
  for (const [key, value] of ctx.user) {
    if (!key.startsWith('#') && !key.startsWith('__')) continue;
    const text = secretText(value);
    if (text !== undefined) out.push(text);
  }
  out.push(...ctx.auth.secrets(), ...ctx.env.derivedSecrets);
  return out.filter((s) => s !== '');
}

/** A secret's forms in a URL, a body or a header: redact.ts's, plus Python's JSON escaping (keeps `/`). */
function formsOf(secret: string): string[] {
  return [secret, ...derivedForms(secret), pjsonString(secret).slice(1, -1).replaceAll('\\/', '/')];
}

/**
 * Each secret where it stands as a value (logging/valueMask.ts), in every form it takes. The
 * reference replaces the raw text only, anywhere (a token in a query string shows
 * percent-encoded; a short one mangles every word that contains it); here neither happens.
 */
export function secretMasker(secrets: readonly string[]): (text: string) => string {
  return valueMasker(secrets, { replacement: HIDDEN_TEXT, formsOf });
}

export function maskSecrets(text: string, secrets: readonly string[]): string {
  return secretMasker(secrets)(text);
}

/**
 * The strings inside an answer value (lists and objects walked; keys kept) with secrets masked.
 * Copy on write: a list or object without a secret is returned as it is.
 */
export function maskSecretsInValue(v: Value, secrets: readonly string[]): Value {
  if (secrets.length === 0) return v;
  const mask = secretMasker(secrets);
  const walk = (x: Value): Value => {
    if (typeof x === 'string') return mask(x);
    if (Array.isArray(x)) {
      let copy: Value[] | undefined;
      for (let i = 0; i < x.length; i++) {
        const masked = walk(x[i]!);
        if (masked === x[i]) continue;
        copy ??= [...x];
        copy[i] = masked;
      }
      return copy ?? x;
    }
    if (x instanceof Map) {
      let copy: Map<string, Value> | undefined;
      for (const [k, e] of x) {
        const masked = walk(e);
        if (masked === e) continue;
        copy ??= x instanceof PhpArray ? new PhpArray(x) : new JsonObject(x);
        copy.set(k, masked);
      }
      return copy ?? x;
    }
    return x;
  };
  return walk(v);
}
