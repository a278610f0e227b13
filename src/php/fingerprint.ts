/**
 * A fingerprint of a decoded value: two values have the same fingerprint exactly when
 * `sameValue` (equality.ts) holds for them (up to a SHA-1 collision).
 *
 * Why not keep the value and compare it later: the page loop compares a response with the previous
 * one (03 §3.1.1), but by then the previous one has been changed in place — `responseFilter`
 * replaces members by their JSON text inside the response, as the reference does with its objects.
 * The reference compares the responses as decoded, so the loop takes this fingerprint before
 * anything touches the response; it costs one walk of the value and no second copy of it.
 */
import { createHash, type Hash } from 'node:crypto';
import { JsonObject, PhpFloat, type Value } from './value.ts';

/** Text is hashed in chunks of about this many UTF-16 units (one native call per chunk, not per value). */
const CHUNK = 1 << 16;

class Feed {
  private readonly hash: Hash = createHash('sha1');
  private parts: string[] = [];
  private size = 0;

  add(text: string): void {
    this.parts.push(text);
    this.size += text.length;
    if (this.size >= CHUNK) this.flush();
  }

  flush(): void {
    // UTF-16 code units hash every string exactly, lone surrogates included.
    if (this.size > 0) this.hash.update(this.parts.join(''), 'utf16le');
    this.parts = [];
    this.size = 0;
  }

  digest(): string {
    this.flush();
    return this.hash.digest('base64');
  }
}

/** Length-prefixed, so no two different sequences of values write the same text. */
function text(feed: Feed, tag: string, s: string): void {
  feed.add(`${tag}${s.length}:`);
  feed.add(s);
}

function walk(feed: Feed, v: Value): void {
  if (v === null || v === undefined) feed.add('N');
  else if (typeof v === 'boolean') feed.add(v ? 'T' : 'F');
  else if (typeof v === 'number' || typeof v === 'bigint') feed.add(`i${v};`);
  else if (typeof v === 'string') text(feed, 's', v);
  // String(-0) is "0" and every NaN is "NaN": the floats sameValue treats as the same.
  else if (v instanceof PhpFloat) feed.add(`d${String(v.value)};`);
  else if (Array.isArray(v)) {
    feed.add(`[${v.length}:`);
    for (const item of v) walk(feed, item);
  } else {
    // A decoded object and a configuration array are different values (equality.ts).
    feed.add(`${v instanceof JsonObject ? 'o' : 'a'}${v.size}:`);
    for (const [k, item] of v) {
      text(feed, 'k', k);
      walk(feed, item);
    }
  }
}

/** The fingerprint of `v` (base64 SHA-1 of a typed, length-prefixed walk of it). */
export function valueFingerprint(v: Value): string {
  const feed = new Feed();
  walk(feed, v);
  return feed.digest();
}
