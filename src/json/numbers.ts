/**
 * PHP number rendering (spec 01 §3.4.3, 04 §2.3).
 *
 * PHP rounds to P significant digits from the exact binary value with ties to even;
 * `toPrecision` rounds ties away from zero. Ties are rare (the exact expansion must end
 * in a 5 at digit P+1), so the fast path uses `toPrecision` and only a possible tie pays
 * for the exact BigInt expansion.
 */
import { PhpFloat, type Value, JsonObject } from './value.ts';

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

/** Exact decimal expansion of a positive finite double. */
function exactDecimal(x: number): Decimal {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  const hi = view.getUint32(0);
  const lo = view.getUint32(4);
  const biased = (hi >>> 20) & 0x7ff;
  let mant = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo);
  let e2: number;
  if (biased === 0) {
    e2 = -1074;
  } else {
    mant |= 1n << 52n;
    e2 = biased - 1075;
  }
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

/** 10^p for the precisions in use. */
const POW10 = Array.from({ length: 23 }, (_, p) => Number(`1e${p}`));

/**
 * `%.{precision}G` of a finite non-zero x with 1e-4 ≤ |x| < 10^precision — PHP prints those
 * without exponent — or undefined when the general path must decide (a possible tie, or rounding
 * up to 10^precision). Works on the text of the JS number directly.
 */
function plainFormat(x: number, ax: number, precision: number): string | undefined {
  if (precision <= 15) {
    // The shortest round-trip digits, when there are at most `precision` of them, are the exact
    // value rounded to `precision` digits: a normal double is within half an ulp (< 2.3e-16
    // relative) of them, far less than half a unit of the 15th significant digit. In this range
    // String(x) has no exponent and PHP's layout is the same text.
    const text = String(x);
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

/** PHP `%.{precision}G` as used by string conversion (14) and serialize/json (17). */
export function formatFloat(x: number, precision: number, expChar: 'E' | 'e' = 'E'): string {
  const s = special(x);
  if (s !== undefined) return s;
  const ax = Math.abs(x);
  if (ax >= 1e-4 && ax < POW10[precision]! && precision >= 1 && precision <= 21) {
    const fast = plainFormat(x, ax, precision);
    if (fast !== undefined) return fast;
  }
  return layout(x < 0, roundSignificant(ax, precision), precision, expChar);
}

/** PHP `json_encode` with `serialize_precision = -1`: shortest round-trip digits. */
export function formatFloatShortest(x: number): string {
  const s = special(x);
  if (s !== undefined) return s;
  return layout(x < 0, parseJsNumber(String(Math.abs(x))), 17, 'e');
}

/** PHP string conversion of a float (`precision = 14`). */
export function phpFloatString(x: number): string {
  return formatFloat(x, 14, 'E');
}

/**
 * PHP string conversion of a scalar (`(string)$v`, spec 03 §0.3): null/false → "",
 * true → "1", floats with 14 significant digits, lists → "Array".
 * A decoded object cannot be converted: that is an internal error in the reference.
 */
export function phpString(v: Value | undefined): string {
  if (v === undefined || v === null || v === false) return '';
  if (v === true) return '1';
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'bigint') return String(v);
  if (v instanceof PhpFloat) return phpFloatString(v.value);
  if (Array.isArray(v)) return 'Array';
  if (v instanceof JsonObject) throw new TypeError('Object of class stdClass could not be converted to string');
  return 'Array';
}
