/**
 * An array of decoded values that decodes its elements when they are read, a chunk at a time
 * (jsonDecode.ts makes one of a large response's records array, see `RecordsAt`).
 *
 * It is a Proxy of a real array, so it is an array to every reader: `Array.isArray`, `length`,
 * indexing, iteration and the Array methods work unchanged, and the code that walks records (the
 * parsers, child jobs, pagination, the same-response check) needs no second path. Only the
 * current chunk of CHUNK decoded elements is held; a reader that comes back to an earlier chunk
 * gets it decoded again (equal values, new objects). Any write (a response filter replacing
 * records, say) first decodes every element into the real array, which from then on answers
 * everything: writers see exactly the behaviour of a plain array, at a plain array's memory.
 */
import type { Value } from './value.ts';

/** Elements decoded together: enough to pay the decoder's set-up per chunk, not per element. */
const CHUNK = 1024;

/** Index named by a property key (`"0"`, `"17"`; not `"01"`, `"-1"`, `"1.5"`), or -1. */
function indexOf(key: string | symbol, length: number): number {
  if (typeof key !== 'string' || key.length === 0 || key.length > 15) return -1;
  let n = 0;
  for (let i = 0; i < key.length; i++) {
    const c = key.charCodeAt(i);
    if (c < 0x30 || c > 0x39 || (i === 0 && c === 0x30 && key.length > 1)) return -1;
    n = n * 10 + (c - 0x30);
  }
  return n < length ? n : -1;
}

/** An array of `length` elements; `decode(from, to)` returns elements `from`..`to` (exclusive). */
export function lazyArray(length: number, decode: (from: number, to: number) => Value[]): Value[] {
  const target: Value[] = [];
  target.length = length;
  let materialized = false;
  let chunkAt = -1;
  let chunk: Value[] = [];
  const at = (i: number): Value => {
    const c = Math.floor(i / CHUNK);
    if (c !== chunkAt) {
      chunk = [];
      chunk = decode(c * CHUNK, Math.min(length, (c + 1) * CHUNK));
      chunkAt = c;
    }
    return chunk[i - c * CHUNK]!;
  };
  const materialize = (): void => {
    if (materialized) return;
    for (let i = 0; i < length; i++) target[i] = at(i);
    materialized = true;
    chunk = [];
  };
  return new Proxy(target, {
    get(t, key, receiver) {
      if (!materialized) {
        if (key === 'length') return length;
        const i = indexOf(key, length);
        if (i >= 0) return at(i);
      }
      return Reflect.get(t, key, receiver);
    },
    has(t, key) {
      if (!materialized && indexOf(key, length) >= 0) return true;
      return Reflect.has(t, key);
    },
    getOwnPropertyDescriptor(t, key) {
      if (!materialized) {
        const i = indexOf(key, length);
        if (i >= 0) return { value: at(i), writable: true, enumerable: true, configurable: true };
      }
      return Reflect.getOwnPropertyDescriptor(t, key);
    },
    ownKeys(t) {
      materialize();
      return Reflect.ownKeys(t);
    },
    set(t, key, value) {
      materialize();
      return Reflect.set(t, key, value);
    },
    defineProperty(t, key, descriptor) {
      materialize();
      return Reflect.defineProperty(t, key, descriptor);
    },
    deleteProperty(t, key) {
      materialize();
      return Reflect.deleteProperty(t, key);
    },
  });
}
