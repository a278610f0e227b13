/**
 * An ordered, case-insensitive header list. Names keep the spelling of their first
 * occurrence; values of same-named headers are appended (spec 01 §3.6).
 */
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

  remove(name: string): void {
    const i = this.index(name);
    if (i >= 0) this.entries.splice(i, 1);
  }

  clone(): HeaderList {
    return HeaderList.from(this.entries.map((e) => [e.name, e.values] as const));
  }

  /** Node's raw header array: one line per value, in order. */
  toRaw(): string[] {
    const raw: string[] = [];
    for (const e of this.entries) for (const v of e.values) raw.push(e.name, v);
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
