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
 * Characters that continue a word around a secret: a secret is hidden where it stands as a value
 * (a header or query value, userinfo, a JSON string, a whole path segment), never inside a longer
 * word — with `#token` = `token`, the path `/001-token-header/` stays as it is. A `.` continues a
 * word only when a word character follows (`token.json`), not at the end of a sentence.
 */
const BEFORE = String.raw`(?<![\p{L}\p{N}_~%+.\-])`;
const AFTER = String.raw`(?![\p{L}\p{N}_~%+\-]|\.[\p{L}\p{N}])`;

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

/** A secret's forms in a URL, a body or a header: redact.ts's, plus Python's JSON escaping (keeps `/`). */
function formsOf(secret: string): string[] {
  const forms = new Set([secret, ...derivedForms(secret), pjsonString(secret).slice(1, -1).replaceAll('\\/', '/')]);
  return [...forms].filter((f) => f !== '').sort((a, b) => b.length - a.length);
}

/**
 * Each secret in turn, in every form it takes, where it stands as a value, longest form first.
 * The reference replaces the raw text only, anywhere (a token in a query string shows
 * percent-encoded; a short one mangles every word that contains it); here neither happens.
 */
export function secretMasker(secrets: readonly string[]): (text: string) => string {
  if (secrets.length === 0) return (text) => text;
  const forms = secrets.map(formsOf);
  const patterns = forms.map((list) => new RegExp(`${BEFORE}(?:${list.map(escapeRegExp).join('|')})${AFTER}`, 'gu'));
  // A plain search first: most strings of a large answer hold no secret, and the bounded
  // Unicode patterns cost several times more than this test.
  const anyForm = new RegExp(forms.flat().map(escapeRegExp).join('|'));
  return (text) => (anyForm.test(text) ? patterns.reduce((out, pattern) => out.replace(pattern, HIDDEN_TEXT), text) : text);
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
