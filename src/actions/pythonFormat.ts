/**
 * Python's `%` string formatting and `strftime`, the two text formatters the helper's user
 * functions use (`sprintf`, `string_to_date`, spec 05 §8.3) where the extractor uses PHP's.
 */
import { HelperError, PY } from './envelope.ts';
import { pythonRepr, pythonStr, pythonTypeName } from './pythonValues.ts';
import { checkActionTime } from './timeLimit.ts';
import { PhpFloat, type Value } from '../php/value.ts';

const SPEC = /%([#0\- +]*)(\d+)?(?:\.(\d+))?([diouxXeEfFgGcrsa%])/g;

function numeric(v: Value, conversion: string): number {
  if (typeof v === 'number' || typeof v === 'bigint') return Number(v);
  if (v instanceof PhpFloat) return v.value;
  if (typeof v === 'boolean') return v ? 1 : 0;
  throw new HelperError(PY.type, `%${conversion} format: a real number is required, not ${pythonTypeName(v)}`);
}

/** V8's longest string (2^29 − 24 UTF-16 units on 64-bit): a wider field cannot be built. */
const MAX_STRING_LENGTH = 2 ** 29 - 24;

function pad(text: string, flags: string, width: number, numericValue: boolean): string {
  if (text.length >= width) return text;
  // Python would try to allocate it; here it cannot exist, so it fails as Python's allocation would.
  if (width > MAX_STRING_LENGTH)
    throw new HelperError('MemoryError', `a field width of ${width} characters is more than the ${MAX_STRING_LENGTH} a text can hold`);
  if (flags.includes('-')) return text.padEnd(width);
  if (flags.includes('0') && numericValue) {
    const sign = /^[+\- ]/.test(text) ? text[0]! : '';
    return sign + text.slice(sign.length).padStart(width - sign.length, '0');
  }
  return text.padStart(width);
}

function signed(n: number, body: string, flags: string): string {
  if (n < 0 || Object.is(n, -0)) return `-${body}`;
  if (flags.includes('+')) return `+${body}`;
  if (flags.includes(' ')) return ` ${body}`;
  return body;
}

function exponential(n: number, precision: number, upper: boolean): string {
  const [m, e] = Math.abs(n).toExponential(precision).split('e') as [string, string];
  const exp = Number(e);
  const text = `${m}e${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`;
  return upper ? text.toUpperCase() : text;
}

function general(n: number, precision: number, upper: boolean): string {
  const p = precision === 0 ? 1 : precision;
  const a = Math.abs(n);
  const exp = a === 0 ? 0 : Math.floor(Math.log10(Number(a.toExponential(p - 1))));
  const text = exp < -4 || exp >= p ? exponential(a, p - 1, upper) : a.toFixed(Math.max(0, p - 1 - exp));
  // %g drops trailing zeros of the fraction.
  return text.replace(/(\.\d*?)0+(?=$|e|E)/, '$1').replace(/\.(?=$|e|E)/, '');
}

function convert(v: Value, conversion: string, flags: string, precision: number | undefined): { text: string; numeric: boolean } {
  switch (conversion) {
    case 's':
      return { text: precision === undefined ? pythonStr(v) : pythonStr(v).slice(0, precision), numeric: false };
    case 'r':
    case 'a':
      return { text: typeof v === 'string' ? pythonRepr(v) : pythonStr(v), numeric: false };
    case 'c':
      return { text: typeof v === 'string' ? v : String.fromCodePoint(numeric(v, 'c')), numeric: false };
    case 'd':
    case 'i':
    case 'u': {
      const n = Math.trunc(numeric(v, conversion));
      return { text: signed(n, String(Math.abs(n)), flags), numeric: true };
    }
    case 'x':
    case 'X':
    case 'o': {
      const n = Math.trunc(numeric(v, conversion));
      const digits = Math.abs(n).toString(conversion === 'o' ? 8 : 16);
      return { text: signed(n, conversion === 'X' ? digits.toUpperCase() : digits, flags), numeric: true };
    }
    case 'f':
    case 'F': {
      const n = numeric(v, conversion);
      return { text: signed(n, Math.abs(n).toFixed(precision ?? 6), flags), numeric: true };
    }
    case 'e':
    case 'E': {
      const n = numeric(v, conversion);
      return { text: signed(n, exponential(n, precision ?? 6, conversion === 'E'), flags), numeric: true };
    }
    default: {
      const n = numeric(v, conversion);
      return { text: signed(n, general(n, precision ?? 6, conversion === 'G'), flags), numeric: true };
    }
  }
}

/** `format % tuple(values)` (Python); errors are the TypeErrors Python raises. */
export function pythonPercentFormat(format: string, values: readonly Value[]): string {
  let next = 0;
  const out = format.replace(SPEC, (_m, flags: string, width: string | undefined, precision: string | undefined, conversion: string) => {
    // A format with many wide fields is long work the action's timer cannot interrupt.
    checkActionTime();
    if (conversion === '%') return '%';
    if (next >= values.length) throw new HelperError(PY.type, 'not enough arguments for format string');
    const { text, numeric: isNumber } = convert(
      values[next++]!,
      conversion,
      flags,
      precision === undefined ? undefined : Number(precision),
    );
    return pad(text, flags, width === undefined ? 0 : Number(width), isNumber);
  });
  if (next < values.length) throw new HelperError(PY.type, 'not all arguments converted during string formatting');
  return out;
}

const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** Python `datetime.strftime` for a UTC instant (the C locale). */
export function pythonStrftime(format: string, date: Date): string {
  const two = (n: number): string => String(n).padStart(2, '0');
  const dayOfYear = Math.floor((date.getTime() - Date.UTC(date.getUTCFullYear(), 0, 1)) / 86400000) + 1;
  const hour12 = date.getUTCHours() % 12 === 0 ? 12 : date.getUTCHours() % 12;
  const codes: Record<string, () => string> = {
    // glibc's strftime, which Python 3.12 calls on Linux, does not pad a year below 1000.
    Y: () => String(date.getUTCFullYear()),
    y: () => two(date.getUTCFullYear() % 100),
    m: () => two(date.getUTCMonth() + 1),
    d: () => two(date.getUTCDate()),
    H: () => two(date.getUTCHours()),
    I: () => two(hour12),
    M: () => two(date.getUTCMinutes()),
    S: () => two(date.getUTCSeconds()),
    f: () => String(date.getUTCMilliseconds() * 1000).padStart(6, '0'),
    j: () => String(dayOfYear).padStart(3, '0'),
    a: () => DAYS[date.getUTCDay()]!.slice(0, 3),
    A: () => DAYS[date.getUTCDay()]!,
    b: () => MONTHS[date.getUTCMonth()]!.slice(0, 3),
    B: () => MONTHS[date.getUTCMonth()]!,
    p: () => (date.getUTCHours() < 12 ? 'AM' : 'PM'),
    w: () => String(date.getUTCDay()),
    z: () => '+0000',
    Z: () => 'UTC',
    '%': () => '%',
  };
  return format.replace(/%(.)/gs, (m, c: string) => codes[c]?.() ?? m);
}
