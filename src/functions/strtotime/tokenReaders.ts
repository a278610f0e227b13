/**
 * The cursor over a matched token and timelib's helpers that read its parts: numbers (signed,
 * fractional, years with the two-digit rule), day suffixes, month names and meridians.
 */
import { StrtotimeParseError } from '../../errors/StrtotimeParseError.ts';

/** A cursor over the matched token (timelib copies the token and walks it with helpers). */
export class Ptr {
  readonly s: string;
  i = 0;
  constructor(s: string) {
    this.s = s + '\0';
  }
  /** The current character ('\0' at the end). */
  cur(): string {
    return this.s[this.i] ?? '\0';
  }
  at(k: number): string {
    return this.s[this.i + k] ?? '\0';
  }
}

export const isDigitCh = (c: string): boolean => c >= '0' && c <= '9';
export const isLetter = (c: string): boolean => (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');

function getNrEx(p: Ptr, maxLength: number): { value: number | null; length: number } {
  while (!isDigitCh(p.cur())) {
    if (p.cur() === '\0') return { value: null, length: 0 };
    p.i++;
  }
  const begin = p.i;
  let len = 0;
  while (isDigitCh(p.cur()) && len < maxLength) {
    p.i++;
    len++;
  }
  return { value: Number(p.s.slice(begin, p.i)), length: len };
}

export const getNr = (p: Ptr, maxLength: number): number | null => getNrEx(p, maxLength).value;

export function getSignedNr(p: Ptr, maxLength: number): number {
  let dir = 1;
  while (!isDigitCh(p.cur()) && p.cur() !== '+' && p.cur() !== '-') {
    if (p.cur() === '\0') throw new StrtotimeParseError('Found unexpected data');
    p.i++;
  }
  while (p.cur() === '+' || p.cur() === '-') {
    if (p.cur() === '-') dir = -dir;
    p.i++;
  }
  return dir * (getNr(p, maxLength) ?? 0);
}

export function getFracNr(p: Ptr, maxLength: number): number | null {
  while (p.cur() !== '.' && p.cur() !== ':' && !isDigitCh(p.cur())) {
    if (p.cur() === '\0') return null;
    p.i++;
  }
  const begin = p.i;
  let len = 0;
  while ((p.cur() === '.' || p.cur() === ':' || isDigitCh(p.cur())) && len < maxLength) {
    p.i++;
    len++;
  }
  const text = p.s.slice(begin, p.i).replace(':', '.');
  const v = Number.parseFloat(text);
  return Number.isNaN(v) ? 0 : Math.floor(v * 1e6);
}

function processYear(value: number | null, length: number): number | null {
  if (value === null || length >= 4) return value;
  if (value < 100) return value < 70 ? value + 2000 : value + 1900;
  return value;
}

/** A year of up to `maxLength` digits, with PHP's two-digit-year rule applied. */
export function getYear(p: Ptr, maxLength: number): number | null {
  const y = getNrEx(p, maxLength);
  return processYear(y.value, y.length);
}

export function skipDaySuffix(p: Ptr): void {
  if (p.cur() === ' ' || p.cur() === '\t' || p.cur() === '\n' || p.cur() === '\r' || p.cur() === '\v' || p.cur() === '\f') return;
  const two = (p.cur() + p.at(1)).toLowerCase();
  if (two === 'nd' || two === 'rd' || two === 'st' || two === 'th') p.i += 2;
}

const MONTHS: Record<string, number> = {
  jan: 1,
  feb: 2,
  mar: 3,
  apr: 4,
  may: 5,
  jun: 6,
  jul: 7,
  aug: 8,
  sep: 9,
  sept: 9,
  oct: 10,
  nov: 11,
  dec: 12,
  i: 1,
  ii: 2,
  iii: 3,
  iv: 4,
  v: 5,
  vi: 6,
  vii: 7,
  viii: 8,
  ix: 9,
  x: 10,
  xi: 11,
  xii: 12,
  january: 1,
  february: 2,
  march: 3,
  april: 4,
  june: 6,
  july: 7,
  august: 8,
  september: 9,
  october: 10,
  november: 11,
  december: 12,
};

export function getMonth(p: Ptr): number {
  while (p.cur() === ' ' || p.cur() === '\t' || p.cur() === '-' || p.cur() === '.' || p.cur() === '/') p.i++;
  const begin = p.i;
  while (isLetter(p.cur())) p.i++;
  return MONTHS[p.s.slice(begin, p.i).toLowerCase()] ?? 0;
}

export function meridianOffset(p: Ptr, h: number): number {
  while (p.cur() !== '\0' && !'AaPp'.includes(p.cur())) p.i++;
  let r = 0;
  if (p.cur() === 'a' || p.cur() === 'A') {
    if (h === 12) r = -12;
  } else if (h !== 12) r = 12;
  p.i++;
  if (p.cur() === '.') p.i++;
  if (p.cur() === 'M' || p.cur() === 'm') p.i++;
  if (p.cur() === '.') p.i++;
  return r;
}

export function eatSpaces(p: Ptr): void {
  while (p.cur() === ' ' || p.cur() === '\t') p.i++;
}
