/**
 * PHP number rendering (spec 01 §3.4.3, 04 §2.3).
 *
 * PHP rounds to P significant digits from the exact binary value with ties to even;
 * `toPrecision` rounds ties away from zero. Ties are rare (the exact expansion must end
 * in a 5 at digit P+1), so the fast path uses `toPrecision` and only a possible tie pays
 * for the exact BigInt expansion.
 */

interface Decimal {
  /** Significant digits, no leading or trailing zeros (at least one digit). */
  digits: string;
  /** Decimal exponent of the first digit: value = d.ddd × 10^exp. */
  exp: number;
}

/** Parses the output of Number#toPrecision / Number#toString for a positive finite number. */
function parseJsNumber(s: string): Decimal {
  let mantissa = s;
  let exp10 = 0;
  const e = s.indexOf('e');
  if (e >= 0) {
    mantissa = s.slice(0, e);
    exp10 = Number(s.slice(e + 1));
  }
  const dot = mantissa.indexOf('.');
  const intLen = dot < 0 ? mantissa.length : dot;
  let all = dot < 0 ? mantissa : mantissa.slice(0, dot) + mantissa.slice(dot + 1);
  let lead = 0;
  while (lead < all.length - 1 && all[lead] === '0') lead++;
  all = all.slice(lead);
  let end = all.length;
  while (end > 1 && all[end - 1] === '0') end--;
  return { digits: all.slice(0, end), exp: exp10 + intLen - lead - 1 };
}

/** A positive finite double as exactly `mant × 2^e2` (integer mantissa, subnormals included). */
export function binaryParts(x: number): { mant: bigint; e2: number } {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  const hi = view.getUint32(0);
  const lo = view.getUint32(4);
  const biased = (hi >>> 20) & 0x7ff;
  const mant = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo);
  return biased === 0 ? { mant, e2: -1074 } : { mant: mant | (1n << 52n), e2: biased - 1075 };
}

/** Exact decimal expansion of a positive finite double. */
function exactDecimal(x: number): Decimal {
  const { mant, e2 } = binaryParts(x);
  let s: string;
  let pointPos: number;
  if (e2 >= 0) {
    s = (mant << BigInt(e2)).toString();
    pointPos = s.length;
  } else {
    s = (mant * 5n ** BigInt(-e2)).toString();
    pointPos = s.length + e2;
  }
  let end = s.length;
  while (end > 1 && s[end - 1] === '0') end--;
  return { digits: s.slice(0, end), exp: pointPos - 1 };
}

function roundExact(x: number, precision: number): Decimal {
  const exact = exactDecimal(x);
  if (exact.digits.length <= precision) return exact;
  const head = exact.digits.slice(0, precision);
  const next = exact.digits.charCodeAt(precision) - 48;
  const restNonZero = /[1-9]/.test(exact.digits.slice(precision + 1));
  const lastOdd = (head.charCodeAt(precision - 1) - 48) % 2 === 1;
  const up = next > 5 || (next === 5 && (restNonZero || lastOdd));
  if (!up) return parseJsNumber(head + 'e' + (exact.exp - precision + 1));
  const bumped = (BigInt(head) + 1n).toString();
  return parseJsNumber(bumped + 'e' + (exact.exp - precision + 1));
}

function roundSignificant(x: number, precision: number): Decimal {
  const probe = x.toPrecision(precision + 1);
  const mantissaEnd = probe.indexOf('e') >= 0 ? probe.indexOf('e') : probe.length;
  if (probe[mantissaEnd - 1] !== '5') return parseJsNumber(x.toPrecision(precision));
  return roundExact(x, precision);
}

function layout(neg: boolean, d: Decimal, expLimit: number, expChar: string): string {
  const sign = neg ? '-' : '';
  const { digits, exp } = d;
  if (exp < -4 || exp >= expLimit) {
    const frac = digits.length > 1 ? digits.slice(1) : '0';
    return `${sign}${digits[0]}.${frac}${expChar}${exp < 0 ? '-' : '+'}${Math.abs(exp)}`;
  }
  if (exp < 0) return `${sign}0.${'0'.repeat(-exp - 1)}${digits}`;
  if (digits.length <= exp + 1) return sign + digits + '0'.repeat(exp + 1 - digits.length);
  return `${sign}${digits.slice(0, exp + 1)}.${digits.slice(exp + 1)}`;
}

function special(x: number): string | undefined {
  if (Number.isNaN(x)) return 'NAN';
  if (!Number.isFinite(x)) return x < 0 ? '-INF' : 'INF';
  if (x === 0) return Object.is(x, -0) ? '-0' : '0';
  return undefined;
}

/**
 * `String(n)` for a number, without V8's number-string cache.
 *
 * V8 remembers the strings of the numbers it converts in a cache that lives in the old
 * generation. A string of a non-Smi number is even allocated there directly; a Smi's string is
 * kept alive by the cache until its slot is reused — long enough to survive two scavenges and be
 * promoted when the output phase converts a few hundred thousand distinct numbers per second.
 * Either way every cell and link hash left old-generation garbage behind, which only a full GC
 * reclaims, and the heap grew with the amount of data written. `JSON.stringify` of a finite
 * number is by definition `ToString(n)` and allocates an ordinary young string; integers are
 * assembled from a table of 4-digit groups.
 */
export function numberText(n: number): string {
  if ((n | 0) === n) return int32Text(n | 0);
  if (!Number.isFinite(n)) return String(n);
  return shortDecimalText(n) ?? JSON.stringify(n);
}

/**
 * Result of `shortDecimal`: |x| = N / 10^j.
 */
let decimalN = 0;
let decimalJ = 0;

/**
 * Whether a finite x is the double nearest to a decimal of at most 10 significant digits with at
 * most 8 of them after the point (12.5, 45.62, -0.001, 7) — the usual data; if so, sets
 * `decimalN` / `decimalJ`. The decimal is N / 10^j for the smallest j with N = round(|x|·10^j) <
 * 2^31 and N / 10^j === |x|: the division is correctly rounded, so the decimal reads back as x,
 * and no decimal with fewer digits does (a smaller j would have found it); at this magnitude
 * the grid 10^-j is far coarser than an ulp of x, so N is the only candidate. Its text is exactly
 * the shortest round-trip text `String(x)` prints (fixed notation for 1e-6 ≤ |x| < 1e21).
 */
function shortDecimal(x: number): boolean {
  const ax = x < 0 ? -x : x;
  if (!(ax >= 1e-6)) return false;
  for (let j = 0; j <= 8; j++) {
    const scale = POW10[j]!;
    const scaled = ax * scale;
    if (scaled >= 2147483648) return false;
    const n = Math.round(scaled);
    if (n / scale !== ax) continue;
    decimalN = n;
    decimalJ = j;
    return true;
  }
  return false;
}

/** `String(x)` when `shortDecimal(x)`, else undefined. */
function shortDecimalText(x: number): string | undefined {
  if (!shortDecimal(x)) return undefined;
  const j = decimalJ;
  let digits = int32Text(decimalN);
  if (j === 0) return x < 0 ? '-' + digits : digits;
  if (digits.length <= j) digits = '000000000'.slice(0, j + 1 - digits.length) + digits;
  const point = digits.length - j;
  const text = digits.slice(0, point) + '.' + digits.slice(point);
  return x < 0 ? '-' + text : text;
}

/**
 * PHP's string conversion of the float x (`phpFloatString`) written as ASCII bytes into `out` at
 * `at` (at least 24 bytes of room) when x is a short decimal (see `shortDecimal`) with
 * 1e-4 ≤ |x|; returns the position after it, or -1 (nothing written) for any other x.
 */
export function writeShortFloatString(x: number, out: Uint8Array, at: number): number {
  // Below 1e-4 PHP prints an exponent; at most 10 significant digits are within precision 14.
  if (!(x >= 1e-4 || x <= -1e-4) || !shortDecimal(x)) return -1;
  if (x < 0) out[at++] = 0x2d;
  return writeFixed(decimalN, decimalJ, out, at);
}

/**
 * N / 10^j in fixed notation (N an integer, 0 ≤ N ≤ 2^31; j ≥ 0: `12`, `0.0012`, `12.25`)
 * written as ASCII bytes into `out` at `at`; returns the position after it.
 */
export function writeFixed(n: number, j: number, out: Uint8Array, at: number): number {
  let digits = 1;
  for (let t = n; t >= 10; t = (t / 10) | 0) digits++;
  // Leading zeros of a pure fraction: 0.0012 is N = 12, j = 4.
  const width = digits > j ? digits : j + 1;
  const end = j > 0 ? at + width + 1 : at + width;
  let p = end;
  for (let k = 0; k < width; k++) {
    if (k === j && j > 0) out[--p] = 0x2e;
    const t = (n / 10) | 0;
    out[--p] = 0x30 + n - t * 10;
    n = t;
  }
  return end;
}

let groups: string[] | undefined;
let paddedGroups: string[] | undefined;

/** Decimal text of an int32 (`-0` is `0`). */
export function int32Text(n: number): string {
  if (groups === undefined || paddedGroups === undefined) {
    groups = new Array<string>(10000);
    paddedGroups = new Array<string>(10000);
    for (let i = 0; i < 10000; i++) {
      const t = JSON.stringify(i);
      groups[i] = t;
      paddedGroups[i] = '0000'.slice(t.length) + t;
    }
  }
  if (n < 0) return n === -2147483648 ? '-2147483648' : '-' + int32Text(-n);
  if (n < 10000) return groups[n]!;
  if (n < 100000000) {
    const high = Math.floor(n / 10000);
    return groups[high]! + paddedGroups[n - high * 10000]!;
  }
  const top = Math.floor(n / 100000000);
  const rest = n - top * 100000000;
  const mid = Math.floor(rest / 10000);
  return groups[top]! + paddedGroups[mid]! + paddedGroups[rest - mid * 10000]!;
}

/** 10^p for the precisions in use. */
const POW10 = Array.from({ length: 23 }, (_, p) => Number(`1e${p}`));

/**
 * `%.{precision}G` of a finite non-zero x with 1e-4 ≤ |x| < 10^precision — PHP prints those
 * without exponent — or undefined when the general path must decide (a possible tie, or rounding
 * up to 10^precision). Works on the text of the JS number directly.
 */
function plainFormat(x: number, ax: number, precision: number): string | undefined {
  if (precision >= 10) {
    // At most 10 significant digits: the shortest round-trip text, as below, without the count.
    const short = shortDecimalText(x);
    if (short !== undefined) return short;
  }
  if (precision <= 15) {
    // The shortest round-trip digits, when there are at most `precision` of them, are the exact
    // value rounded to `precision` digits: a normal double is within half an ulp (< 2.3e-16
    // relative) of them, far less than half a unit of the 15th significant digit. In this range
    // String(x) has no exponent and PHP's layout is the same text.
    const text = numberText(x);
    let significant = 0;
    let leading = true;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c < 0x30) continue; // '-' and '.'
      if (leading && c === 0x30) continue;
      leading = false;
      significant++;
    }
    // Integer-valued text counts its trailing zeros, which is fine: |x| < 10^precision.
    if (significant <= precision) return text;
  }
  // One digit more, correctly rounded (fixed notation in this range): unless that digit is a 5
  // (a possible tie, settled on the exact expansion), rounding it off gives the correct
  // rounding of the exact value.
  const probe = ax.toPrecision(precision + 1);
  const n = probe.length;
  const last = probe.charCodeAt(n - 1);
  if (last === 0x35) return undefined;
  // Rounded up to 10^precision already: PHP switches to the exponent form.
  const dot = probe.indexOf('.');
  if ((dot < 0 ? n : dot) > precision) return undefined;
  let out: string;
  if (last < 0x35) {
    out = probe.slice(0, n - 1);
  } else {
    let i = n - 2;
    let tail = '';
    for (; i >= 0; i--) {
      const c = probe.charCodeAt(i);
      if (c === 0x2e) {
        tail = '.' + tail;
        continue;
      }
      if (c !== 0x39) break;
      tail = '0' + tail;
    }
    if (i < 0) return undefined; // 99.99… rounds up to the next power of ten
    out = probe.slice(0, i) + String.fromCharCode(probe.charCodeAt(i) + 1) + tail;
  }
  if (out.includes('.')) {
    let end = out.length;
    while (out.charCodeAt(end - 1) === 0x30) end--;
    if (out.charCodeAt(end - 1) === 0x2e) end--;
    out = out.slice(0, end);
  }
  return x < 0 ? '-' + out : out;
}

// ---------------------------------------------------------------------------------------------
// Exact rounding to 17 significant digits in double arithmetic (serialize / json precision 17).
//
// `toPrecision(18)` falls back to V8's bignum conversion for most doubles and dominated the link
// hashes. For 1e-4 ≤ x < 1e17 the scale 10^k that brings x into [1e16, 1e17) is an exact double
// (k ≤ 20), and x·10^k is computed exactly as hi + lo (Dekker's product), so the rounding to an
// integer — ties to even, on the exact value — is decided without error.

/** Veltkamp splitting constant 2^27 + 1. */
const SPLITTER = 134217729;

function splitHigh(a: number): number {
  const c = SPLITTER * a;
  return c - (c - a);
}

/**
 * Result of `scale17`: N = high·10^9 + low with 10^16 ≤ N < 10^17 (`low` < 10^9), and the
 * decimal exponent of N's first digit.
 */
let scaledHigh = 0;
let scaledLow = 0;
let scaledExp = 0;

/**
 * `ax` (1e-4 ≤ ax < 1e17) rounded to 17 significant digits, ties to even on the exact binary
 * value, into `scaledHigh` / `scaledLow` / `scaledExp`; false when out of range.
 */
function scale17(ax: number): boolean {
  let e = Math.floor(Math.log10(ax));
  for (let attempt = 0; attempt < 3; attempt++) {
    const k = 16 - e;
    if (k < 0 || k > 22) return false;
    // hi + lo = ax · 10^k exactly (10^k ≤ 10^22 is exact).
    const b = POW10[k]!;
    const hi = ax * b;
    const ah = splitHigh(ax);
    const al = ax - ah;
    const bh = splitHigh(b);
    const bl = b - bh;
    const lo = ah * bh - hi + ah * bl + al * bh + al * bl;
    // Integer part and rounding of hi + lo.
    const whole = Math.floor(hi);
    const f = hi - whole; // exact
    let d: number;
    let up: boolean;
    if (f === 0) {
      // hi is an integer; the fraction comes from lo alone (|lo| ≤ half an ulp of hi ≤ 8).
      d = Math.floor(lo);
      const g = lo - d; // exact
      up = g > 0.5 || (g === 0.5 && (whole % 2 === 0 ? d % 2 !== 0 : d % 2 === 0));
    } else {
      // 0 < f < 1 is a multiple of ulp(hi) ≥ 2|lo|: only an exact half leaves the sign of lo to decide.
      d = 0;
      up = f > 0.5 || (f === 0.5 && (lo > 0 || (lo === 0 && whole % 2 !== 0)));
    }
    if (up) d++;
    // N = whole + d, which is not exact above 2^53: as q·10^9 + r (q·10^9 is exact, q·5^9 < 2^53).
    let q = Math.floor(whole / 1e9);
    let r = whole - q * 1e9 + d;
    while (r < 0) {
      q--;
      r += 1e9;
    }
    while (r >= 1e9) {
      q++;
      r -= 1e9;
    }
    if (q >= 1e7 && q < 1e8) {
      scaledHigh = q;
      scaledLow = r;
      scaledExp = e;
      return true;
    }
    if (q === 1e8 && r === 0) {
      // Rounded up to the next power of ten.
      scaledHigh = 1e7;
      scaledLow = 0;
      scaledExp = e + 1;
      return true;
    }
    // The estimate of the exponent was off by one (log10 near a power of ten).
    e += q < 1e7 ? -1 : 1;
  }
  return false;
}

/** `ax` (1e-4 ≤ ax < 1e17) rounded to 17 significant digits (see `scale17`); undefined when out of range. */
function round17(ax: number): Decimal | undefined {
  if (!scale17(ax)) return undefined;
  const low = int32Text(scaledLow);
  return trimmed(int32Text(scaledHigh) + '000000000'.slice(low.length) + low, scaledExp);
}

/** Digit bytes of `writeFloat17`. */
const floatDigits = new Uint8Array(17);

/**
 * `formatFloat(x, 17, 'E')` written as ASCII bytes into `out` at `at` (at least 32 bytes of
 * room); returns the position after it, or -1 when `x` needs the general path (zero, NaN, INF,
 * |x| < 1e-4 or ≥ 1e17). Used by the link hashes: no strings at all.
 */
export function writeFloat17(x: number, out: Uint8Array, at: number): number {
  const ax = Math.abs(x);
  if (!(ax >= 1e-4 && ax < 1e17) || !scale17(ax)) return -1;
  const d = floatDigits;
  let low = scaledLow;
  for (let i = 16; i >= 8; i--) {
    const t = (low / 10) | 0;
    d[i] = 0x30 + low - t * 10;
    low = t;
  }
  let high = scaledHigh;
  for (let i = 7; i >= 0; i--) {
    const t = (high / 10) | 0;
    d[i] = 0x30 + high - t * 10;
    high = t;
  }
  let len = 17;
  while (len > 1 && d[len - 1] === 0x30) len--;
  const exp = scaledExp;
  if (x < 0) out[at++] = 0x2d; // -
  if (exp < -4 || exp >= 17) {
    // d.dddE±x (here only 1.0E+17: exp ≤ 17)
    out[at++] = d[0]!;
    out[at++] = 0x2e;
    if (len === 1) out[at++] = 0x30;
    for (let i = 1; i < len; i++) out[at++] = d[i]!;
    out[at++] = 0x45; // E
    out[at++] = exp < 0 ? 0x2d : 0x2b;
    const ae = exp < 0 ? -exp : exp;
    if (ae >= 10) out[at++] = 0x30 + ((ae / 10) | 0);
    out[at++] = 0x30 + (ae % 10);
    return at;
  }
  if (exp < 0) {
    out[at++] = 0x30;
    out[at++] = 0x2e;
    for (let i = -1; i > exp; i--) out[at++] = 0x30;
    for (let i = 0; i < len; i++) out[at++] = d[i]!;
    return at;
  }
  if (len <= exp + 1) {
    for (let i = 0; i < len; i++) out[at++] = d[i]!;
    for (let i = len; i <= exp; i++) out[at++] = 0x30;
    return at;
  }
  for (let i = 0; i <= exp; i++) out[at++] = d[i]!;
  out[at++] = 0x2e;
  for (let i = exp + 1; i < len; i++) out[at++] = d[i]!;
  return at;
}

function trimmed(digits: string, exp: number): Decimal {
  let end = digits.length;
  while (end > 1 && digits.charCodeAt(end - 1) === 0x30) end--;
  return { digits: end === digits.length ? digits : digits.slice(0, end), exp };
}

/** PHP `%.{precision}G` as used by string conversion (14) and serialize/json (17). */
export function formatFloat(x: number, precision: number, expChar: 'E' | 'e' = 'E'): string {
  const s = special(x);
  if (s !== undefined) return s;
  const ax = Math.abs(x);
  if (precision === 17 && ax >= 1e-4 && ax < 1e17) {
    const d = round17(ax);
    if (d !== undefined) return layout(x < 0, d, precision, expChar);
  }
  if (ax >= 1e-4 && ax < POW10[precision]! && precision >= 1 && precision <= 21) {
    const fast = plainFormat(x, ax, precision);
    if (fast !== undefined) return fast;
  }
  return layout(x < 0, roundSignificant(ax, precision), precision, expChar);
}

/** The general path of `formatFloat` (for tests comparing it with the fast paths). */
export function formatFloatGeneral(x: number, precision: number, expChar: 'E' | 'e' = 'E'): string {
  const s = special(x);
  if (s !== undefined) return s;
  return layout(x < 0, roundSignificant(Math.abs(x), precision), precision, expChar);
}

/** PHP `json_encode` with `serialize_precision = -1`: shortest round-trip digits. */
export function formatFloatShortest(x: number): string {
  const s = special(x);
  if (s !== undefined) return s;
  return layout(x < 0, parseJsNumber(numberText(Math.abs(x))), 17, 'e');
}
