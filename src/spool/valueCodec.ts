/**
 * The spool's value codec: a compact tagged binary encoding of the PHP value model (src/php/)
 * that round-trips exactly (JsonObject / PhpArray / list, int / bigint / PhpFloat incl. -0, INF,
 * NaN, any string incl. lone surrogates, key order).
 *
 * Its own file because it is the one part of the spool that knows the value model; the frames
 * (frame.ts), the reader (reader.ts) and the writer (spool.ts) only move its bytes.
 */
import { JsonObject, PhpArray, PhpFloat, type Value } from '../php/value.ts';

const T_NULL = 0;
const T_FALSE = 1;
const T_TRUE = 2;
const T_INT32 = 3;
const T_INT53 = 4;
const T_BIGINT = 5;
const T_FLOAT = 6;
const T_ASCII = 7;
const T_UTF8 = 8;
const T_UTF16 = 9;
const T_LIST = 10;
const T_OBJECT = 11;
const T_PHPARRAY = 12;
/** A map key seen for the first time: the tagged string follows; it gets the next key id. */
const T_KEYNEW = 13;
/** A map key by id (u32). */
const T_KEYREF = 14;

/**
 * Map keys repeat in nearly every record: they are written once and then referenced by id (the
 * reader rebuilds the same table in the same order and reuses one string instance per key).
 * The table is capped so that data with ever-new keys cannot grow it without bound.
 */
const MAX_KEYS = 1 << 16;
const MAX_KEY_LENGTH = 256;

interface WellFormed {
  isWellFormed(): boolean;
}

/** A growable byte buffer with the encoder for the value model. */
export class ValueEncoder {
  buf: Buffer;
  pos = 0;
  private readonly keys = new Map<string, number>();

  constructor(initial = 64 * 1024) {
    this.buf = Buffer.allocUnsafe(initial);
  }

  ensure(n: number): void {
    const need = this.pos + n;
    if (need <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < need) size *= 2;
    const next = Buffer.allocUnsafe(size);
    this.buf.copy(next, 0, 0, this.pos);
    this.buf = next;
  }

  u8(v: number): void {
    this.ensure(1);
    this.buf[this.pos++] = v;
  }

  u32(v: number): void {
    this.ensure(4);
    this.buf.writeUInt32LE(v, this.pos);
    this.pos += 4;
  }

  string(s: string): void {
    const n = s.length;
    // Short strings: copy char codes while they are ASCII (no native call).
    if (n < 48) {
      this.ensure(5 + n);
      const b = this.buf;
      const start = this.pos;
      let p = start + 5;
      let i = 0;
      for (; i < n; i++) {
        const c = s.charCodeAt(i);
        if (c >= 0x80) break;
        b[p++] = c;
      }
      if (i === n) {
        b[start] = T_ASCII;
        b.writeUInt32LE(n, start + 1);
        this.pos = p;
        return;
      }
    }
    if (!(s as unknown as WellFormed).isWellFormed()) {
      this.ensure(5 + 2 * n);
      this.buf[this.pos] = T_UTF16;
      this.buf.writeUInt32LE(2 * n, this.pos + 1);
      this.buf.write(s, this.pos + 5, 'utf16le');
      this.pos += 5 + 2 * n;
      return;
    }
    this.ensure(5 + 3 * n);
    const written = this.buf.write(s, this.pos + 5, 'utf8');
    this.buf[this.pos] = written === n ? T_ASCII : T_UTF8;
    this.buf.writeUInt32LE(written, this.pos + 1);
    this.pos += 5 + written;
  }

  value(v: Value): void {
    switch (typeof v) {
      case 'string':
        this.string(v);
        return;
      case 'number':
        if ((v | 0) === v && !Object.is(v, -0)) {
          this.ensure(5);
          this.buf[this.pos] = T_INT32;
          this.buf.writeInt32LE(v, this.pos + 1);
          this.pos += 5;
        } else {
          this.ensure(9);
          this.buf[this.pos] = T_INT53;
          this.buf.writeDoubleLE(v, this.pos + 1);
          this.pos += 9;
        }
        return;
      case 'bigint':
        this.ensure(9);
        this.buf[this.pos] = T_BIGINT;
        this.buf.writeBigInt64LE(v, this.pos + 1);
        this.pos += 9;
        return;
      case 'boolean':
        this.u8(v ? T_TRUE : T_FALSE);
        return;
    }
    if (v === null || v === undefined) {
      this.u8(T_NULL);
      return;
    }
    if (v instanceof PhpFloat) {
      this.ensure(9);
      this.buf[this.pos] = T_FLOAT;
      this.buf.writeDoubleLE(v.value, this.pos + 1);
      this.pos += 9;
      return;
    }
    if (Array.isArray(v)) {
      this.ensure(5);
      this.buf[this.pos] = T_LIST;
      this.buf.writeUInt32LE(v.length, this.pos + 1);
      this.pos += 5;
      for (let i = 0; i < v.length; i++) this.value(v[i]!);
      return;
    }
    this.ensure(5);
    this.buf[this.pos] = v instanceof JsonObject ? T_OBJECT : T_PHPARRAY;
    this.buf.writeUInt32LE(v.size, this.pos + 1);
    this.pos += 5;
    // keys() + get(): iterating entries allocates a [key, value] pair per property.
    for (const k of v.keys()) {
      this.key(k);
      this.value(v.get(k)!);
    }
  }

  key(k: string): void {
    const id = this.keys.get(k);
    if (id !== undefined) {
      this.ensure(5);
      const b = this.buf;
      const p = this.pos;
      b[p] = T_KEYREF;
      b[p + 1] = id & 0xff;
      b[p + 2] = (id >>> 8) & 0xff;
      b[p + 3] = (id >>> 16) & 0xff;
      b[p + 4] = id >>> 24;
      this.pos = p + 5;
      return;
    }
    if (this.keys.size < MAX_KEYS && k.length <= MAX_KEY_LENGTH) {
      this.keys.set(k, this.keys.size);
      this.u8(T_KEYNEW);
    }
    this.string(k);
  }
}

/** Decoder over one buffer region. */
export class ValueDecoder {
  buf: Buffer;
  pos: number;
  private readonly keys: string[] = [];

  constructor(buf: Buffer, pos = 0) {
    this.buf = buf;
    this.pos = pos;
  }

  u32(): number {
    const b = this.buf;
    const p = this.pos;
    this.pos = p + 4;
    return (b[p]! | (b[p + 1]! << 8) | (b[p + 2]! << 16)) + b[p + 3]! * 0x1000000;
  }

  string(): string {
    const v = this.value();
    if (typeof v !== 'string') throw new Error('spool: string expected');
    return v;
  }

  key(): string {
    const tag = this.buf[this.pos];
    if (tag === T_KEYREF) {
      this.pos++;
      return this.keys[this.u32()]!;
    }
    if (tag === T_KEYNEW) {
      this.pos++;
      const k = this.string();
      this.keys.push(k);
      return k;
    }
    return this.string();
  }

  private ascii(n: number): string {
    const b = this.buf;
    const start = this.pos;
    this.pos += n;
    // Concatenating char codes is cheaper than the native call only for the shortest strings: from
    // 13 characters the result is a cons string, flattened (copied again) where it is read.
    if (n < 8) {
      let s = '';
      for (let i = start; i < start + n; i++) s += String.fromCharCode(b[i]!);
      return s;
    }
    return b.toString('latin1', start, start + n);
  }

  value(): Value {
    const b = this.buf;
    const tag = b[this.pos++];
    switch (tag) {
      case T_NULL:
        return null;
      case T_FALSE:
        return false;
      case T_TRUE:
        return true;
      case T_INT32: {
        const p = this.pos;
        this.pos = p + 4;
        return b[p]! | (b[p + 1]! << 8) | (b[p + 2]! << 16) | (b[p + 3]! << 24);
      }
      case T_INT53: {
        const v = b.readDoubleLE(this.pos);
        this.pos += 8;
        return v;
      }
      case T_BIGINT: {
        const v = b.readBigInt64LE(this.pos);
        this.pos += 8;
        return v;
      }
      case T_FLOAT: {
        const v = b.readDoubleLE(this.pos);
        this.pos += 8;
        return new PhpFloat(v);
      }
      case T_ASCII:
        return this.ascii(this.u32());
      case T_UTF8: {
        const n = this.u32();
        const s = b.toString('utf8', this.pos, this.pos + n);
        this.pos += n;
        return s;
      }
      case T_UTF16: {
        const n = this.u32();
        const s = b.toString('utf16le', this.pos, this.pos + n);
        this.pos += n;
        return s;
      }
      case T_LIST: {
        const n = this.u32();
        const out: Value[] = new Array(n);
        for (let i = 0; i < n; i++) out[i] = this.value();
        return out;
      }
      case T_OBJECT:
      case T_PHPARRAY: {
        const n = this.u32();
        const m = tag === T_OBJECT ? new JsonObject() : new PhpArray();
        for (let i = 0; i < n; i++) {
          const k = this.key();
          m.set(k, this.value());
        }
        return m;
      }
      default:
        throw new Error(`spool: corrupt data (tag ${String(tag)})`);
    }
  }
}
