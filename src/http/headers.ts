/**
 * An ordered, case-insensitive header list. Names keep the spelling of their first
 * occurrence; values of same-named headers are appended (spec 01 §3.6).
 */
import { UserError } from '../errors/UserError.ts';
import { phpString } from '../php/stringConversion.ts';
import type { Value } from '../php/value.ts';

export interface HeaderEntry {
  name: string;
  values: string[];
}

export class HeaderList {
  readonly entries: HeaderEntry[] = [];

  static from(entries: Iterable<readonly [string, readonly string[]]>): HeaderList {
    const list = new HeaderList();
    for (const [name, values] of entries) list.append(name, values);
    return list;
  }

  private index(name: string): number {
    const lower = name.toLowerCase();
    return this.entries.findIndex((e) => e.name.toLowerCase() === lower);
  }

  has(name: string): boolean {
    return this.index(name) >= 0;
  }

  get(name: string): string | undefined {
    const i = this.index(name);
    return i < 0 ? undefined : this.entries[i]!.values.join(', ');
  }

  append(name: string, values: readonly string[]): void {
    const i = this.index(name);
    if (i >= 0) this.entries[i]!.values.push(...values);
    else this.entries.push({ name, values: [...values] });
  }

  /** Replaces by case-insensitive name; the header moves to the end with the new spelling. */
  set(name: string, values: readonly string[]): void {
    this.remove(name);
    this.entries.push({ name, values: [...values] });
  }

  /** Replaces by case-insensitive name where the header stands (new spelling), or appends it. */
  replace(name: string, values: readonly string[]): void {
    const i = this.index(name);
    if (i >= 0) this.entries[i] = { name, values: [...values] };
    else this.entries.push({ name, values: [...values] });
  }

  remove(name: string): void {
    const i = this.index(name);
    if (i >= 0) this.entries.splice(i, 1);
  }

  clone(): HeaderList {
    return HeaderList.from(this.entries.map((e) => [e.name, e.values] as const));
  }

  /**
   * Node's raw header array: one line per value, in order. Node writes header strings as Latin-1,
   * so a value is handed over as its UTF-8 bytes, one character per byte: `café` goes out as
   * `63 61 66 c3 a9`, as the reference sends it (issue 19 #4). A header that cannot be sent
   * safely is a user error here, never Node's ERR_INVALID_CHAR crash.
   */
  toRaw(): string[] {
    const raw: string[] = [];
    for (const e of this.entries) {
      checkHeader(e.name, e.values, undefined);
      for (const v of e.values) raw.push(e.name, NON_ASCII.test(v) ? Buffer.from(v, 'utf8').toString('latin1') : v);
    }
    return raw;
  }
}

/** Header value rendering: trimmed strings, true → "1", false/null → "", lists → several values. */
export function headerValues(v: Value | undefined): string[] {
  if (Array.isArray(v)) return v.map((item) => renderOne(item));
  return [renderOne(v)];
}

function renderOne(v: Value | undefined): string {
  return phpString(v ?? null).replace(/^[ \t]+|[ \t]+$/g, '');
}

const NON_ASCII = /[^\x00-\x7f]/;
/** Characters no header value may carry: line breaks and other controls (a tab is fine). */
const UNSAFE_VALUE = /[\x00-\x08\x0a-\x1f\x7f]/;
/** RFC 9110 token: the characters a header name may have. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

function describeChar(c: string): string {
  if (c === '\n') return 'a line break (\\n)';
  if (c === '\r') return 'a carriage return (\\r)';
  return `the control character U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;
}

/**
 * A header that cannot be sent safely — a value with a line break or another control character
 * (a pasted token with a trailing newline, values joined with "\n"), or a name that is not an
 * HTTP token — is a user error naming the configuration path (issue 19 #4). The reference's curl
 * would put the line break on the wire and split the header.
 */
export function checkHeader(name: string, values: readonly string[], configPath: string | undefined): void {
  const where = configPath === undefined ? '' : ` (${configPath})`;
  if (!TOKEN.test(name)) {
    throw new UserError(
      `The header name "${name}"${where} cannot be sent: a header name may contain only letters, digits and !#$%&'*+-.^_\`|~. Rename the header.`,
      configPath === undefined ? {} : { configPath },
    );
  }
  for (const v of values) {
    const bad = UNSAFE_VALUE.exec(v);
    if (bad === null) continue;
    const fix =
      bad[0] === '\n' || bad[0] === '\r'
        ? ' Remove the line break (a pasted token often ends with one) or join the lines with a space.'
        : ' Remove it.';
    throw new UserError(
      `The value of header "${name}"${where} contains ${describeChar(bad[0])}, which cannot be sent in an HTTP header.${fix}`,
      configPath === undefined ? {} : { configPath },
    );
  }
}
