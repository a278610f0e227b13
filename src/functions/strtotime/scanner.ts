/**
 * The scanning loop: at each position the longest token any rule matches (rule order breaking
 * ties, as re2c does), its action applied to the parsed time.
 */
import type { Parsed } from './parsed.ts';
import { StrtotimeParseError } from '../../errors/StrtotimeParseError.ts';
import { type Rule, rules } from './rules.ts';
import { Ptr } from './tokenReaders.ts';

/** Longest token considered (real tokens are far shorter; bounds the longest-match search). */
const MAX_TOKEN = 128;

export function scan(input: string): Parsed {
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
    for (const r of rules()) {
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
    if (!best) throw new StrtotimeParseError('Unexpected character');
    best.action(new Ptr(str.slice(pos, pos + bestLen)), t);
    pos += bestLen;
  }
  return t;
}
