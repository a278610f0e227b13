/**
 * Time zones: reading a zone from a token (UTC offset, abbreviation or IANA identifier, as
 * timelib_parse_zone does) and the offset of an IANA zone at an instant, used when resolving.
 */
import { daysFromCivil } from './calendar.ts';
import type { Parsed } from './parsed.ts';
import { StrtotimeParseError } from '../../errors/StrtotimeParseError.ts';
import { isDigitCh, type Ptr } from './tokenReaders.ts';

// ---------------------------------------------------------------------------------------------
// time zones

/**
 * Abbreviation → UTC offset in seconds (timelib's table: first entry of each abbreviation), built
 * on first use: most runs never call strtotime (issue 28).
 */
let abbreviations: Map<string, number> | undefined;

const buildAbbreviations = (): Map<string, number> =>
  new Map<string, number>(
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
export function zoneOffsetAt(id: string, utcSeconds: number): number {
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
export function parseZone(p: Ptr, t: Parsed): void {
  while (p.cur() === ' ' || p.cur() === '\t' || p.cur() === '(') p.i++;
  if (p.cur() === 'G' && p.at(1) === 'M' && p.at(2) === 'T' && (p.at(3) === '+' || p.at(3) === '-')) p.i += 3;
  if (p.cur() === '+' || p.cur() === '-') {
    const sign = p.cur() === '-' ? -1 : 1;
    p.i++;
    const v = parseTzCor(p);
    if (v === undefined) throw new StrtotimeParseError('The timezone could not be found in the database');
    t.zone = { kind: 'offset', seconds: sign * v };
  } else {
    const begin = p.i;
    while (p.cur() !== '\0' && p.cur() !== ')' && p.cur() !== ' ') p.i++;
    const word = p.s.slice(begin, p.i);
    abbreviations ??= buildAbbreviations();
    const abbr = abbreviations.get(word.toLowerCase());
    if (abbr !== undefined && word.toLowerCase() !== 'utc') {
      t.zone = { kind: 'offset', seconds: abbr };
    } else {
      const id = findZoneId(word);
      if (id !== undefined) t.zone = { kind: 'id', id };
      else if (abbr !== undefined) t.zone = { kind: 'offset', seconds: abbr };
      else throw new StrtotimeParseError('The timezone could not be found in the database');
    }
  }
  while (p.cur() === ')') p.i++;
}
