/**
 * What the scanner builds: the parsed time (absolute fields, relative part, zone), and the setters that guard the "have" flags (a second date,
 * time or zone in one string is an error, as in timelib: src/errors/StrtotimeParseError.ts, which
 * makes `strtotime` return `false`).
 */
import { StrtotimeParseError } from '../../errors/StrtotimeParseError.ts';

// ---------------------------------------------------------------------------------------------
// the parsed time

export const SPECIAL_WEEKDAY = 1;
export const SPECIAL_DAY_OF_WEEK_IN_MONTH = 2;
export const SPECIAL_LAST_DAY_OF_WEEK_IN_MONTH = 3;
export const FIRST_DAY_OF_MONTH = 1;
export const LAST_DAY_OF_MONTH = 2;

export interface Relative {
  y: number;
  m: number;
  d: number;
  h: number;
  i: number;
  s: number;
  us: number;
  weekday: number;
  weekdayBehavior: number;
  haveWeekdayRelative: boolean;
  haveSpecialRelative: boolean;
  specialType: number;
  specialAmount: number;
  firstLastDayOf: number;
}

type Zone = { kind: 'offset'; seconds: number } | { kind: 'id'; id: string };

export interface Parsed {
  y: number | null;
  m: number | null;
  d: number | null;
  h: number | null;
  i: number | null;
  s: number | null;
  us: number | null;
  haveTime: number;
  haveDate: boolean;
  haveZone: number;
  haveRelative: boolean;
  relative: Relative;
  zone: Zone | undefined;
}

export function haveTime(t: Parsed): void {
  if (t.haveTime) throw new StrtotimeParseError('Double time specification');
  t.haveTime = 1;
  t.h = t.i = t.s = t.us = 0;
}
export function unhaveTime(t: Parsed): void {
  t.haveTime = 0;
  t.h = t.i = t.s = t.us = 0;
}
export function haveDate(t: Parsed): void {
  if (t.haveDate) throw new StrtotimeParseError('Double date specification');
  t.haveDate = true;
}
export function unhaveDate(t: Parsed): void {
  t.haveDate = false;
  t.d = t.m = t.y = 0;
}
/** False when the token must be skipped (a second time zone: PHP only warns). */
export function haveTz(t: Parsed): boolean {
  if (t.haveZone) {
    if (t.haveZone > 1) throw new StrtotimeParseError('Double timezone specification');
    t.haveZone++;
    return false;
  }
  t.haveZone++;
  return true;
}
export function haveWeekdayRelative(t: Parsed): void {
  t.haveRelative = true;
  t.relative.haveWeekdayRelative = true;
}
