/**
 * PHP 7.4 `strtotime()` in UTC (spec 02 §11.7): a port of timelib's scanner (parse_date.re) —
 * the same token formats, longest match with rule order breaking ties — and of its
 * `fill_holes` / `update_ts` steps (relative units, weekday moves, `first/last day of`,
 * normalisation of overflowing fields).
 */
import { civilFromDays, civilFromTimestamp, dayOfWeek, daysFromCivil } from './calendar.ts';

// ---------------------------------------------------------------------------------------------
// regular building blocks (re2c: 'x' is case-insensitive, "x" case-sensitive)

function ci(word: string): string {
  let out = '';
  for (const ch of word) {
    const lo = ch.toLowerCase();
    const up = ch.toUpperCase();
    out += lo !== up ? `[${lo}${up}]` : ch === ' ' ? ' ' : ch.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  }
  return out;
}
const alt = (...xs: string[]): string => `(?:${xs.join('|')})`;
const ciAlt = (...words: string[]): string => alt(...words.map(ci));

const space = '[ \\t]+';
const frac = '\\.[0-9]+';
const hour24 = '(?:[01]?[0-9]|2[0-4])';
const hour24lz = '(?:[01][0-9]|2[0-4])';
const hour12 = '(?:0?[1-9]|1[0-2])';
const minute = '(?:[0-5]?[0-9])';
const minutelz = '(?:[0-5][0-9])';
const second = '(?:[0-5]?[0-9]|60)';
const secondlz = '(?:[0-5][0-9]|60)';
const meridian = '(?:[AaPp]\\.?[Mm]\\.?)[\\0\\t ]';
const tz = '(?:\\(?[A-Za-z]{1,6}\\)?|[A-Z][a-z]+(?:[_/-][A-Za-z]+)+)';
const tzcorrection = `(?:GMT)?[+-]${hour24}:?${minute}?`;
const daysuf = '(?:st|nd|rd|th)';
const month = '(?:0?[0-9]|1[0-2])';
const day = `(?:(?:[0-2]?[0-9]|3[01])${daysuf}?)`;
const year = '[0-9]{1,4}';
const year2 = '[0-9]{2}';
const year4 = '[0-9]{4}';
const year4withsign = '[+-]?[0-9]{4}';
const yearx = '[+-][0-9]{5,19}';
const dayofyear = '(?:00[1-9]|0[1-9][0-9]|[1-2][0-9][0-9]|3[0-5][0-9]|36[0-6])';
const weekofyear = '(?:0[1-9]|[1-4][0-9]|5[0-3])';
const monthlz = '(?:0[0-9]|1[0-2])';
const daylz = '(?:0[0-9]|[1-2][0-9]|3[01])';

const dayfulls = ciAlt('sundays', 'mondays', 'tuesdays', 'wednesdays', 'thursdays', 'fridays', 'saturdays');
const dayfull = ciAlt('sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday');
const dayabbr = ciAlt('sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat');
const dayspecial = ciAlt('weekday', 'weekdays');
const daytext = alt(dayfulls, dayfull, dayabbr, dayspecial);

const monthfull = ciAlt('january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december');
const monthabbr = ciAlt('jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'sept', 'oct', 'nov', 'dec');
const monthroman = alt('I', 'II', 'III', 'IV', 'V', 'VI', 'VII', 'VIII', 'IX', 'X', 'XI', 'XII');
const monthtext = alt(monthfull, monthabbr, monthroman);

const timetiny12 = `${hour12}(?:${space})?${meridian}`;
const timeshort12 = `${hour12}[:.]${minute}(?:${space})?${meridian}`;
const timelong12 = `${hour12}[:.]${minute}[:.]${second}(?:${space})?${meridian}`;
const timeshort24 = `[tT]?${hour24}[:.]${minute}`;
const timelong24 = `[tT]?${hour24}[:.]${minute}[:.]${second}`;
const iso8601long = `[tT]?${hour24}[:.]${minute}[:.]${second}${frac}`;
const iso8601normtz = `[tT]?${hour24}[:.]${minute}[:.]${secondlz}(?:${space})?(?:${tzcorrection}|${tz})`;
const gnunocolon = `[tT]?${hour24lz}${minutelz}`;
const iso8601nocolon = `[tT]?${hour24lz}${minutelz}${secondlz}`;

const americanshort = `${month}/${day}`;
const american = `${month}/${day}/${year}`;
const iso8601dateslash = `${year4}/${monthlz}/${daylz}/?`;
const dateslash = `${year4}/${month}/${day}`;
const iso8601date4 = `${year4withsign}-${monthlz}-${daylz}`;
const iso8601date2 = `${year2}-${monthlz}-${daylz}`;
const iso8601datex = `${yearx}-${monthlz}-${daylz}`;
const gnudateshorter = `${year4}-${month}`;
const gnudateshort = `${year}-${month}-${day}`;
const pointed = `${day}[.\\t-]${month}[.-]${year4}`;
const pointed2 = `${day}[.\\t]${month}\\.${year2}`;
const datefull = `${day}[ \\t.-]*${monthtext}[ \\t.-]*${year}`;
const datenoday = `${monthtext}[ .\\t-]*${year4}`;
const datenodayrev = `${year4}[ .\\t-]*${monthtext}`;
const datetextual = `${monthtext}[ .\\t-]*${day}[,.stndrh\\t ]*${year}`;
const datenoyear = `${monthtext}[ .\\t-]*${day}[,.stndrh\\t ]*`;
const datenoyearrev = `${day}[ .\\t-]*${monthtext}`;
const datenocolon = `${year4}${monthlz}${daylz}`;

const soap = `${year4}-${monthlz}-${daylz}T${hour24lz}:${minutelz}:${secondlz}${frac}(?:${tzcorrection})?`;
const xmlrpc = `${year4}${monthlz}${daylz}T${hour24}${minutelz}${secondlz}`;
const xmlrpcnocolon = `${year4}${monthlz}${daylz}[tT]${hour24}${minutelz}${secondlz}`;
const wddx = `${year4}-${month}-${day}T${hour24}:${minute}:${second}`;
const pgydotd = `${year4}\\.?${dayofyear}`;
const pgtextshort = `${monthabbr}-${daylz}-${year}`;
const pgtextreverse = `${year}-${monthabbr}-${daylz}`;
const mssqltime = `${hour12}:${minutelz}:${secondlz}[:.][0-9]+${meridian}`;
const isoweekday = `${year4}-?W${weekofyear}-?[0-7]`;
const isoweek = `${year4}-?W${weekofyear}`;
const exif = `${year4}:${monthlz}:${daylz} ${hour24lz}:${minutelz}:${secondlz}`;
const firstdayof = ci('first day of');
const lastdayof = ci('last day of');
const backof = `${ci('back of ')}${hour24}(?:(?:${space})?${meridian})?`;
const frontof = `${ci('front of ')}${hour24}(?:(?:${space})?${meridian})?`;
const clf = `${day}/${monthabbr}/${year4}:${hour24lz}:${minutelz}:${secondlz}${space}${tzcorrection}`;
const timestamp = '@-?[0-9]+';

const reltextnumber = ciAlt('first', 'second', 'third', 'fourth', 'fifth', 'sixth', 'seventh', 'eight', 'eighth', 'ninth', 'tenth', 'eleventh', 'twelfth');
const reltexttext = ciAlt('next', 'last', 'previous', 'this');
const reltextunit = alt(
  ci('ms'),
  ci('µs'),
  `${ciAlt('msec', 'millisecond', 'µsec', 'microsecond', 'usec', 'sec', 'second', 'min', 'minute', 'hour', 'day', 'fortnight', 'forthnight', 'month', 'year')}[sS]?`,
  ci('weeks'),
  daytext,
);
const relnumber = '(?:[+-]*[ \\t]*[0-9]{1,13})';
const relative = `${relnumber}(?:${space})?(?:${reltextunit}|${ci('week')})`;
const relativetext = `(?:${reltextnumber}|${reltexttext})${space}${reltextunit}`;
const relativetextweek = `${reltexttext}${space}${ci('week')}`;
const weekdayof = `(?:${reltextnumber}|${reltexttext})${space}(?:${dayfulls}|${dayfull}|${dayabbr})${space}${ci('of')}`;

// ---------------------------------------------------------------------------------------------
// the parsed time

const SPECIAL_WEEKDAY = 1;
const SPECIAL_DAY_OF_WEEK_IN_MONTH = 2;
const SPECIAL_LAST_DAY_OF_WEEK_IN_MONTH = 3;
const FIRST_DAY_OF_MONTH = 1;
const LAST_DAY_OF_MONTH = 2;

interface Relative {
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

interface Parsed {
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

class ParseError extends Error {}

/** A cursor over the matched token (timelib copies the token and walks it with helpers). */
class Ptr {
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

const isDigitCh = (c: string): boolean => c >= '0' && c <= '9';
const isLetter = (c: string): boolean => (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');

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

const getNr = (p: Ptr, maxLength: number): number | null => getNrEx(p, maxLength).value;

function getSignedNr(p: Ptr, maxLength: number): number {
  let dir = 1;
  while (!isDigitCh(p.cur()) && p.cur() !== '+' && p.cur() !== '-') {
    if (p.cur() === '\0') throw new ParseError('Found unexpected data');
    p.i++;
  }
  while (p.cur() === '+' || p.cur() === '-') {
    if (p.cur() === '-') dir = -dir;
    p.i++;
  }
  return dir * (getNr(p, maxLength) ?? 0);
}

function getFracNr(p: Ptr, maxLength: number): number | null {
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
function getYear(p: Ptr, maxLength: number): number | null {
  const y = getNrEx(p, maxLength);
  return processYear(y.value, y.length);
}

function skipDaySuffix(p: Ptr): void {
  if (p.cur() === ' ' || p.cur() === '\t' || p.cur() === '\n' || p.cur() === '\r' || p.cur() === '\v' || p.cur() === '\f') return;
  const two = (p.cur() + p.at(1)).toLowerCase();
  if (two === 'nd' || two === 'rd' || two === 'st' || two === 'th') p.i += 2;
}

const MONTHS: Record<string, number> = {
  jan: 1, feb: 2, mar: 3, apr: 4, may: 5, jun: 6, jul: 7, aug: 8, sep: 9, sept: 9, oct: 10, nov: 11, dec: 12,
  i: 1, ii: 2, iii: 3, iv: 4, v: 5, vi: 6, vii: 7, viii: 8, ix: 9, x: 10, xi: 11, xii: 12,
  january: 1, february: 2, march: 3, april: 4, june: 6, july: 7, august: 8, september: 9, october: 10, november: 11, december: 12,
};

function getMonth(p: Ptr): number {
  while (p.cur() === ' ' || p.cur() === '\t' || p.cur() === '-' || p.cur() === '.' || p.cur() === '/') p.i++;
  const begin = p.i;
  while (isLetter(p.cur())) p.i++;
  return MONTHS[p.s.slice(begin, p.i).toLowerCase()] ?? 0;
}

function meridianOffset(p: Ptr, h: number): number {
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

const RELTEXT: Record<string, [number, number]> = {
  first: [1, 0], next: [1, 0], second: [2, 0], third: [3, 0], fourth: [4, 0], fifth: [5, 0], sixth: [6, 0], seventh: [7, 0], eight: [8, 0], eighth: [8, 0],
  ninth: [9, 0], tenth: [10, 0], eleventh: [11, 0], twelfth: [12, 0], last: [-1, 0], previous: [-1, 0], this: [0, 1],
};

function getRelativeText(p: Ptr): { amount: number; behavior: number } {
  while (p.cur() === ' ' || p.cur() === '\t' || p.cur() === '-' || p.cur() === '/') p.i++;
  const begin = p.i;
  while (isLetter(p.cur())) p.i++;
  const hit = RELTEXT[p.s.slice(begin, p.i).toLowerCase()];
  return hit ? { amount: hit[0], behavior: hit[1] } : { amount: 0, behavior: 0 };
}

type Unit = 'us' | 's' | 'i' | 'h' | 'd' | 'm' | 'y' | 'weekday' | 'special';
const RELUNITS: Record<string, [Unit, number]> = {};
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
  for (const n of names.split(' ')) RELUNITS[n] = [unit, mult];
}

function lookupRelunit(p: Ptr): [Unit, number] | undefined {
  const begin = p.i;
  while (!'\0 ,\t;:/.-()'.includes(p.cur())) p.i++;
  return RELUNITS[p.s.slice(begin, p.i).toLowerCase()];
}

function eatSpaces(p: Ptr): void {
  while (p.cur() === ' ' || p.cur() === '\t') p.i++;
}

// ---------------------------------------------------------------------------------------------
// time zones

/** Abbreviation → UTC offset in seconds (timelib's table: first entry of each abbreviation). */
const ABBREVIATIONS = new Map<string, number>(
  (
    'acdt:37800 acst:34200 addt:-7200 adt:-10800 aedt:39600 aest:36000 ahdt:-32400 ahst:-36000 akdt:-28800 akst:-32400 amt:-13840 apt:-10800 ' +
    'ast:-14400 awdt:32400 awst:28800 awt:-10800 bdst:7200 bdt:-36000 bmt:-14309 bst:3600 cast:34200 cat:7200 cddt:-14400 cdt:-18000 cemt:10800 ' +
    'cest:7200 cet:3600 cmt:-15408 cpt:-18000 cst:-21600 cwt:-18000 chst:36000 dmt:-1521 eat:10800 eddt:-10800 edt:-14400 eest:10800 eet:7200 ' +
    'emt:-26248 ept:-14400 est:-18000 ewt:-14400 ffmt:-14660 fmt:-4056 gdt:39600 gmt:0 gst:36000 hdt:-34200 hkst:32400 hkt:28800 hmt:-19776 ' +
    'hpt:-34200 hst:-36000 hwt:-34200 iddt:14400 idt:10800 imt:25025 ist:7200 jdt:36000 jmt:8440 jst:32400 kdt:36000 kmt:5736 kst:30600 lst:9394 ' +
    'mddt:-18000 mdst:16279 mdt:-21600 mest:7200 met:3600 mmt:9017 mpt:-21600 msd:14400 msk:10800 mst:-25200 mwt:-21600 nddt:-5400 ndt:-9052 ' +
    'npt:-9000 nst:-12600 nwt:-9000 nzdt:46800 nzmt:41400 nzst:43200 pddt:-21600 pdt:-25200 pkst:21600 pkt:18000 plmt:25590 pmt:-13236 ' +
    'ppmt:-17340 ppt:-25200 pst:-28800 pwt:-25200 qmt:-18840 rmt:5794 sast:7200 sdmt:-16800 sjmt:-20173 smt:-13884 sst:-39600 tbmt:10751 ' +
    'tmt:12344 uct:0 utc:0 wast:7200 wat:3600 wemt:7200 west:3600 wet:0 wib:25200 wita:28800 wit:32400 wmt:5040 yddt:-25200 ydt:-28800 ' +
    'ypt:-28800 yst:-32400 ywt:-28800 a:3600 b:7200 c:10800 d:14400 e:18000 f:21600 g:25200 h:28800 i:32400 k:36000 l:39600 m:43200 n:-3600 ' +
    'o:-7200 p:-10800 q:-14400 r:-18000 s:-21600 t:-25200 u:-28800 v:-32400 w:-36000 x:-39600 y:-43200 z:0'
  )
    .split(' ')
    .map((e) => {
      const [k, v] = e.split(':');
      return [k!, Number(v)] as const;
    }),
);

let zoneIds: Map<string, string> | undefined;

/** IANA identifier lookup (case-insensitive, like PHP's built-in database). */
function findZoneId(name: string): string | undefined {
  if (!zoneIds) {
    zoneIds = new Map();
    for (const z of Intl.supportedValuesOf('timeZone')) zoneIds.set(z.toLowerCase(), z);
    zoneIds.set('utc', 'UTC');
  }
  return zoneIds.get(name.toLowerCase());
}

/** Offset (seconds east of UTC) of an IANA zone at a UTC instant. */
function zoneOffsetAt(id: string, utcSeconds: number): number {
  if (id === 'UTC') return 0;
  const ms = utcSeconds * 1000;
  if (!Number.isFinite(ms) || Math.abs(ms) > 8.64e15) return 0;
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: id,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
    era: 'short',
  }).formatToParts(new Date(ms));
  const get = (t: string): number => Number(parts.find((p) => p.type === t)?.value ?? 0);
  let y = get('year');
  if (parts.find((p) => p.type === 'era')?.value === 'BC') y = 1 - y;
  const local = daysFromCivil(y, get('month'), get('day')) * 86400 + get('hour') * 3600 + get('minute') * 60 + get('second');
  return local - Math.floor(ms / 1000);
}

function parseTzCor(p: Ptr): number | undefined {
  const begin = p.i;
  while (isDigitCh(p.cur()) || p.cur() === ':') p.i++;
  const t = p.s.slice(begin, p.i);
  const int = (s: string): number => Number.parseInt(s, 10) || 0;
  switch (t.length) {
    case 1:
    case 2:
      return int(t) * 3600;
    case 3:
    case 4:
      if (t[1] === ':') return int(t) * 3600 + int(t.slice(2)) * 60;
      if (t[2] === ':') return int(t) * 3600 + int(t.slice(3)) * 60;
      return Math.trunc(int(t) / 100) * 3600 + (int(t) % 100) * 60;
    case 5:
      if (t[2] !== ':') return undefined;
      return int(t) * 3600 + int(t.slice(3)) * 60;
  }
  return undefined;
}

/** timelib_parse_zone: sets the zone; throws when it is unknown. */
function parseZone(p: Ptr, t: Parsed): void {
  while (p.cur() === ' ' || p.cur() === '\t' || p.cur() === '(') p.i++;
  if (p.cur() === 'G' && p.at(1) === 'M' && p.at(2) === 'T' && (p.at(3) === '+' || p.at(3) === '-')) p.i += 3;
  if (p.cur() === '+' || p.cur() === '-') {
    const sign = p.cur() === '-' ? -1 : 1;
    p.i++;
    const v = parseTzCor(p);
    if (v === undefined) throw new ParseError('The timezone could not be found in the database');
    t.zone = { kind: 'offset', seconds: sign * v };
  } else {
    const begin = p.i;
    while (p.cur() !== '\0' && p.cur() !== ')' && p.cur() !== ' ') p.i++;
    const word = p.s.slice(begin, p.i);
    const abbr = ABBREVIATIONS.get(word.toLowerCase());
    if (abbr !== undefined && word.toLowerCase() !== 'utc') {
      t.zone = { kind: 'offset', seconds: abbr };
    } else {
      const id = findZoneId(word);
      if (id !== undefined) t.zone = { kind: 'id', id };
      else if (abbr !== undefined) t.zone = { kind: 'offset', seconds: abbr };
      else throw new ParseError('The timezone could not be found in the database');
    }
  }
  while (p.cur() === ')') p.i++;
}

// ---------------------------------------------------------------------------------------------
// the scanner

function haveTime(t: Parsed): void {
  if (t.haveTime) throw new ParseError('Double time specification');
  t.haveTime = 1;
  t.h = t.i = t.s = t.us = 0;
}
function unhaveTime(t: Parsed): void {
  t.haveTime = 0;
  t.h = t.i = t.s = t.us = 0;
}
function haveDate(t: Parsed): void {
  if (t.haveDate) throw new ParseError('Double date specification');
  t.haveDate = true;
}
function unhaveDate(t: Parsed): void {
  t.haveDate = false;
  t.d = t.m = t.y = 0;
}
/** False when the token must be skipped (a second time zone: PHP only warns). */
function haveTz(t: Parsed): boolean {
  if (t.haveZone) {
    if (t.haveZone > 1) throw new ParseError('Double timezone specification');
    t.haveZone++;
    return false;
  }
  t.haveZone++;
  return true;
}
function haveWeekdayRelative(t: Parsed): void {
  t.haveRelative = true;
  t.relative.haveWeekdayRelative = true;
}

function setRelative(p: Ptr, amount: number, behavior: number, t: Parsed, keepTime: boolean): void {
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

interface Rule {
  name: string;
  sticky: RegExp;
  full: RegExp;
  action: Action;
}

const RULES: Rule[] = [];

function rule(name: string, source: string, action: Action): void {
  RULES.push({ name, sticky: new RegExp(`(?:${source})`, 'y'), full: new RegExp(`^(?:${source})$`), action });
}

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
rule('timestamp', timestamp, (p, t) => {
  t.haveRelative = true;
  unhaveDate(t);
  unhaveTime(t);
  if (!haveTz(t)) return;
  const v = getSignedNr(p, 24);
  t.y = 1970;
  t.m = 1;
  t.d = 1;
  t.h = t.i = t.s = t.us = 0;
  t.relative.s += v;
  t.zone = { kind: 'offset', seconds: 0 };
});
rule('firstdayof|lastdayof', alt(firstdayof, lastdayof), (p, t) => {
  t.haveRelative = true;
  t.relative.firstLastDayOf = p.cur() === 'l' || p.cur() === 'L' ? LAST_DAY_OF_MONTH : FIRST_DAY_OF_MONTH;
});
rule('backof|frontof', alt(backof, frontof), (p, t) => {
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
rule('weekdayof', weekdayof, (p, t) => {
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
rule('timetiny12|timeshort12|timelong12', alt(timetiny12, timeshort12, timelong12), (p, t) => {
  haveTime(t);
  t.h = getNr(p, 2);
  if (p.cur() === ':' || p.cur() === '.') {
    t.i = getNr(p, 2);
    if (p.cur() === ':' || p.cur() === '.') t.s = getNr(p, 2);
  }
  t.h = (t.h ?? 0) + meridianOffset(p, t.h ?? 0);
});
rule('mssqltime', mssqltime, (p, t) => {
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
rule('timeshort24|timelong24|iso8601long', alt(timeshort24, timelong24, iso8601long), (p, t) => {
  haveTime(t);
  time24(p, t, true);
});
rule('gnunocolon', gnunocolon, (p, t) => {
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
      throw new ParseError('Double time specification');
  }
  t.haveTime++;
});
rule('iso8601nocolon', iso8601nocolon, (p, t) => {
  haveTime(t);
  t.h = getNr(p, 2);
  t.i = getNr(p, 2);
  t.s = getNr(p, 2);
  if (p.cur() !== '\0') parseZone(p, t);
});
rule('americanshort|american', alt(americanshort, american), (p, t) => {
  haveDate(t);
  t.m = getNr(p, 2);
  t.d = getNr(p, 2);
  if (p.cur() === '/') {
    t.y = getYear(p, 4);
  }
});
rule('iso8601date4|iso8601dateslash|dateslash', alt(iso8601date4, iso8601dateslash, dateslash), (p, t) => {
  haveDate(t);
  t.y = getSignedNr(p, 4);
  t.m = getNr(p, 2);
  t.d = getNr(p, 2);
});
rule('iso8601date2', iso8601date2, (p, t) => {
  haveDate(t);
  t.y = getYear(p, 4);
  t.m = getNr(p, 2);
  t.d = getNr(p, 2);
});
rule('iso8601datex', iso8601datex, (p, t) => {
  haveDate(t);
  t.y = getSignedNr(p, 19);
  t.m = getNr(p, 2);
  t.d = getNr(p, 2);
});
rule('gnudateshorter', gnudateshorter, (p, t) => {
  haveDate(t);
  t.y = getYear(p, 4);
  t.m = getNr(p, 2);
  t.d = 1;
});
rule('gnudateshort', gnudateshort, (p, t) => {
  haveDate(t);
  t.y = getYear(p, 4);
  t.m = getNr(p, 2);
  t.d = getNr(p, 2);
});
rule('datefull', datefull, (p, t) => {
  haveDate(t);
  t.d = getNr(p, 2);
  skipDaySuffix(p);
  t.m = getMonth(p);
  t.y = getYear(p, 4);
});
rule('pointed', pointed, (p, t) => {
  haveDate(t);
  t.d = getNr(p, 2);
  t.m = getNr(p, 2);
  t.y = getYear(p, 4);
});
rule('pointed2', pointed2, (p, t) => {
  haveDate(t);
  t.d = getNr(p, 2);
  t.m = getNr(p, 2);
  t.y = getYear(p, 2);
});
rule('datenoday', datenoday, (p, t) => {
  haveDate(t);
  t.m = getMonth(p);
  const y = getYear(p, 4);
  t.d = 1;
  t.y = y;
});
rule('datenodayrev', datenodayrev, (p, t) => {
  haveDate(t);
  const y = getYear(p, 4);
  t.m = getMonth(p);
  t.d = 1;
  t.y = y;
});
rule('datetextual|datenoyear', alt(datetextual, datenoyear), (p, t) => {
  haveDate(t);
  t.m = getMonth(p);
  t.d = getNr(p, 2);
  t.y = getYear(p, 4);
});
rule('datenoyearrev', datenoyearrev, (p, t) => {
  haveDate(t);
  t.d = getNr(p, 2);
  skipDaySuffix(p);
  t.m = getMonth(p);
});
rule('datenocolon', datenocolon, (p, t) => {
  haveDate(t);
  t.y = getNr(p, 4);
  t.m = getNr(p, 2);
  t.d = getNr(p, 2);
});
rule('xmlrpc|xmlrpcnocolon|soap|wddx|exif', alt(xmlrpc, xmlrpcnocolon, soap, wddx, exif), (p, t) => {
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
rule('pgydotd', pgydotd, (p, t) => {
  haveDate(t);
  const y = getYear(p, 4);
  t.d = getNr(p, 3);
  t.m = 1;
  t.y = y;
});
rule('isoweekday', isoweekday, (p, t) => {
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
rule('isoweek', isoweek, (p, t) => {
  haveDate(t);
  t.haveRelative = true;
  const y = getNr(p, 4) ?? 0;
  const w = getNr(p, 2) ?? 0;
  t.y = y;
  t.m = 1;
  t.d = 1;
  t.relative.d = dayNrFromWeekNr(y, w, 1);
});
rule('pgtextshort', pgtextshort, (p, t) => {
  haveDate(t);
  t.m = getMonth(p);
  t.d = getNr(p, 2);
  t.y = getYear(p, 4);
});
rule('pgtextreverse', pgtextreverse, (p, t) => {
  haveDate(t);
  const y = getYear(p, 4);
  t.m = getMonth(p);
  t.d = getNr(p, 2);
  t.y = y;
});
rule('clf', clf, (p, t) => {
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
rule('year4', year4, (p, t) => {
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
rule('daytext', daytext, (p, t) => {
  t.haveRelative = true;
  haveWeekdayRelative(t);
  unhaveTime(t);
  // timelib stores the unit's multiplier: a day number, or 1 for "weekday(s)" (so → Monday)
  const unit = lookupRelunit(p);
  if (unit) t.relative.weekday = unit[1];
  if (t.relative.weekdayBehavior !== 2) t.relative.weekdayBehavior = 1;
});
rule('relativetextweek', relativetextweek, (p, t) => {
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
rule('relativetext', relativetext, (p, t) => {
  t.haveRelative = true;
  while (p.cur() !== '\0') {
    const { amount, behavior } = getRelativeText(p);
    eatSpaces(p);
    setRelative(p, amount, behavior, t, false);
  }
});
rule('monthfull|monthabbr', alt(monthfull, monthabbr), (p, t) => {
  haveDate(t);
  t.m = getMonth(p);
});
rule('tzcorrection|tz', alt(tzcorrection, tz), (p, t) => {
  if (!haveTz(t)) return;
  parseZone(p, t);
});
rule('dateshortwithtimeshort12|dateshortwithtimelong12', alt(datenoyear + timeshort12, datenoyear + timelong12), (p, t) => {
  haveDate(t);
  t.m = getMonth(p);
  t.d = getNr(p, 2);
  haveTime(t);
  t.h = getNr(p, 2);
  t.i = getNr(p, 2);
  if (p.cur() === ':' || p.cur() === '.') t.s = getNr(p, 2);
  t.h = (t.h ?? 0) + meridianOffset(p, t.h ?? 0);
});
rule('dateshortwithtimeshort|dateshortwithtimelong|dateshortwithtimelongtz', alt(datenoyear + timeshort24, datenoyear + timelong24, datenoyear + iso8601normtz), (p, t) => {
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
});
rule('relative', relative, (p, t) => {
  t.haveRelative = true;
  while (p.cur() !== '\0') {
    const amount = getSignedNr(p, 24);
    eatSpaces(p);
    setRelative(p, amount, 1, t, true);
  }
});
rule('separator', '[ .,\\t]', () => {});
rule('newline', '[\\0\\n]', () => {});

function dayNrFromWeekNr(iy: number, iw: number, id: number): number {
  const dow = dayOfWeek(iy, 1, 1);
  const day = 0 - (dow > 4 ? dow - 7 : dow);
  return day + (iw - 1) * 7 + id;
}

/** Longest token considered (real tokens are far shorter; bounds the longest-match search). */
const MAX_TOKEN = 128;

function scan(input: string): Parsed {
  const t: Parsed = {
    y: null,
    m: null,
    d: null,
    h: null,
    i: null,
    s: null,
    us: null,
    haveTime: 0,
    haveDate: false,
    haveZone: 0,
    haveRelative: false,
    zone: undefined,
    relative: {
      y: 0,
      m: 0,
      d: 0,
      h: 0,
      i: 0,
      s: 0,
      us: 0,
      weekday: 0,
      weekdayBehavior: 0,
      haveWeekdayRelative: false,
      haveSpecialRelative: false,
      specialType: 0,
      specialAmount: 0,
      firstLastDayOf: 0,
    },
  };
  const str = input + '\0';
  let pos = 0;
  while (pos < input.length) {
    let best: Rule | undefined;
    let bestLen = 0;
    for (const r of RULES) {
      r.sticky.lastIndex = pos;
      const m = r.sticky.exec(str);
      if (!m) continue;
      // re2c takes the longest match; a backtracking match is a lower bound for it
      let len = m[0].length;
      for (let probe = Math.min(str.length - pos, MAX_TOKEN); probe > Math.max(len, bestLen); probe--) {
        if (r.full.test(str.slice(pos, pos + probe))) {
          len = probe;
          break;
        }
      }
      if (len > bestLen) {
        best = r;
        bestLen = len;
      }
    }
    if (!best) throw new ParseError('Unexpected character');
    best.action(new Ptr(str.slice(pos, pos + bestLen)), t);
    pos += bestLen;
  }
  return t;
}

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

function resolve(t: Parsed, base: bigint): bigint {
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

/** PHP `strtotime(str, base)` in UTC: Unix seconds, or `false` when the text does not parse. */
export function phpStrtotime(input: string, base: bigint): bigint | false {
  const trimmed = input.replace(/^[ \t\n\v\f\r]+/, '').replace(/[ \t\n\v\f\r]+$/, '');
  if (trimmed === '') return false;
  let parsed: Parsed;
  try {
    parsed = scan(trimmed);
  } catch (e) {
    if (e instanceof ParseError) return false;
    throw e;
  }
  return resolve(parsed, base);
}

