/**
 * The token formats of timelib's scanner (parse_date.re) as regular-expression sources: the
 * building blocks (hours, months, day suffixes, month and day names…) and the absolute date/time,
 * zone and relative-expression formats that rules.ts turns into scanner rules.
 */

// ---------------------------------------------------------------------------------------------
// regular building blocks (re2c: 'x' is case-insensitive, "x" case-sensitive)

export function ci(word: string): string {
  let out = '';
  for (const ch of word) {
    const lo = ch.toLowerCase();
    const up = ch.toUpperCase();
    out += lo !== up ? `[${lo}${up}]` : ch === ' ' ? ' ' : ch.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  }
  return out;
}
export const alt = (...xs: string[]): string => `(?:${xs.join('|')})`;
export const ciAlt = (...words: string[]): string => alt(...words.map(ci));

/** The formats' sources, built on first use (`patterns`). */
function buildPatterns() {
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

  const monthfull = ciAlt(
    'january',
    'february',
    'march',
    'april',
    'may',
    'june',
    'july',
    'august',
    'september',
    'october',
    'november',
    'december',
  );
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

  const reltextnumber = ciAlt(
    'first',
    'second',
    'third',
    'fourth',
    'fifth',
    'sixth',
    'seventh',
    'eight',
    'eighth',
    'ninth',
    'tenth',
    'eleventh',
    'twelfth',
  );
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
  return {
    tz,
    tzcorrection,
    year4,
    daytext,
    monthfull,
    monthabbr,
    timetiny12,
    timeshort12,
    timelong12,
    timeshort24,
    timelong24,
    iso8601long,
    iso8601normtz,
    gnunocolon,
    iso8601nocolon,
    americanshort,
    american,
    iso8601dateslash,
    dateslash,
    iso8601date4,
    iso8601date2,
    iso8601datex,
    gnudateshorter,
    gnudateshort,
    pointed,
    pointed2,
    datefull,
    datenoday,
    datenodayrev,
    datetextual,
    datenoyear,
    datenoyearrev,
    datenocolon,
    soap,
    xmlrpc,
    xmlrpcnocolon,
    wddx,
    pgydotd,
    pgtextshort,
    pgtextreverse,
    mssqltime,
    isoweekday,
    isoweek,
    exif,
    firstdayof,
    lastdayof,
    backof,
    frontof,
    clf,
    timestamp,
    relative,
    relativetext,
    relativetextweek,
    weekdayof,
  };
}

let built: ReturnType<typeof buildPatterns> | undefined;

/**
 * The formats below as regular-expression sources, built when strtotime first scans: building
 * them (the case-insensitive words letter by letter) was ~0.25 ms of every start, and most runs
 * never call strtotime (docs/performance.md, issue 28).
 */
export function patterns(): ReturnType<typeof buildPatterns> {
  built ??= buildPatterns();
  return built;
}
