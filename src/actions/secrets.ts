/**
 * Hiding secrets in answers (spec 05 §5.3): user parameters named `#…` or `__…`, then the
 * authentication's secrets, each replaced by `--HIDDEN--` in turn. Unlike the reference, an
 * empty secret is skipped (it would put `--HIDDEN--` between every character), numbers and
 * booleans are compared in their Python string form instead of crashing, and null or
 * structured values are skipped.
 */
import { derivedForms } from '../logging/redact.ts';
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
  out.push(...ctx.auth.secrets());
  return out.filter((s) => s !== '');
}

/**
 * Each secret in turn, in every form it takes in a URL, a body or a header (percent-encoded,
 * JSON-escaped, base64: redact.ts's forms, plus Python's JSON escaping, which keeps `/`), longest
 * form first. The reference replaces the raw text only, so a token in a query string shows
 * percent-encoded; here it does not.
 */
export function maskSecrets(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) {
    const forms = new Set([secret, ...derivedForms(secret), pjsonString(secret).slice(1, -1).replaceAll('\\/', '/')]);
    for (const form of [...forms].filter((f) => f !== '').sort((a, b) => b.length - a.length)) out = out.split(form).join(HIDDEN_TEXT);
  }
  return out;
}

/** The strings inside an answer value (lists and objects walked; keys kept) with secrets masked. */
export function maskSecretsInValue(v: Value, secrets: readonly string[]): Value {
  if (typeof v === 'string') return maskSecrets(v, secrets);
  if (Array.isArray(v)) return v.map((x) => maskSecretsInValue(x, secrets));
  if (v instanceof Map) {
    const entries = [...v].map(([k, x]) => [k, maskSecretsInValue(x, secrets)] as [string, Value]);
    return v instanceof PhpArray ? new PhpArray(entries) : new JsonObject(entries);
  }
  return v;
}
