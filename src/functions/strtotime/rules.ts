/**
 * The scanner's rules, one per token format of parse_date.re with its action (what the token sets
 * in the parsed time). Their order is timelib's: on matches of equal length the earlier rule wins.
 */
import { dayOfWeek } from './calendar.ts';
import {
  FIRST_DAY_OF_MONTH,
  haveDate,
  haveTime,
  haveTz,
  haveWeekdayRelative,
  LAST_DAY_OF_MONTH,
  type Parsed,
  SPECIAL_DAY_OF_WEEK_IN_MONTH,
  SPECIAL_LAST_DAY_OF_WEEK_IN_MONTH,
  SPECIAL_WEEKDAY,
  unhaveDate,
  unhaveTime,
} from './parsed.ts';
import { StrtotimeParseError } from '../../errors/StrtotimeParseError.ts';
import { alt, ci, ciAlt, patterns } from './patterns.ts';
import { getRelativeText, lookupRelunit, setRelative } from './relativeUnits.ts';
import { eatSpaces, getFracNr, getMonth, getNr, getSignedNr, getYear, meridianOffset, type Ptr, skipDaySuffix } from './tokenReaders.ts';
import { parseZone } from './zones.ts';

// ---------------------------------------------------------------------------------------------
// the scanner

/** Reads h:i[:s[.frac]] and an optional zone from a 24-hour time token. */
function time24(p: Ptr, t: Parsed, allowZone: boolean): void {
  t.h = getNr(p, 2);
  t.i = getNr(p, 2);
  if (p.cur() === ':' || p.cur() === '.') {
    t.s = getNr(p, 2);
    if (p.cur() === '.') t.us = getFracNr(p, 8);
  }
  if (allowZone && p.cur() !== '\0') parseZone(p, t);
}

type Action = (p: Ptr, t: Parsed) => void;

export interface Rule {
  name: string;
  sticky: RegExp;
  full: RegExp;
  action: Action;
}

const RULES: Rule[] = [];

/**
 * The rules, defined when strtotime first scans: their sources (patterns.ts) and the rules
 * themselves were ~0.4 ms of every start, and most runs never call strtotime (issue 28).
 */
export function rules(): readonly Rule[] {
  if (RULES.length === 0) defineRules();
  return RULES;
}

/**
 * Registers a rule; its expressions are built when first read: building the ~40 of them (V8
 * parses a pattern when it is constructed) was ~1 ms of every start, and most runs never call
 * strtotime (issue 28).
 */
function rule(name: string, source: string, action: Action): void {
  let sticky: RegExp | undefined;
  let full: RegExp | undefined;
  RULES.push({
    name,
    get sticky() {
      sticky ??= new RegExp(`(?:${source})`, 'y');
      return sticky;
    },
    get full() {
      full ??= new RegExp(`^(?:${source})$`);
      return full;
    },
    action,
  });
}

/** Registers the rules, in timelib's order (`rules`). */
function defineRules(): void {
  const f = patterns();
  rule('yesterday', ci('yesterday'), (_p, t) => {
    t.haveRelative = true;
    unhaveTime(t);
    t.relative.d = -1;
  });
  rule('now', ci('now'), () => {});
  rule('noon', ci('noon'), (_p, t) => {
    unhaveTime(t);
    haveTime(t);
    t.h = 12;
  });
  rule('midnight|today', ciAlt('midnight', 'today'), (_p, t) => unhaveTime(t));
  rule('tomorrow', ci('tomorrow'), (_p, t) => {
    t.haveRelative = true;
    unhaveTime(t);
    t.relative.d = 1;
  });
  rule('timestamp', f.timestamp, (p, t) => {
    t.haveRelative = true;
    unhaveDate(t);
    unhaveTime(t);
    if (!haveTz(t)) return;
    const digits = /^@(-?)0*(\d+)/.exec(p.s.slice(p.i))!;
    // A number past PHP's integer range makes strtotime() false (the reference's answer).
    if (BigInt(digits[2]!) > (digits[1] === '-' ? 2n ** 63n : 2n ** 63n - 1n)) throw new StrtotimeParseError('Number out of range');
    const v = getSignedNr(p, 24);
    t.y = 1970;
    t.m = 1;
    t.d = 1;
    t.h = t.i = t.s = t.us = 0;
    t.relative.s += v;
    t.zone = { kind: 'offset', seconds: 0 };
  });
  rule('firstdayof|lastdayof', alt(f.firstdayof, f.lastdayof), (p, t) => {
    t.haveRelative = true;
    t.relative.firstLastDayOf = p.cur() === 'l' || p.cur() === 'L' ? LAST_DAY_OF_MONTH : FIRST_DAY_OF_MONTH;
  });
  rule('backof|frontof', alt(f.backof, f.frontof), (p, t) => {
    unhaveTime(t);
    haveTime(t);
    if (p.cur() === 'b') {
      t.h = getNr(p, 2);
      t.i = 15;
    } else {
      t.h = (getNr(p, 2) ?? 0) - 1;
      t.i = 45;
    }
    if (p.cur() !== '\0') {
      eatSpaces(p);
      t.h = (t.h ?? 0) + meridianOffset(p, t.h ?? 0);
    }
  });
  rule('weekdayof', f.weekdayof, (p, t) => {
    t.haveRelative = true;
    t.relative.haveSpecialRelative = true;
    const { amount, behavior } = getRelativeText(p);
    eatSpaces(p);
    if (amount > 0) {
      t.relative.specialType = SPECIAL_DAY_OF_WEEK_IN_MONTH;
      setRelative(p, amount, 1, t, false);
    } else {
      t.relative.specialType = SPECIAL_LAST_DAY_OF_WEEK_IN_MONTH;
      setRelative(p, amount, behavior, t, false);
    }
  });
  rule('timetiny12|timeshort12|timelong12', alt(f.timetiny12, f.timeshort12, f.timelong12), (p, t) => {
    haveTime(t);
    t.h = getNr(p, 2);
    if (p.cur() === ':' || p.cur() === '.') {
      t.i = getNr(p, 2);
      if (p.cur() === ':' || p.cur() === '.') t.s = getNr(p, 2);
    }
    t.h = (t.h ?? 0) + meridianOffset(p, t.h ?? 0);
  });
  rule('mssqltime', f.mssqltime, (p, t) => {
    haveTime(t);
    t.h = getNr(p, 2);
    t.i = getNr(p, 2);
    if (p.cur() === ':' || p.cur() === '.') {
      t.s = getNr(p, 2);
      if (p.cur() === ':' || p.cur() === '.') t.us = getFracNr(p, 8);
    }
    eatSpaces(p);
    t.h = (t.h ?? 0) + meridianOffset(p, t.h ?? 0);
  });
  rule('timeshort24|timelong24|iso8601long', alt(f.timeshort24, f.timelong24, f.iso8601long), (p, t) => {
    haveTime(t);
    time24(p, t, true);
  });
  rule('gnunocolon', f.gnunocolon, (p, t) => {
    switch (t.haveTime) {
      case 0:
        t.h = getNr(p, 2);
        t.i = getNr(p, 2);
        t.s = 0;
        break;
      case 1:
        t.y = getNr(p, 4);
        break;
      default:
        throw new StrtotimeParseError('Double time specification');
    }
    t.haveTime++;
  });
  rule('iso8601nocolon', f.iso8601nocolon, (p, t) => {
    haveTime(t);
    t.h = getNr(p, 2);
    t.i = getNr(p, 2);
    t.s = getNr(p, 2);
    if (p.cur() !== '\0') parseZone(p, t);
  });
  rule('americanshort|american', alt(f.americanshort, f.american), (p, t) => {
    haveDate(t);
    t.m = getNr(p, 2);
    t.d = getNr(p, 2);
    if (p.cur() === '/') {
      t.y = getYear(p, 4);
    }
  });
  rule('iso8601date4|iso8601dateslash|dateslash', alt(f.iso8601date4, f.iso8601dateslash, f.dateslash), (p, t) => {
    haveDate(t);
    t.y = getSignedNr(p, 4);
    t.m = getNr(p, 2);
    t.d = getNr(p, 2);
  });
  rule('iso8601date2', f.iso8601date2, (p, t) => {
    haveDate(t);
    t.y = getYear(p, 4);
    t.m = getNr(p, 2);
    t.d = getNr(p, 2);
  });
  rule('iso8601datex', f.iso8601datex, (p, t) => {
    haveDate(t);
    t.y = getSignedNr(p, 19);
    t.m = getNr(p, 2);
    t.d = getNr(p, 2);
  });
  rule('gnudateshorter', f.gnudateshorter, (p, t) => {
    haveDate(t);
    t.y = getYear(p, 4);
    t.m = getNr(p, 2);
    t.d = 1;
  });
  rule('gnudateshort', f.gnudateshort, (p, t) => {
    haveDate(t);
    t.y = getYear(p, 4);
    t.m = getNr(p, 2);
    t.d = getNr(p, 2);
  });
  rule('datefull', f.datefull, (p, t) => {
    haveDate(t);
    t.d = getNr(p, 2);
    skipDaySuffix(p);
    t.m = getMonth(p);
    t.y = getYear(p, 4);
  });
  rule('pointed', f.pointed, (p, t) => {
    haveDate(t);
    t.d = getNr(p, 2);
    t.m = getNr(p, 2);
    t.y = getYear(p, 4);
  });
  rule('pointed2', f.pointed2, (p, t) => {
    haveDate(t);
    t.d = getNr(p, 2);
    t.m = getNr(p, 2);
    t.y = getYear(p, 2);
  });
  rule('datenoday', f.datenoday, (p, t) => {
    haveDate(t);
    t.m = getMonth(p);
    const y = getYear(p, 4);
    t.d = 1;
    t.y = y;
  });
  rule('datenodayrev', f.datenodayrev, (p, t) => {
    haveDate(t);
    const y = getYear(p, 4);
    t.m = getMonth(p);
    t.d = 1;
    t.y = y;
  });
  rule('datetextual|datenoyear', alt(f.datetextual, f.datenoyear), (p, t) => {
    haveDate(t);
    t.m = getMonth(p);
    t.d = getNr(p, 2);
    t.y = getYear(p, 4);
  });
  rule('datenoyearrev', f.datenoyearrev, (p, t) => {
    haveDate(t);
    t.d = getNr(p, 2);
    skipDaySuffix(p);
    t.m = getMonth(p);
  });
  rule('datenocolon', f.datenocolon, (p, t) => {
    haveDate(t);
    t.y = getNr(p, 4);
    t.m = getNr(p, 2);
    t.d = getNr(p, 2);
  });
  rule('xmlrpc|xmlrpcnocolon|soap|wddx|exif', alt(f.xmlrpc, f.xmlrpcnocolon, f.soap, f.wddx, f.exif), (p, t) => {
    haveTime(t);
    haveDate(t);
    t.y = getNr(p, 4);
    t.m = getNr(p, 2);
    t.d = getNr(p, 2);
    t.h = getNr(p, 2);
    t.i = getNr(p, 2);
    t.s = getNr(p, 2);
    if (p.cur() === '.') {
      t.us = getFracNr(p, 8);
      if (p.cur() !== '\0') parseZone(p, t);
    }
  });
  rule('pgydotd', f.pgydotd, (p, t) => {
    haveDate(t);
    const y = getYear(p, 4);
    t.d = getNr(p, 3);
    t.m = 1;
    t.y = y;
  });
  rule('isoweekday', f.isoweekday, (p, t) => {
    haveDate(t);
    t.haveRelative = true;
    const y = getNr(p, 4) ?? 0;
    const w = getNr(p, 2) ?? 0;
    const d = getNr(p, 1) ?? 0;
    t.y = y;
    t.m = 1;
    t.d = 1;
    t.relative.d = dayNrFromWeekNr(y, w, d);
  });
  rule('isoweek', f.isoweek, (p, t) => {
    haveDate(t);
    t.haveRelative = true;
    const y = getNr(p, 4) ?? 0;
    const w = getNr(p, 2) ?? 0;
    t.y = y;
    t.m = 1;
    t.d = 1;
    t.relative.d = dayNrFromWeekNr(y, w, 1);
  });
  rule('pgtextshort', f.pgtextshort, (p, t) => {
    haveDate(t);
    t.m = getMonth(p);
    t.d = getNr(p, 2);
    t.y = getYear(p, 4);
  });
  rule('pgtextreverse', f.pgtextreverse, (p, t) => {
    haveDate(t);
    const y = getYear(p, 4);
    t.m = getMonth(p);
    t.d = getNr(p, 2);
    t.y = y;
  });
  rule('clf', f.clf, (p, t) => {
    haveTime(t);
    haveDate(t);
    t.d = getNr(p, 2);
    t.m = getMonth(p);
    t.y = getNr(p, 4);
    t.h = getNr(p, 2);
    t.i = getNr(p, 2);
    t.s = getNr(p, 2);
    parseZone(p, t);
  });
  rule('year4', f.year4, (p, t) => {
    t.y = getNr(p, 4);
  });
  rule('ago', ci('ago'), (_p, t) => {
    const r = t.relative;
    r.y = -r.y;
    r.m = -r.m;
    r.d = -r.d;
    r.h = -r.h;
    r.i = -r.i;
    r.s = -r.s;
    r.us = -r.us;
    r.weekday = -r.weekday;
    if (r.weekday === 0) r.weekday = -7;
    if (r.haveSpecialRelative && r.specialType === SPECIAL_WEEKDAY) r.specialAmount = -r.specialAmount;
  });
  rule('daytext', f.daytext, (p, t) => {
    t.haveRelative = true;
    haveWeekdayRelative(t);
    unhaveTime(t);
    // timelib stores the unit's multiplier: a day number, or 1 for "weekday(s)" (so → Monday)
    const unit = lookupRelunit(p);
    if (unit) t.relative.weekday = unit[1];
    if (t.relative.weekdayBehavior !== 2) t.relative.weekdayBehavior = 1;
  });
  rule('relativetextweek', f.relativetextweek, (p, t) => {
    t.haveRelative = true;
    while (p.cur() !== '\0') {
      const { amount, behavior } = getRelativeText(p);
      eatSpaces(p);
      setRelative(p, amount, behavior, t, false);
      t.relative.weekdayBehavior = 2;
      if (!t.relative.haveWeekdayRelative) {
        haveWeekdayRelative(t);
        t.relative.weekday = 1;
      }
    }
  });
  rule('relativetext', f.relativetext, (p, t) => {
    t.haveRelative = true;
    while (p.cur() !== '\0') {
      const { amount, behavior } = getRelativeText(p);
      eatSpaces(p);
      setRelative(p, amount, behavior, t, false);
    }
  });
  rule('monthfull|monthabbr', alt(f.monthfull, f.monthabbr), (p, t) => {
    haveDate(t);
    t.m = getMonth(p);
  });
  rule('tzcorrection|tz', alt(f.tzcorrection, f.tz), (p, t) => {
    if (!haveTz(t)) return;
    parseZone(p, t);
  });
  rule('dateshortwithtimeshort12|dateshortwithtimelong12', alt(f.datenoyear + f.timeshort12, f.datenoyear + f.timelong12), (p, t) => {
    haveDate(t);
    t.m = getMonth(p);
    t.d = getNr(p, 2);
    haveTime(t);
    t.h = getNr(p, 2);
    t.i = getNr(p, 2);
    if (p.cur() === ':' || p.cur() === '.') t.s = getNr(p, 2);
    t.h = (t.h ?? 0) + meridianOffset(p, t.h ?? 0);
  });
  rule(
    'dateshortwithtimeshort|dateshortwithtimelong|dateshortwithtimelongtz',
    alt(f.datenoyear + f.timeshort24, f.datenoyear + f.timelong24, f.datenoyear + f.iso8601normtz),
    (p, t) => {
      haveDate(t);
      t.m = getMonth(p);
      t.d = getNr(p, 2);
      haveTime(t);
      t.h = getNr(p, 2);
      t.i = getNr(p, 2);
      if (p.cur() === ':') {
        t.s = getNr(p, 2);
        if (p.cur() === '.') t.us = getFracNr(p, 8);
      }
      if (p.cur() !== '\0') parseZone(p, t);
    },
  );
  rule('relative', f.relative, (p, t) => {
    t.haveRelative = true;
    while (p.cur() !== '\0') {
      const amount = getSignedNr(p, 24);
      eatSpaces(p);
      setRelative(p, amount, 1, t, true);
    }
  });
  rule('separator', '[ .,\\t]', () => {});
  rule('newline', '[\\0\\n]', () => {});
}

function dayNrFromWeekNr(iy: number, iw: number, id: number): number {
  const dow = dayOfWeek(iy, 1, 1);
  const day = 0 - (dow > 4 ? dow - 7 : dow);
  return day + (iw - 1) * 7 + id;
}
