/**
 * Resolution: the parsed time applied to the base time (timelib's fill_holes and update_ts) —
 * missing fields from the base, relative units, weekday moves, `first/last day of`, overflowing
 * fields normalised — and the result turned into Unix seconds through the parsed zone.
 */
import { civilFromDays, civilFromTimestamp, dayOfWeek, daysFromCivil } from './calendar.ts';
import {
  FIRST_DAY_OF_MONTH,
  LAST_DAY_OF_MONTH,
  type Parsed,
  type Relative,
  SPECIAL_DAY_OF_WEEK_IN_MONTH,
  SPECIAL_LAST_DAY_OF_WEEK_IN_MONTH,
  SPECIAL_WEEKDAY,
} from './parsed.ts';
import { zoneOffsetAt } from './zones.ts';

// ---------------------------------------------------------------------------------------------
// resolving (timelib_fill_holes + timelib_update_ts)

interface Fields {
  y: number;
  m: number;
  d: number;
  h: number;
  i: number;
  s: number;
  us: number;
}

function rangeLimit(start: number, end: number, adj: number, a: number, b: number): [number, number] {
  if (a < start) {
    b -= Math.floor((start - a - 1) / adj) + 1;
    a += adj * (Math.floor((start - a - 1) / adj) + 1);
  }
  if (a >= end) {
    b += Math.floor(a / adj);
    a -= adj * Math.floor(a / adj);
  }
  return [a, b];
}

function normalize(f: Fields): void {
  [f.us, f.s] = rangeLimit(0, 1000000, 1000000, f.us, f.s);
  [f.s, f.i] = rangeLimit(0, 60, 60, f.s, f.i);
  [f.i, f.h] = rangeLimit(0, 60, 60, f.i, f.h);
  [f.h, f.d] = rangeLimit(0, 24, 24, f.h, f.d);
  [f.m, f.y] = rangeLimit(1, 13, 12, f.m, f.y);
  const days = daysFromCivil(f.y, f.m, 1) + f.d - 1;
  const c = civilFromDays(days);
  f.y = c.y;
  f.m = c.m;
  f.d = c.d;
}

function adjustForWeekday(f: Fields, r: Relative): void {
  const currentDow = dayOfWeek(...normalizedDate(f));
  if (r.weekdayBehavior === 2) {
    if (currentDow === 0 && r.weekday !== 0) r.weekday -= 7;
    if (r.weekday === 0 && currentDow !== 0) r.weekday = 7;
    f.d -= currentDow;
    f.d += r.weekday;
    return;
  }
  let difference = r.weekday - currentDow;
  if ((r.d < 0 && difference < 0) || (r.d >= 0 && difference <= -r.weekdayBehavior)) difference += 7;
  if (r.weekday >= 0) f.d += difference;
  else f.d -= 7 - (Math.abs(r.weekday) - currentDow);
  r.haveWeekdayRelative = false;
}

function normalizedDate(f: Fields): [number, number, number] {
  const g = { ...f };
  normalize(g);
  return [g.y, g.m, g.d];
}

function adjustSpecialWeekday(f: Fields, amount: number): void {
  let [y, m, d] = normalizedDate(f);
  let days = daysFromCivil(y, m, d);
  const dow = (days: number): number => (((days + 4) % 7) + 7) % 7;
  if (amount === 0) {
    if (dow(days) === 6) days += 2;
    else if (dow(days) === 0) days += 1;
  } else {
    const step = amount > 0 ? 1 : -1;
    let left = Math.abs(amount);
    while (left > 0) {
      days += step;
      const w = dow(days);
      if (w !== 0 && w !== 6) left--;
    }
  }
  ({ y, m, d } = civilFromDays(days));
  f.y = y;
  f.m = m;
  f.d = d;
}

function applyFirstLastDayOf(f: Fields, r: Relative): void {
  if (r.firstLastDayOf === FIRST_DAY_OF_MONTH) f.d = 1;
  else if (r.firstLastDayOf === LAST_DAY_OF_MONTH) {
    f.d = 0;
    f.m++;
  }
}

export function resolve(t: Parsed, base: bigint): bigint {
  const now = civilFromTimestamp(base);
  if (t.haveDate && !t.haveTime) {
    t.h = t.i = t.s = t.us = 0;
  }
  const f: Fields = {
    y: t.y ?? now.y,
    m: t.m ?? now.m,
    d: t.d ?? now.d,
    h: t.h ?? now.h,
    i: t.i ?? now.i,
    s: t.s ?? now.s,
    us: t.us ?? 0,
  };
  const r = t.relative;
  // do_adjust_special_early
  if (r.haveSpecialRelative) {
    if (r.specialType === SPECIAL_DAY_OF_WEEK_IN_MONTH) {
      f.d = 1;
      f.m += r.m;
      r.m = 0;
    } else if (r.specialType === SPECIAL_LAST_DAY_OF_WEEK_IN_MONTH) {
      f.d = 1;
      f.m += r.m + 1;
      r.m = 0;
    }
  }
  // "first/last day of" is applied before normalising (so "last day of february" on Jan 31
  // stays in February) and again after the relative units
  applyFirstLastDayOf(f, r);
  normalize(f);
  // do_adjust_relative
  if (r.haveWeekdayRelative) adjustForWeekday(f, r);
  normalize(f);
  if (t.haveRelative) {
    f.us += r.us;
    f.s += r.s;
    f.i += r.i;
    f.h += r.h;
    f.d += r.d;
    f.m += r.m;
    f.y += r.y;
  }
  applyFirstLastDayOf(f, r);
  normalize(f);
  // do_adjust_special
  if (r.haveSpecialRelative && r.specialType === SPECIAL_WEEKDAY) adjustSpecialWeekday(f, r.specialAmount);
  normalize(f);
  let sse = BigInt(daysFromCivil(f.y, f.m, f.d)) * 86400n + BigInt(f.h * 3600 + f.i * 60 + f.s);
  const zone = t.zone;
  if (zone?.kind === 'offset') sse -= BigInt(zone.seconds);
  else if (zone?.kind === 'id') {
    const local = Number(sse);
    const off1 = zoneOffsetAt(zone.id, local);
    const off2 = zoneOffsetAt(zone.id, local - off1);
    sse -= BigInt(off2);
  }
  return sse;
}
