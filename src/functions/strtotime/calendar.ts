/**
 * Proleptic Gregorian calendar arithmetic in UTC (no range limits of `Date`).
 *
 * Shared by strtotime (this folder) and date() (../date.ts). It lives here, not in functions/, so
 * that imports between the two folders go one way only (functions/ → functions/strtotime/).
 */

export function floorDiv(a: number, b: number): number {
  return Math.floor(a / b);
}

export function isLeap(y: number): boolean {
  return (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
}

const DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

export function daysInMonth(y: number, m: number): number {
  return m === 2 && isLeap(y) ? 29 : DAYS[m - 1]!;
}

/** Days since 1970-01-01 of y-m-d (m 1–12, d 1–31). */
export function daysFromCivil(y: number, m: number, d: number): number {
  const yy = m <= 2 ? y - 1 : y;
  const era = floorDiv(yy, 400);
  const yoe = yy - era * 400;
  const mp = (m + 9) % 12;
  const doy = Math.floor((153 * mp + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

export function civilFromDays(z: number): { y: number; m: number; d: number } {
  z += 719468;
  const era = floorDiv(z, 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const m = mp < 10 ? mp + 3 : mp - 9;
  return { y: era * 400 + yoe + (m <= 2 ? 1 : 0), m, d };
}

/** 0 = Sunday … 6 = Saturday. */
export function dayOfWeek(y: number, m: number, d: number): number {
  return (((daysFromCivil(y, m, d) + 4) % 7) + 7) % 7;
}

/** Day of the year, 0-based. */
export function dayOfYear(y: number, m: number, d: number): number {
  return daysFromCivil(y, m, d) - daysFromCivil(y, 1, 1);
}

/** ISO-8601 week number and week-numbering year. */
export function isoWeek(y: number, m: number, d: number): { week: number; year: number } {
  const days = daysFromCivil(y, m, d);
  const wd = (((days + 3) % 7) + 7) % 7; // 0 = Monday
  const thursday = civilFromDays(days - wd + 3);
  const week = Math.floor((days - wd + 3 - daysFromCivil(thursday.y, 1, 1)) / 7) + 1;
  return { week, year: thursday.y };
}

/** Broken-down UTC time of a Unix timestamp. */
export interface CivilTime {
  y: number;
  m: number;
  d: number;
  h: number;
  i: number;
  s: number;
  /** Days since the epoch. */
  days: number;
  /** Seconds since the epoch (exact). */
  ts: bigint;
}

export function civilFromTimestamp(ts: bigint): CivilTime {
  let days = ts / 86400n;
  let rem = ts % 86400n;
  if (rem < 0n) {
    rem += 86400n;
    days -= 1n;
  }
  const r = Number(rem);
  const dn = Number(days);
  const { y, m, d } = civilFromDays(dn);
  return { y, m, d, h: Math.floor(r / 3600), i: Math.floor((r % 3600) / 60), s: r % 60, days: dn, ts };
}
