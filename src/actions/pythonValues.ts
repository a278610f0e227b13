/**
 * The helper is a Python program (spec 05): its answers are Python's `json.dumps` with default
 * settings (§1.5), and wherever it turns a value into text it uses Python's `str()` (the
 * "Python string form"). Both live here so that every action prints values the same way.
 *
 * The answer of `test_request` may hold a response body of hundreds of megabytes, so `json.dumps`
 * produces chunks of bytes, never one string: a string is escaped slice by slice with one
 * regular expression per slice (not character by character), and each finished chunk leaves
 * V8's heap as a Buffer. A long string met twice (the body is both `response.data` and
 * `records`) is encoded once and its chunks are shared. The encoder is synchronous, so the
 * action's time limit cannot fire while it runs: it calls `checkTime` between slices and values,
 * which throws when the time is up.
 */
import { JsonObject, type PhpArray, PhpFloat, type Value } from '../php/value.ts';

/** Characters of a slice of a string encoded at once; also the size of an emitted chunk. */
const SLICE = 1 << 16;
/** Strings at least this long are remembered, so a second occurrence reuses their chunks. */
const SHARED_MIN = 1 << 20;
/** Python's `ESCAPE_ASCII`: everything but printable ASCII, and `"` and `\`. */
const NEEDS_ESCAPE = /["\\\u0000-\u001f\u007f-\uffff]/;
const NEEDS_ESCAPE_ALL = /["\\\u0000-\u001f\u007f-\uffff]/g;
const SHORT_ESCAPES: Record<string, string> = { '"': '\\"', '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t', '\b': '\\b', '\f': '\\f' };

function escapeChar(ch: string): string {
  return SHORT_ESCAPES[ch] ?? `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

/** Python `repr(float)`: shortest round-trip digits, exponent form below 1e-4 and from 1e16. */
export function pythonFloat(x: number): string {
  if (Number.isNaN(x)) return 'NaN';
  if (!Number.isFinite(x)) return x > 0 ? 'Infinity' : '-Infinity';
  if (x === 0) return Object.is(x, -0) ? '-0.0' : '0.0';
  const [mantissa, expText] = x.toExponential().split('e') as [string, string];
  const exp = Number(expText);
  const negative = mantissa.startsWith('-');
  const digits = mantissa.replace('-', '').replace('.', '');
  const sign = negative ? '-' : '';
  if (exp < -4 || exp >= 16) {
    const body = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
    return `${sign}${body}e${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`;
  }
  if (exp < 0) return `${sign}0.${'0'.repeat(-exp - 1)}${digits}`;
  const intPart = digits.slice(0, exp + 1).padEnd(exp + 1, '0');
  const frac = digits.slice(exp + 1);
  return `${sign}${intPart}.${frac === '' ? '0' : frac}`;
}

/** One JSON string literal (short strings: the whole text at once). */
export function pythonJsonString(s: string): string {
  return `"${NEEDS_ESCAPE.test(s) ? s.replace(NEEDS_ESCAPE_ALL, escapeChar) : s}"`;
}

export interface PythonJsonOptions {
  /** Throws when the action's time is up; called between slices and values. */
  checkTime?: () => void;
}

/**
 * Collects the text in a pending string and hands it on as Buffers of about SLICE bytes (the
 * text is ASCII, so latin1 is its byte encoding, copied without a UTF-8 pass).
 */
class ChunkSink {
  readonly chunks: Buffer[] = [];
  private pending = '';
  private readonly checkTime: () => void;
  private values = 0;

  constructor(checkTime: () => void) {
    this.checkTime = checkTime;
  }

  text(t: string): void {
    this.pending += t;
    if (this.pending.length >= SLICE) this.flush();
  }

  /** Counts a value; the clock is read every 1024 of them (reading it costs more than a value). */
  value(): void {
    if ((++this.values & 1023) === 0) this.checkTime();
  }

  flush(): void {
    if (this.pending === '') return;
    this.chunks.push(Buffer.from(this.pending, 'latin1'));
    this.pending = '';
    this.checkTime();
  }
}

class Encoder {
  private readonly sink: ChunkSink;
  /** The last long string encoded and its chunks (a string compares by pointer first). */
  private shared: { text: string; chunks: Buffer[] } | undefined;

  constructor(sink: ChunkSink) {
    this.sink = sink;
  }

  value(v: Value | undefined): void {
    this.sink.value();
    if (v === undefined || v === null) this.sink.text('null');
    else if (v === true) this.sink.text('true');
    else if (v === false) this.sink.text('false');
    else if (typeof v === 'number' || typeof v === 'bigint') this.sink.text(String(v));
    else if (v instanceof PhpFloat) this.sink.text(pythonFloat(v.value));
    else if (typeof v === 'string') this.string(v);
    else if (Array.isArray(v)) this.list(v);
    else this.object(v);
  }

  private list(items: readonly Value[]): void {
    this.sink.text('[');
    for (let i = 0; i < items.length; i++) {
      if (i > 0) this.sink.text(', ');
      this.value(items[i]);
    }
    this.sink.text(']');
  }

  private object(entries: Map<string, Value>): void {
    this.sink.text('{');
    let first = true;
    for (const [k, e] of entries) {
      this.sink.text(first ? '' : ', ');
      first = false;
      this.string(k);
      this.sink.text(': ');
      this.value(e);
    }
    this.sink.text('}');
  }

  private string(s: string): void {
    if (s.length < SLICE) {
      this.sink.text(pythonJsonString(s));
      return;
    }
    if (this.shared?.text === s) {
      this.sink.flush();
      this.sink.chunks.push(...this.shared.chunks);
      return;
    }
    this.sink.flush();
    const from = this.sink.chunks.length;
    this.sink.text('"');
    for (let at = 0; at < s.length; at += SLICE) {
      // A slice may end between the two halves of a surrogate pair: each half is escaped on its own.
      const slice = s.slice(at, at + SLICE);
      this.sink.text(NEEDS_ESCAPE.test(slice) ? slice.replace(NEEDS_ESCAPE_ALL, escapeChar) : slice);
    }
    this.sink.text('"');
    this.sink.flush();
    if (s.length >= SHARED_MIN) this.shared = { text: s, chunks: this.sink.chunks.slice(from) };
  }
}

/** `json.dumps(v)` as chunks of ASCII bytes, in order. */
export function pythonJsonChunks(v: Value | undefined, options: PythonJsonOptions = {}): Buffer[] {
  const sink = new ChunkSink(options.checkTime ?? (() => {}));
  new Encoder(sink).value(v);
  sink.flush();
  return sink.chunks;
}

/** `json.dumps(v)` as one string, for request bodies and other short texts. */
export function pythonJson(v: Value | undefined): string {
  return Buffer.concat(pythonJsonChunks(v)).toString('latin1');
}

/** `str(float)` differs from the JSON form only for the non-finite values. */
function pythonFloatStr(x: number): string {
  if (Number.isNaN(x)) return 'nan';
  if (!Number.isFinite(x)) return x > 0 ? 'inf' : '-inf';
  return pythonFloat(x);
}

/** Python `repr(str)`: single quotes unless the text has a `'` and no `"`. */
export function pythonRepr(s: string): string {
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
  let out = quote;
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    if (ch === '\\') out += '\\\\';
    else if (ch === quote) out += `\\${quote}`;
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (c < 0x20 || c === 0x7f) out += `\\x${c.toString(16).padStart(2, '0')}`;
    else out += ch;
  }
  return out + quote;
}

function reprOf(v: Value | undefined): string {
  return typeof v === 'string' ? pythonRepr(v) : pythonStr(v);
}

/** Python `str(v)`: the "Python string form" of spec 05. */
export function pythonStr(v: Value | undefined): string {
  if (v === undefined || v === null) return 'None';
  if (v === true) return 'True';
  if (v === false) return 'False';
  if (typeof v === 'number' || typeof v === 'bigint') return String(v);
  if (v instanceof PhpFloat) return pythonFloatStr(v.value);
  if (typeof v === 'string') return v;
  if (Array.isArray(v)) return `[${v.map(reprOf).join(', ')}]`;
  return `{${[...v].map(([k, e]) => `${pythonRepr(k)}: ${reprOf(e)}`).join(', ')}}`;
}

/** Python truthiness: `""`, `0`, `0.0`, `None`, `False`, `[]` and `{}` are false; `"0"` is true. */
export function pythonTruthy(v: Value | undefined): boolean {
  if (v === undefined || v === null || v === false) return false;
  if (v === true) return true;
  if (typeof v === 'number') return v !== 0;
  if (typeof v === 'bigint') return v !== 0n;
  if (v instanceof PhpFloat) return v.value !== 0;
  if (typeof v === 'string') return v !== '';
  if (Array.isArray(v)) return v.length > 0;
  return v.size > 0;
}

/** Python's type name of a value, for the helper's TypeError texts. */
export function pythonTypeName(v: Value | undefined): string {
  if (v === undefined || v === null) return 'NoneType';
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'number' || typeof v === 'bigint') return 'int';
  if (v instanceof PhpFloat) return 'float';
  if (typeof v === 'string') return 'str';
  if (Array.isArray(v)) return 'list';
  return 'dict';
}

/** A Python dict built in insertion order (printed as a JSON object even when empty). */
export function dict(entries: Iterable<readonly [string, Value]> = []): JsonObject {
  return new JsonObject(entries);
}

export function isDict(v: Value | undefined): v is JsonObject | PhpArray {
  return v instanceof Map;
}
