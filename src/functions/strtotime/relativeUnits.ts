/**
 * Relative expressions: the relative words ("next", "third", "this"…), the relative units
 * ("sec", "fortnight", "monday", "weekday"…) and `setRelative`, which adds an amount of a unit to
 * the relative part of the parsed time (timelib's timelib_set_relative).
 */
import { haveWeekdayRelative, type Parsed, SPECIAL_WEEKDAY, unhaveTime } from './parsed.ts';
import { isLetter, type Ptr } from './tokenReaders.ts';

const RELTEXT: Record<string, [number, number]> = {
  first: [1, 0],
  next: [1, 0],
  second: [2, 0],
  third: [3, 0],
  fourth: [4, 0],
  fifth: [5, 0],
  sixth: [6, 0],
  seventh: [7, 0],
  eight: [8, 0],
  eighth: [8, 0],
  ninth: [9, 0],
  tenth: [10, 0],
  eleventh: [11, 0],
  twelfth: [12, 0],
  last: [-1, 0],
  previous: [-1, 0],
  this: [0, 1],
};

export function getRelativeText(p: Ptr): { amount: number; behavior: number } {
  while (p.cur() === ' ' || p.cur() === '\t' || p.cur() === '-' || p.cur() === '/') p.i++;
  const begin = p.i;
  while (isLetter(p.cur())) p.i++;
  const hit = RELTEXT[p.s.slice(begin, p.i).toLowerCase()];
  return hit ? { amount: hit[0], behavior: hit[1] } : { amount: 0, behavior: 0 };
}

type Unit = 'us' | 's' | 'i' | 'h' | 'd' | 'm' | 'y' | 'weekday' | 'special';
/** Unit name → unit and multiplier, built on first use: most runs never call strtotime (issue 28). */
let relunits: Record<string, [Unit, number]> | undefined;

function buildRelunits(): Record<string, [Unit, number]> {
  const table: Record<string, [Unit, number]> = {};
  for (const [names, unit, mult] of [
    ['ms msec msecs millisecond milliseconds', 'us', 1000],
    ['µs usec usecs µsec µsecs microsecond microseconds', 'us', 1],
    ['sec secs second seconds', 's', 1],
    ['min mins minute minutes', 'i', 1],
    ['hour hours', 'h', 1],
    ['day days', 'd', 1],
    ['week weeks', 'd', 7],
    ['fortnight fortnights forthnight forthnights', 'd', 14],
    ['month months', 'm', 1],
    ['year years', 'y', 1],
    ['mondays monday mon', 'weekday', 1],
    ['tuesdays tuesday tue', 'weekday', 2],
    ['wednesdays wednesday wed', 'weekday', 3],
    ['thursdays thursday thu', 'weekday', 4],
    ['fridays friday fri', 'weekday', 5],
    ['saturdays saturday sat', 'weekday', 6],
    ['sundays sunday sun', 'weekday', 0],
    ['weekday weekdays', 'special', SPECIAL_WEEKDAY],
  ] as const) {
    for (const n of names.split(' ')) table[n] = [unit, mult];
  }
  return table;
}

export function lookupRelunit(p: Ptr): [Unit, number] | undefined {
  const begin = p.i;
  while (!'\0 ,\t;:/.-()'.includes(p.cur())) p.i++;
  relunits ??= buildRelunits();
  return relunits[p.s.slice(begin, p.i).toLowerCase()];
}

export function setRelative(p: Ptr, amount: number, behavior: number, t: Parsed, keepTime: boolean): void {
  const unit = lookupRelunit(p);
  if (!unit) return;
  const [u, mult] = unit;
  const r = t.relative;
  switch (u) {
    case 'us':
    case 's':
    case 'i':
    case 'h':
    case 'd':
    case 'm':
    case 'y':
      r[u] += amount * mult;
      break;
    case 'weekday':
      haveWeekdayRelative(t);
      if (!keepTime) unhaveTime(t);
      r.d += (amount > 0 ? amount - 1 : amount) * 7;
      r.weekday = mult;
      r.weekdayBehavior = behavior;
      break;
    case 'special':
      t.haveRelative = true;
      r.haveSpecialRelative = true;
      if (!keepTime) unhaveTime(t);
      r.specialType = mult;
      r.specialAmount = amount;
      break;
  }
}
