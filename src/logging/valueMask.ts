/**
 * Masking a short secret where it stands as a value, never inside a longer word (a long one
 * anywhere, see valueMasker): with a secret `x`,
 * `ex-generic-platform` stays as it is, while `?token=x&a=1` and `{"token":"x"}` become
 * `?token=[hidden]&a=1` and `{"token":"[hidden]"}`. The sync actions' answers (actions/secrets.ts)
 * and everything the platform client prints (platform/redaction.ts) use it, each with its own
 * replacement text and the forms its output can hold.
 */
import { derivedForms, escapeRegExp, MIN_FREE_LENGTH, WRAPPED_BASE64, wrappedBase64Sources } from './redact.ts';

/**
 * Characters that continue a word around a secret: a secret is hidden where it stands as a value
 * (a header or query value, userinfo, a JSON string, a whole path segment), never inside a longer
 * word — with a secret `token`, the path `/001-token-header/` stays as it is. A `.` continues a
 * word only when a word character follows (`token.json`), not at the end of a sentence.
 */
const PLAIN_BEFORE = String.raw`(?<![\p{L}\p{N}_~%+.\-])`;
const PLAIN_AFTER = String.raw`(?![\p{L}\p{N}_~%+\-]|\.[\p{L}\p{N}])`;
/**
 * An escape beside the secret is a boundary too, though it ends or starts with a word character:
 * `?q=a%3Dx%20b` is `a=x b` and `"a\nx"` is a line break then `x`, so `x` stands as a value there
 * and must be hidden (a URL-encoded or JSON-escaped text would otherwise carry it in clear).
 */
const ESCAPE_BEFORE = String.raw`(?<=%[0-9A-Fa-f]{2}|\\[nrtbf/"]|\\u[0-9A-Fa-f]{4})`;
const ESCAPE_AFTER = '(?=%[0-9A-Fa-f]{2})';
const BEFORE = `(?:${PLAIN_BEFORE}|${ESCAPE_BEFORE})`;
const AFTER = `(?:${PLAIN_AFTER}|${ESCAPE_AFTER})`;

export interface ValueMaskOptions {
  /** What a masked value becomes (`[hidden]`, `--HIDDEN--`). */
  replacement: string;
  /** The forms one secret takes in the text (default: raw, URL-encoded, base64, JSON-escaped: redact.ts's). */
  formsOf?: (secret: string) => string[];
}

/**
 * Each secret in turn, in every form it takes, longest form first: one of MIN_FREE_LENGTH
 * characters or more anywhere (the logs' rule, redact.ts: a real token is unique, and glued to a
 * word — `…/tokens/<token>.json` — it is still the token), a shorter one only where it stands as a
 * value. Empty secrets and empty forms are skipped (an empty one would match between every character).
 */
export function valueMasker(secrets: readonly string[], options: ValueMaskOptions): (text: string) => string {
  const formsOf = options.formsOf ?? derivedForms;
  const masked = secrets
    .filter((s) => s !== '')
    .map((secret) => ({
      free: [...secret].length >= MIN_FREE_LENGTH,
      forms: [...new Set(formsOf(secret))].filter((f) => f !== '').sort((a, b) => b.length - a.length),
    }))
    .filter(({ forms }) => forms.length > 0);
  if (masked.length === 0) return (text) => text;
  const patterns = masked.map(({ free, forms }) => {
    const alternatives = `(?:${forms.map(escapeRegExp).join('|')})`;
    return new RegExp(free ? alternatives : `${BEFORE}${alternatives}${AFTER}`, 'gu');
  });
  // A long secret's base64 split by the line breaks of a wrapped base64 text (redact.ts).
  const wrappedSources = secrets.flatMap(wrappedBase64Sources);
  const wrapped = wrappedSources.length === 0 ? undefined : new RegExp(wrappedSources.join('|'), 'g');
  // A plain search first: most strings hold no secret, and the bounded Unicode patterns cost
  // several times more than this test.
  const anyForm = new RegExp(masked.flatMap(({ forms }) => forms.map(escapeRegExp)).join('|'));
  return (text) => {
    let out = anyForm.test(text) ? patterns.reduce((done, pattern) => done.replace(pattern, options.replacement), text) : text;
    if (wrapped && WRAPPED_BASE64.test(out)) out = out.replace(wrapped, options.replacement);
    return out;
  };
}
