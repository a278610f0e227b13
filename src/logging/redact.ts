/**
 * Secret redaction (spec 01 §4.5): every log line and error message passes through here,
 * because the reference relied on the platform's output filter and we must not.
 */
import type { Value } from '../php/value.ts';
import { pjsonString } from '../php/jsonEncode.ts';
import { rawurlencode, urlencode } from '../php/urlEncoding.ts';

export const HIDDEN = '[hidden]';

/** Headers whose whole value is hidden in request logs, whatever it is. */
export const SENSITIVE_HEADERS = new Set(['authorization', 'proxy-authorization', 'x-storageapi-token', 'cookie']);

export class SecretRegistry {
  private secrets: string[] = [];

  add(value: string): void {
    if (value.length === 0 || this.secrets.includes(value)) return;
    this.secrets.push(value);
    for (const derived of derivedForms(value)) {
      if (derived !== value && derived.length >= 4 && !this.secrets.includes(derived)) this.secrets.push(derived);
    }
    // Longest first, so a secret containing another is hidden whole.
    this.secrets.sort((a, b) => b.length - a.length);
  }

  /** Collects every non-empty string under a key starting with `#`, anywhere (01 §4.5). */
  collectFrom(config: Value): void {
    const walk = (v: Value, secret: boolean): void => {
      if (typeof v === 'string') {
        if (secret) {
          this.add(v);
          if (v.startsWith('{') || v.startsWith('[')) this.collectJsonStrings(v);
        }
        return;
      }
      if (Array.isArray(v)) {
        for (const item of v) walk(item, secret);
      } else if (v instanceof Map) {
        for (const [k, child] of v) walk(child, secret || k.startsWith('#'));
      }
    };
    walk(config, false);
  }

  private collectJsonStrings(text: string): void {
    try {
      const walk = (v: unknown): void => {
        if (typeof v === 'string') this.add(v);
        else if (Array.isArray(v)) v.forEach(walk);
        else if (v !== null && typeof v === 'object') Object.values(v).forEach(walk);
      };
      walk(JSON.parse(text));
    } catch {
      // Not JSON: the string itself is already registered.
    }
  }

  redact(text: string): string {
    let out = text;
    for (const s of this.secrets) {
      if (out.includes(s)) out = out.split(s).join(HIDDEN);
    }
    return out;
  }

  get size(): number {
    return this.secrets.length;
  }
}

/** The JSON string body of `s` (no quotes), as JSON.stringify / the log context escape it. */
function jsonInner(s: string): string {
  return JSON.stringify(s).slice(1, -1);
}

/**
 * The forms in which a secret can reach a log line: URL-encoded (form, raw and WHATWG styles),
 * base64, JSON-escaped (plain and PHP style with `\/` and `\uXXXX`), with newlines flattened as the
 * line format does, and each of these JSON-escaped once more (a response body echoed inside the
 * JSON context of a log line).
 */
function derivedForms(value: string): string[] {
  const once = [
    value,
    urlencode(value),
    rawurlencode(value),
    Buffer.from(value).toString('base64'),
    jsonInner(value),
    pjsonString(value).slice(1, -1),
  ];
  try {
    once.push(encodeURIComponent(value));
  } catch {
    // A lone surrogate has no URI form.
  }
  const forms = new Set<string>();
  for (const form of once) {
    forms.add(form);
    forms.add(form.replace(/\r\n|\r|\n/g, ' '));
    forms.add(jsonInner(form));
  }
  return [...forms];
}
