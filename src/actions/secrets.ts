/**
 * Hiding secrets in answers (spec 05 §5.3): user parameters named `#…` or `__…`, then the
 * authentication's secrets, each replaced by `--HIDDEN--` in turn. Unlike the reference, an
 * empty secret is skipped (it would put `--HIDDEN--` between every character), numbers and
 * booleans are compared in their Python string form instead of crashing, and null or
 * structured values are skipped.
 */
import { PhpFloat, type Value } from '../php/value.ts';
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
  out.push(...ctx.auth.secrets);
  return out.filter((s) => s !== '');
}

export function maskSecrets(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) out = out.split(secret).join(HIDDEN_TEXT);
  return out;
}
