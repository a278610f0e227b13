/**
 * The digest algorithms of PHP 7.4's `hash` extension (spec 02 §11.9). Algorithms OpenSSL offers
 * through `node:crypto` use it; the others are implemented here from their specifications.
 */
import { createHash } from 'node:crypto';

export interface HashAlgorithm {
  /** PHP name (lower case). */
  name: string;
  /** HMAC block size in bytes. */
  blockSize: number;
  /** False for checksums that `hash_hmac` rejects. */
  crypto: boolean;
  digest(data: Buffer): Buffer;
}

// ---------------------------------------------------------------------------------------------
// helpers

const rotl = (x: number, n: number): number => ((x << n) | (x >>> (32 - n))) >>> 0;

/** MD-style padding: 0x80, zeros, 64-bit bit length (little or big endian), to a 64-byte multiple. */
function mdPad(data: Buffer, littleEndian: boolean, block = 64, lengthBytes = 8): Buffer {
  const len = data.length;
  const total = Math.ceil((len + 1 + lengthBytes) / block) * block;
  const out = Buffer.alloc(total);
  data.copy(out);
  out[len] = 0x80;
  const bits = BigInt(len) * 8n;
  for (let i = 0; i < lengthBytes; i++) {
    const byte = Number((bits >> BigInt(8 * i)) & 0xffn);
    if (littleEndian) out[total - lengthBytes + i] = byte;
    else out[total - 1 - i] = byte;
  }
  return out;
}

function wordsLE(words: number[]): Buffer {
  const b = Buffer.alloc(words.length * 4);
  for (let i = 0; i < words.length; i++) b.writeUInt32LE(words[i]! >>> 0, i * 4);
  return b;
}

function u32be(x: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(x >>> 0);
  return b;
}

// ---------------------------------------------------------------------------------------------
// MD4 (RFC 1320)

function md4(data: Buffer): Buffer {
  const m = mdPad(data, true);
  const h = [0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476];
  const F = (x: number, y: number, z: number) => (x & y) | (~x & z);
  const G = (x: number, y: number, z: number) => (x & y) | (x & z) | (y & z);
  const H = (x: number, y: number, z: number) => x ^ y ^ z;
  const X = new Array<number>(16);
  for (let off = 0; off < m.length; off += 64) {
    for (let i = 0; i < 16; i++) X[i] = m.readUInt32LE(off + 4 * i);
    let [a, b, c, d] = h as [number, number, number, number];
    const r1 = [3, 7, 11, 19];
    for (let i = 0; i < 16; i++) {
      const t = rotl((a + F(b, c, d) + X[i]!) >>> 0, r1[i % 4]!);
      [a, b, c, d] = [d, t, b, c];
    }
    const r2 = [3, 5, 9, 13];
    const o2 = [0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15];
    for (let i = 0; i < 16; i++) {
      const t = rotl((a + G(b, c, d) + X[o2[i]!]! + 0x5a827999) >>> 0, r2[i % 4]!);
      [a, b, c, d] = [d, t, b, c];
    }
    const r3 = [3, 9, 11, 15];
    const o3 = [0, 8, 4, 12, 2, 10, 6, 14, 1, 9, 5, 13, 3, 11, 7, 15];
    for (let i = 0; i < 16; i++) {
      const t = rotl((a + H(b, c, d) + X[o3[i]!]! + 0x6ed9eba1) >>> 0, r3[i % 4]!);
      [a, b, c, d] = [d, t, b, c];
    }
    h[0] = (h[0]! + a) >>> 0;
    h[1] = (h[1]! + b) >>> 0;
    h[2] = (h[2]! + c) >>> 0;
    h[3] = (h[3]! + d) >>> 0;
  }
  return wordsLE(h);
}

// ---------------------------------------------------------------------------------------------
// MD2 (RFC 1319); the S table is derived from the digits of pi.

/** pi × `scale`, truncated (Machin: pi = 16·arctan(1/5) − 4·arctan(1/239)). */
export function machinPi(scale: bigint): bigint {
  const arctanInv = (x: bigint): bigint => {
    let sum = 0n;
    let term = scale / x;
    const x2 = x * x;
    for (let k = 0n; term !== 0n; k++) {
      const t = term / (2n * k + 1n);
      sum += k % 2n === 0n ? t : -t;
      term /= x2;
    }
    return sum;
  };
  return 4n * (4n * arctanInv(5n) - arctanInv(239n));
}

/** Decimal digits of pi ("31415926…"). */
function piDecimalDigits(count: number): string {
  const guard = 20n;
  return machinPi(10n ** (BigInt(count) + guard))
    .toString()
    .slice(0, count);
}

let md2Table: number[] | undefined;

function md2S(): number[] {
  if (md2Table) return md2Table;
  const digits = piDecimalDigits(2000);
  let pos = 0;
  const next = (): number => digits.charCodeAt(pos++) - 48;
  const rand = (n: number): number => {
    for (;;) {
      let x = next();
      let y = 10;
      if (n > 10) {
        x = x * 10 + next();
        y = 100;
      }
      if (n > 100) {
        x = x * 10 + next();
        y = 1000;
      }
      if (x < n * Math.floor(y / n)) return x % n;
    }
  };
  const S = Array.from({ length: 256 }, (_, i) => i);
  for (let i = 2; i <= 256; i++) {
    const j = rand(i);
    const t = S[j]!;
    S[j] = S[i - 1]!;
    S[i - 1] = t;
  }
  md2Table = S;
  return S;
}

function md2(data: Buffer): Buffer {
  const S = md2S();
  const padLen = 16 - (data.length % 16);
  const m = Buffer.concat([data, Buffer.alloc(padLen, padLen)]);
  const C = new Array<number>(16).fill(0);
  let L = 0;
  for (let i = 0; i < m.length; i += 16) {
    for (let j = 0; j < 16; j++) {
      C[j] = C[j]! ^ S[m[i + j]! ^ L]!;
      L = C[j]!;
    }
  }
  const all = Buffer.concat([m, Buffer.from(C)]);
  const X = new Array<number>(48).fill(0);
  for (let i = 0; i < all.length; i += 16) {
    for (let j = 0; j < 16; j++) {
      X[16 + j] = all[i + j]!;
      X[32 + j] = X[16 + j]! ^ X[j]!;
    }
    let t = 0;
    for (let j = 0; j < 18; j++) {
      for (let k = 0; k < 48; k++) {
        X[k] = X[k]! ^ S[t]!;
        t = X[k]!;
      }
      t = (t + j) & 0xff;
    }
  }
  return Buffer.from(X.slice(0, 16));
}

// ---------------------------------------------------------------------------------------------
// RIPEMD-128/256/320 (160 comes from OpenSSL)

const RMD_R = [
  0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 7, 4, 13, 1, 10, 6, 15, 3, 12, 0, 9, 5, 2, 14, 11, 8, 3, 10, 14, 4, 9, 15, 8, 1, 2,
  7, 0, 6, 13, 11, 5, 12, 1, 9, 11, 10, 0, 8, 12, 4, 13, 3, 7, 15, 14, 5, 6, 2, 4, 0, 5, 9, 7, 12, 2, 10, 14, 1, 3, 8, 11, 6, 15, 13,
];
const RMD_RP = [
  5, 14, 7, 0, 9, 2, 11, 4, 13, 6, 15, 8, 1, 10, 3, 12, 6, 11, 3, 7, 0, 13, 5, 10, 14, 15, 8, 12, 4, 9, 1, 2, 15, 5, 1, 3, 7, 14, 6, 9, 11,
  8, 12, 2, 10, 0, 4, 13, 8, 6, 4, 1, 3, 11, 15, 0, 5, 12, 2, 13, 9, 7, 10, 14, 12, 15, 10, 4, 1, 5, 8, 7, 6, 2, 13, 14, 0, 3, 9, 11,
];
const RMD_S = [
  11, 14, 15, 12, 5, 8, 7, 9, 11, 13, 14, 15, 6, 7, 9, 8, 7, 6, 8, 13, 11, 9, 7, 15, 7, 12, 15, 9, 11, 7, 13, 12, 11, 13, 6, 7, 14, 9, 13,
  15, 14, 8, 13, 6, 5, 12, 7, 5, 11, 12, 14, 15, 14, 15, 9, 8, 9, 14, 5, 6, 8, 6, 5, 12, 9, 15, 5, 11, 6, 8, 13, 12, 5, 12, 13, 14, 11, 8,
  5, 6,
];
const RMD_SP = [
  8, 9, 9, 11, 13, 15, 15, 5, 7, 7, 8, 11, 14, 14, 12, 6, 9, 13, 15, 7, 12, 8, 9, 11, 7, 7, 12, 7, 6, 15, 13, 11, 9, 7, 15, 11, 8, 6, 6, 14,
  12, 13, 5, 14, 13, 13, 7, 5, 15, 5, 8, 11, 14, 14, 6, 14, 6, 9, 12, 9, 12, 5, 15, 8, 8, 5, 12, 9, 12, 5, 14, 6, 8, 13, 6, 5, 15, 13, 11,
  11,
];
const RMD_F = [
  (x: number, y: number, z: number) => x ^ y ^ z,
  (x: number, y: number, z: number) => (x & y) | (~x & z),
  (x: number, y: number, z: number) => (x | ~y) ^ z,
  (x: number, y: number, z: number) => (x & z) | (y & ~z),
  (x: number, y: number, z: number) => x ^ (y | ~z),
];
const RMD_K = [0, 0x5a827999, 0x6ed9eba1, 0x8f1bbcdc, 0xa953fd4e];
const RMD_KP160 = [0x50a28be6, 0x5c4dd124, 0x6d703ef3, 0x7a6d76e9, 0];
const RMD_KP128 = [0x50a28be6, 0x5c4dd124, 0x6d703ef3, 0];

function ripemd(data: Buffer, bits: 128 | 256 | 320): Buffer {
  const m = mdPad(data, true);
  const wide = bits === 320;
  const rounds = wide ? 5 : 4;
  const n = wide ? 5 : 4;
  const h =
    bits === 128
      ? [0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476]
      : bits === 256
        ? [0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476, 0x76543210, 0xfedcba98, 0x89abcdef, 0x01234567]
        : [0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476, 0xc3d2e1f0, 0x76543210, 0xfedcba98, 0x89abcdef, 0x01234567, 0x3c2d1e0f];
  const KP = wide ? RMD_KP160 : RMD_KP128;
  const X = new Array<number>(16);
  // swap order per round: 256 swaps A,B,C,D; 320 swaps B,D,A,C,E
  const swaps = wide ? [1, 3, 0, 2, 4] : [0, 1, 2, 3];
  for (let off = 0; off < m.length; off += 64) {
    for (let i = 0; i < 16; i++) X[i] = m.readUInt32LE(off + 4 * i);
    const L = h.slice(0, n);
    const R = bits === 128 ? h.slice(0, n) : h.slice(n, 2 * n);
    for (let r = 0; r < rounds; r++) {
      for (let j = 16 * r; j < 16 * r + 16; j++) {
        if (wide) {
          let t = (L[0]! + RMD_F[r]!(L[1]!, L[2]!, L[3]!) + X[RMD_R[j]!]! + RMD_K[r]!) >>> 0;
          t = (rotl(t, RMD_S[j]!) + L[4]!) >>> 0;
          L[0] = L[4]!;
          L[4] = L[3]!;
          L[3] = rotl(L[2]!, 10);
          L[2] = L[1]!;
          L[1] = t;
          let u = (R[0]! + RMD_F[4 - r]!(R[1]!, R[2]!, R[3]!) + X[RMD_RP[j]!]! + KP[r]!) >>> 0;
          u = (rotl(u, RMD_SP[j]!) + R[4]!) >>> 0;
          R[0] = R[4]!;
          R[4] = R[3]!;
          R[3] = rotl(R[2]!, 10);
          R[2] = R[1]!;
          R[1] = u;
        } else {
          const t = rotl((L[0]! + RMD_F[r]!(L[1]!, L[2]!, L[3]!) + X[RMD_R[j]!]! + RMD_K[r]!) >>> 0, RMD_S[j]!);
          L[0] = L[3]!;
          L[3] = L[2]!;
          L[2] = L[1]!;
          L[1] = t;
          const u = rotl((R[0]! + RMD_F[3 - r]!(R[1]!, R[2]!, R[3]!) + X[RMD_RP[j]!]! + KP[r]!) >>> 0, RMD_SP[j]!);
          R[0] = R[3]!;
          R[3] = R[2]!;
          R[2] = R[1]!;
          R[1] = u;
        }
      }
      if (bits !== 128) {
        const k = swaps[r]!;
        const t = L[k]!;
        L[k] = R[k]!;
        R[k] = t;
      }
    }
    if (bits === 128) {
      const t = (h[1]! + L[2]! + R[3]!) >>> 0;
      h[1] = (h[2]! + L[3]! + R[0]!) >>> 0;
      h[2] = (h[3]! + L[0]! + R[1]!) >>> 0;
      h[3] = (h[0]! + L[1]! + R[2]!) >>> 0;
      h[0] = t;
    } else {
      for (let i = 0; i < n; i++) {
        h[i] = (h[i]! + L[i]!) >>> 0;
        h[n + i] = (h[n + i]! + R[i]!) >>> 0;
      }
    }
  }
  return wordsLE(h);
}

// ---------------------------------------------------------------------------------------------
// Whirlpool (ISO/IEC 10118-3, final version); the S-box is built from its mini-boxes.

let whirlpoolSbox: number[] | undefined;

function whirlpoolS(): number[] {
  if (whirlpoolSbox) return whirlpoolSbox;
  const E = [0x1, 0xb, 0x9, 0xc, 0xd, 0x6, 0xf, 0x3, 0xe, 0x8, 0x7, 0x4, 0xa, 0x2, 0x5, 0x0];
  const R = [0x7, 0xc, 0xb, 0xd, 0xe, 0x4, 0x9, 0xf, 0x6, 0x3, 0x8, 0xa, 0x2, 0x5, 0x1, 0x0];
  const Ei = new Array<number>(16);
  for (let i = 0; i < 16; i++) Ei[E[i]!] = i;
  const S = new Array<number>(256);
  for (let u = 0; u < 256; u++) {
    const a = E[u >> 4]!;
    const b = Ei[u & 15]!;
    const r = R[a ^ b]!;
    S[u] = (E[a ^ r]! << 4) | Ei[b ^ r]!;
  }
  whirlpoolSbox = S;
  return S;
}

function gfMul(a: number, b: number): number {
  let p = 0;
  while (b) {
    if (b & 1) p ^= a;
    a <<= 1;
    if (a & 0x100) a ^= 0x11d;
    b >>= 1;
  }
  return p;
}

function whirlpoolRound(state: number[], key: number[], S: number[]): number[] {
  const C = [1, 1, 4, 1, 8, 5, 2, 9];
  // gamma + pi
  const t = new Array<number>(64);
  for (let i = 0; i < 8; i++) for (let j = 0; j < 8; j++) t[8 * i + j] = S[state[8 * ((i - j + 8) & 7) + j]!]!;
  // theta + sigma
  const out = new Array<number>(64);
  for (let i = 0; i < 8; i++) {
    for (let j = 0; j < 8; j++) {
      let v = 0;
      for (let k = 0; k < 8; k++) v ^= gfMul(t[8 * i + k]!, C[(j - k + 8) & 7]!);
      out[8 * i + j] = v ^ key[8 * i + j]!;
    }
  }
  return out;
}

function whirlpool(data: Buffer): Buffer {
  const S = whirlpoolS();
  const m = mdPad(data, false, 64, 32);
  let H = new Array<number>(64).fill(0);
  for (let off = 0; off < m.length; off += 64) {
    const block = Array.from(m.subarray(off, off + 64));
    let K = H.slice();
    let state = block.map((x, i) => x ^ K[i]!);
    for (let r = 1; r <= 10; r++) {
      const rc = new Array<number>(64).fill(0);
      for (let j = 0; j < 8; j++) rc[j] = S[8 * (r - 1) + j]!;
      K = whirlpoolRound(K, rc, S);
      state = whirlpoolRound(state, K, S);
    }
    H = H.map((x, i) => x ^ state[i]! ^ block[i]!);
  }
  return Buffer.from(H);
}

// ---------------------------------------------------------------------------------------------
// checksums

const crcTables = new Map<number, Uint32Array>();
/** The CRC table of `poly`, computed on first use: the three were ~1 ms of every start (issue 28). */
function crcTable(poly: number, reflected: boolean): Uint32Array {
  if (crcTables.has(poly)) return crcTables.get(poly)!;
  const table = new Uint32Array(256);
  for (let i = 0; i < 256; i++) {
    let c = reflected ? i : i << 24;
    for (let k = 0; k < 8; k++) {
      if (reflected) c = c & 1 ? (c >>> 1) ^ poly : c >>> 1;
      else c = c & 0x80000000 ? (c << 1) ^ poly : c << 1;
    }
    table[i] = c >>> 0;
  }
  crcTables.set(poly, table);
  return table;
}

function crcReflected(table: Uint32Array, data: Buffer): number {
  let c = 0xffffffff;
  for (const b of data) c = table[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function crc32bzip(data: Buffer): Buffer {
  const table = crcTable(0x04c11db7, false);
  let c = 0xffffffff;
  for (const b of data) c = (table[((c >>> 24) ^ b) & 0xff]! ^ (c << 8)) >>> 0;
  const v = (c ^ 0xffffffff) >>> 0;
  const out = Buffer.alloc(4);
  out.writeUInt32LE(v);
  return out;
}

function adler32(data: Buffer): Buffer {
  let a = 1;
  let b = 0;
  for (const x of data) {
    a = (a + x) % 65521;
    b = (b + a) % 65521;
  }
  return u32be(((b << 16) | a) >>> 0);
}

function fnv32(data: Buffer, alt: boolean): Buffer {
  let h = 0x811c9dc5;
  for (const x of data) {
    if (alt) h ^= x;
    h = Math.imul(h, 0x01000193) >>> 0;
    if (!alt) h = (h ^ x) >>> 0;
  }
  return u32be(h >>> 0);
}

function fnv64(data: Buffer, alt: boolean): Buffer {
  const mask = (1n << 64n) - 1n;
  let h = 0xcbf29ce484222325n;
  for (const x of data) {
    if (alt) h ^= BigInt(x);
    h = (h * 0x100000001b3n) & mask;
    if (!alt) h ^= BigInt(x);
  }
  const out = Buffer.alloc(8);
  out.writeBigUInt64BE(h);
  return out;
}

function joaat(data: Buffer): Buffer {
  let h = 0;
  for (const x of data) {
    h = (h + x) >>> 0;
    h = (h + (h << 10)) >>> 0;
    h = (h ^ (h >>> 6)) >>> 0;
  }
  h = (h + (h << 3)) >>> 0;
  h = (h ^ (h >>> 11)) >>> 0;
  h = (h + (h << 15)) >>> 0;
  return u32be(h);
}

// ---------------------------------------------------------------------------------------------
// registry

const algorithms = new Map<string, HashAlgorithm>();

function add(name: string, blockSize: number, crypto: boolean, digest: (data: Buffer) => Buffer): void {
  algorithms.set(name, { name, blockSize, crypto, digest });
}

function openssl(name: string, blockSize: number, opensslName = name): void {
  add(name, blockSize, true, (data) => createHash(opensslName).update(data).digest());
}

add('md2', 16, true, md2);
add('md4', 64, true, md4);
openssl('md5', 64);
openssl('sha1', 64);
openssl('sha224', 64);
openssl('sha256', 64);
openssl('sha384', 128);
openssl('sha512/224', 128, 'sha512-224');
openssl('sha512/256', 128, 'sha512-256');
openssl('sha512', 128);
openssl('sha3-224', 144);
openssl('sha3-256', 136);
openssl('sha3-384', 104);
openssl('sha3-512', 72);
add('ripemd128', 64, true, (d) => ripemd(d, 128));
openssl('ripemd160', 64);
add('ripemd256', 64, true, (d) => ripemd(d, 256));
add('ripemd320', 64, true, (d) => ripemd(d, 320));
add('whirlpool', 64, true, whirlpool);
add('adler32', 4, false, adler32);
add('crc32', 4, false, crc32bzip);
add('crc32b', 4, false, (d) => u32be(crcReflected(crcTable(0xedb88320, true), d)));
add('crc32c', 4, false, (d) => u32be(crcReflected(crcTable(0x82f63b78, true), d)));
add('fnv132', 4, false, (d) => fnv32(d, false));
add('fnv1a32', 4, false, (d) => fnv32(d, true));
add('fnv164', 8, false, (d) => fnv64(d, false));
add('fnv1a64', 8, false, (d) => fnv64(d, true));
add('joaat', 4, false, joaat);

/** Registers an algorithm implemented in another module (tiger, haval, gost, snefru). */
export function registerHashAlgorithm(alg: HashAlgorithm): void {
  algorithms.set(alg.name, alg);
}

/** The algorithm for a PHP name (case-insensitive), or undefined when PHP 7.4 does not know it. */
export function findHashAlgorithm(name: string): HashAlgorithm | undefined {
  return algorithms.get(name.toLowerCase());
}

export function hashAlgorithmNames(): string[] {
  return [...algorithms.keys()];
}

/** HMAC (RFC 2104) over any registered algorithm, as PHP's `hash_hmac` computes it. */
export function hmac(alg: HashAlgorithm, data: Buffer, key: Buffer): Buffer {
  let k = key.length > alg.blockSize ? alg.digest(key) : key;
  const padded = Buffer.alloc(alg.blockSize);
  k.copy(padded);
  k = padded;
  const ipad = Buffer.from(k.map((x) => x ^ 0x36));
  const opad = Buffer.from(k.map((x) => x ^ 0x5c));
  const inner = alg.digest(Buffer.concat([ipad, data]));
  return alg.digest(Buffer.concat([opad, inner]));
}
