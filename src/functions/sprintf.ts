/**
 * PHP 7.4 `sprintf` (ext/standard/formatted_print.c), spec 02 §11.8. Works on bytes like PHP:
 * widths and `%.Ns` truncation count bytes of the UTF-8 form.
 */
import type { Value } from '../php/value.ts';
import { phpIntvalBig } from '../php/intval.ts';
import { bytesToPhpString, phpBytes, valueDouble, valueString } from './convert.ts';
import { binaryParts } from '../php/numbers.ts';

const FLOAT_PRECISION = 6;
const MAX_FLOAT_PRECISION = 53;
const INT_MAX = 2147483647;

// ---------------------------------------------------------------------------------------------
// exact decimal rounding of doubles (zend_dtoa modes 2 and 3: correctly rounded, ties to even)

/** `x` (finite, > 0) as the exact fraction num / den. */
function fraction(x: number): { num: bigint; den: bigint } {
  const { mant, e2 } = binaryParts(x);
  return e2 >= 0 ? { num: mant << BigInt(e2), den: 1n } : { num: mant, den: 1n << BigInt(-e2) };
}

/** round-half-even(num / den). */
function roundDiv(num: bigint, den: bigint): bigint {
  const q = num / den;
  const r2 = (num % den) * 2n;
  if (r2 > den || (r2 === den && q % 2n === 1n)) return q + 1n;
  return q;
}

/** round(x × 10^k), exactly, ties to even. */
function scaledRound(x: number, k: number): bigint {
  const { num, den } = fraction(x);
  return k >= 0 ? roundDiv(num * 10n ** BigInt(k), den) : roundDiv(num, den * 10n ** BigInt(-k));
}

/**
 * Digits for `x > 0` rounded to `prec` places after the point (dtoa mode 3, padded): returns
 * the digit string of round(x × 10^prec) (at least prec + 1 digits, zero-padded on the left).
 */
function fixedDigits(x: number, prec: number): string {
  const n = scaledRound(x, prec).toString();
  return n.length <= prec ? '0'.repeat(prec + 1 - n.length) + n : n;
}

/**
 * `ndigit` significant digits of `x > 0` (dtoa mode 2, padded with zeros): digits and decpt
 * such that x ≈ 0.d1d2… × 10^decpt.
 */
export function significantDigits(x: number, ndigit: number): { digits: string; decpt: number } {
  let e = Math.floor(Math.log10(x));
  // correct the estimate
  for (;;) {
    const n = scaledRound(x, ndigit - 1 - e);
    const s = n.toString();
    if (s.length > ndigit) {
      e++;
      continue;
    }
    if (s.length < ndigit) {
      e--;
      continue;
    }
    return { digits: s, decpt: e + 1 };
  }
}

/** php_conv_fp: `F` fixed or `e`/`E` scientific for a finite value; the sign is separate. */
function convFp(format: 'F' | 'e' | 'E', num: number, precision: number): { text: string; negative: boolean } {
  const negative = num < 0;
  const x = Math.abs(num);
  if (format === 'F') {
    if (x === 0) return { text: precision > 0 ? '0.' + '0'.repeat(precision) : '0', negative };
    const d = fixedDigits(x, precision);
    const intPart = d.slice(0, d.length - precision);
    const frac = d.slice(d.length - precision);
    return { text: precision > 0 ? `${intPart}.${frac}` : intPart, negative };
  }
  let digits: string;
  let decpt: number;
  if (x === 0) {
    digits = '0'.repeat(precision + 1);
    decpt = 1;
  } else {
    ({ digits, decpt } = significantDigits(x, precision + 1));
  }
  let text = digits[0]!;
  if (precision > 0) text += '.' + digits.slice(1);
  const exp = decpt - 1;
  text += format + (exp < 0 ? '-' : '+') + Math.abs(exp);
  return { text, negative };
}

/** php_gcvt with mode 2 (precision ≥ 1): PHP's `%g`/`%G`, also used for precision-14 strings. */
export function gcvt(value: number, precision: number, expChar: 'e' | 'E'): string {
  if (Number.isNaN(value)) return 'NAN';
  if (!Number.isFinite(value)) return value < 0 ? '-INF' : 'INF';
  const neg = value < 0 || Object.is(value, -0);
  const x = Math.abs(value);
  let digits: string;
  let decpt: number;
  if (x === 0) {
    digits = '0';
    decpt = 1;
  } else {
    ({ digits, decpt } = significantDigits(x, precision));
    digits = digits.replace(/0+$/, '') || '0';
  }
  let out = neg ? '-' : '';
  if ((decpt >= 0 && decpt > precision) || decpt < -3) {
    let e = decpt - 1;
    const eneg = e < 0;
    if (eneg) e = -e;
    out += digits[0] + '.' + (digits.length > 1 ? digits.slice(1) : '0') + expChar + (eneg ? '-' : '+') + e;
  } else if (decpt < 0) {
    out += '0.' + '0'.repeat(-decpt) + digits;
  } else {
    let i = 0;
    for (; i < decpt; i++) out += i < digits.length ? digits[i] : '0';
    if (digits.length > decpt) out += (decpt === 0 ? '0' : '') + '.' + digits.slice(decpt);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// output helpers (byte arrays)

const ALIGN_LEFT = 0;
const ALIGN_RIGHT = 1;

function ascii(s: string): number[] {
  const out: number[] = [];
  for (let i = 0; i < s.length; i++) out.push(s.charCodeAt(i));
  return out;
}

function appendString(
  out: number[],
  add: number[],
  minWidth: number,
  maxWidth: number,
  padding: number,
  alignment: number,
  neg: boolean,
  expprec: boolean,
  alwaysSign: boolean,
): void {
  let copyLen = expprec ? Math.min(maxWidth, add.length) : add.length;
  let npad = minWidth < copyLen ? 0 : minWidth - copyLen;
  let start = 0;
  if (alignment === ALIGN_RIGHT) {
    if ((neg || alwaysSign) && padding === 0x30) {
      out.push(neg ? 0x2d : 0x2b);
      start = 1;
      copyLen--;
    }
    while (npad-- > 0) out.push(padding);
  }
  for (let i = 0; i < copyLen; i++) out.push(add[start + i]!);
  if (alignment === ALIGN_LEFT) while (npad-- > 0) out.push(padding);
}

function appendInt(out: number[], n: bigint, width: number, padding: number, alignment: number, alwaysSign: boolean): void {
  if (alignment === ALIGN_LEFT && padding === 0x30) padding = 0x20;
  const neg = n < 0n;
  let s = (neg ? -n : n).toString();
  if (neg) s = '-' + s;
  else if (alwaysSign) s = '+' + s;
  appendString(out, ascii(s), width, 0, padding, alignment, neg, false, alwaysSign);
}

function appendUint(out: number[], n: bigint, width: number, padding: number, alignment: number): void {
  if (alignment === ALIGN_LEFT && padding === 0x30) padding = 0x20;
  const u = n < 0n ? n + 2n ** 64n : n;
  appendString(out, ascii(u.toString()), width, 0, padding, alignment, false, false, false);
}

function append2n(
  out: number[],
  n: bigint,
  width: number,
  padding: number,
  alignment: number,
  radix: number,
  upper: boolean,
  expprec: boolean,
): void {
  const u = n < 0n ? n + 2n ** 64n : n;
  let s = u.toString(radix);
  if (upper) s = s.toUpperCase();
  appendString(out, ascii(s), width, 0, padding, alignment, false, expprec, false);
}

function appendDouble(
  out: number[],
  num: number,
  width: number,
  padding: number,
  alignment: number,
  precision: number,
  hasPrecision: boolean,
  fmt: string,
  alwaysSign: boolean,
): void {
  if (!hasPrecision) precision = FLOAT_PRECISION;
  else if (precision > MAX_FLOAT_PRECISION) precision = MAX_FLOAT_PRECISION;
  if (Number.isNaN(num)) {
    appendString(out, ascii('NaN'), 3, 0, padding, alignment, false, false, alwaysSign);
    return;
  }
  if (!Number.isFinite(num)) {
    const neg = num < 0;
    const s = neg ? '-Inf' : 'Inf';
    appendString(out, ascii(s), s.length, 0, padding, alignment, neg, false, alwaysSign);
    return;
  }
  let s: string;
  let neg: boolean;
  if (fmt === 'g' || fmt === 'G') {
    if (precision === 0) precision = 1;
    s = gcvt(num, precision, fmt === 'G' ? 'E' : 'e');
    neg = s.startsWith('-');
    if (!neg && alwaysSign) s = '+' + s;
  } else {
    const r = convFp(fmt === 'f' ? 'F' : (fmt as 'F' | 'e' | 'E'), num, precision);
    neg = r.negative;
    s = neg ? '-' + r.text : alwaysSign ? '+' + r.text : r.text;
  }
  appendString(out, ascii(s), width, 0, padding, alignment, neg, false, alwaysSign);
}

// ---------------------------------------------------------------------------------------------
// the formatter

const isDigit = (c: number | undefined): boolean => c !== undefined && c >= 0x30 && c <= 0x39;
const isAlpha = (c: number | undefined): boolean => c !== undefined && ((c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a));

/** PHP `sprintf(format, ...args)`; `false` where PHP warns and fails (too few arguments etc.). */
export function phpSprintf(formatValue: Value, args: Value[]): string | false {
  const format = phpBytes(valueString(formatValue));
  const out: number[] = [];
  let pos = 0;
  let currarg = 0;
  const at = (i: number): number | undefined => (i < format.length ? format[i] : undefined);
  const getNumber = (): number => {
    let end = pos;
    while (isDigit(at(end))) end++;
    const text = format.toString('latin1', pos, end);
    pos = end;
    const n = Number(text);
    return n >= INT_MAX ? -1 : n;
  };
  while (pos < format.length) {
    const c = format[pos]!;
    if (c !== 0x25) {
      out.push(c);
      pos++;
      continue;
    }
    if (at(pos + 1) === 0x25) {
      out.push(0x25);
      pos += 2;
      continue;
    }
    pos++;
    let alignment = ALIGN_RIGHT;
    let padding = 0x20;
    let alwaysSign = false;
    let expprec = false;
    let hasPrecision = false;
    let width = 0;
    let precision = 0;
    let argnum: number;
    if (!isAlpha(at(pos))) {
      let t = pos;
      while (isDigit(at(t))) t++;
      if (at(t) === 0x24) {
        const n = getNumber();
        if (n <= 0) return false; // "Argument number must be greater than zero"
        argnum = n - 1;
        pos++;
      } else {
        argnum = currarg++;
      }
      for (; ; pos++) {
        const f = at(pos);
        if (f === 0x20 || f === 0x30) padding = f;
        else if (f === 0x2d) alignment = ALIGN_LEFT;
        else if (f === 0x2b) alwaysSign = true;
        else if (f === 0x27 && pos + 1 < format.length) padding = format[++pos]!;
        else break;
      }
      if (isDigit(at(pos))) {
        width = getNumber();
        if (width < 0) return false; // "Width must be greater than zero and less than …"
      }
      if (at(pos) === 0x2e) {
        pos++;
        hasPrecision = true;
        if (isDigit(at(pos))) {
          precision = getNumber();
          if (precision < 0) return false; // "Precision must be greater than zero and less than …"
          expprec = true;
        }
      }
    } else {
      argnum = currarg++;
    }
    if (argnum >= args.length) return false; // "Too few arguments"
    if (at(pos) === 0x6c) pos++; // 'l'
    const arg = args[argnum]!;
    const spec = at(pos);
    switch (spec) {
      case 0x73: // s
        appendString(out, [...phpBytes(valueString(arg))], width, precision, padding, alignment, false, expprec, false);
        break;
      case 0x64: // d
        appendInt(out, phpIntvalBig(arg), width, padding, alignment, alwaysSign);
        break;
      case 0x75: // u
        appendUint(out, phpIntvalBig(arg), width, padding, alignment);
        break;
      case 0x67: // g
      case 0x47: // G
      case 0x65: // e
      case 0x45: // E
      case 0x66: // f
      case 0x46: // F
        appendDouble(out, valueDouble(arg), width, padding, alignment, precision, hasPrecision, String.fromCharCode(spec), alwaysSign);
        break;
      case 0x63: // c
        out.push(Number(BigInt.asUintN(8, phpIntvalBig(arg))));
        break;
      case 0x6f: // o
        append2n(out, phpIntvalBig(arg), width, padding, alignment, 8, false, expprec);
        break;
      case 0x78: // x
        append2n(out, phpIntvalBig(arg), width, padding, alignment, 16, false, expprec);
        break;
      case 0x58: // X
        append2n(out, phpIntvalBig(arg), width, padding, alignment, 16, true, expprec);
        break;
      case 0x62: // b
        append2n(out, phpIntvalBig(arg), width, padding, alignment, 2, false, expprec);
        break;
      case 0x25: // %
        out.push(0x25);
        break;
      default:
        // PHP 7.4 silently ignores an unknown specifier (the argument is consumed).
        break;
    }
    pos++;
  }
  return bytesToPhpString(Buffer.from(out));
}
