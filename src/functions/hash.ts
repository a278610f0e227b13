/** Hash and encoding functions: md5, sha1, base64_encode, hash, hash_hmac (spec 02 §11.4, §11.9). */
import { createHash } from 'node:crypto';
import type { Value } from '../php/value.ts';
import { bytesToPhpString, phpBytes, zppBool, zppString } from './convert.ts';
import { findHashAlgorithm, hmac } from './hashAlgorithms.ts';
import './hashAlgorithmsExtra.ts';
import { registerFunction } from './registry.ts';

const GROUP = 'hash';

/** Optional `raw_output` flag: `undefined` when PHP rejects it (→ the function yields null). */
function rawFlag(v: Value | undefined): boolean | undefined {
  return v === undefined ? false : zppBool(v);
}

function output(digest: Buffer, raw: boolean): string {
  return raw ? bytesToPhpString(digest) : digest.toString('hex');
}

function simpleDigest(name: 'md5' | 'sha1', description: string): void {
  registerFunction({
    name,
    group: GROUP,
    description,
    example: { args: ['hello'] },
    minArgs: 1,
    maxArgs: 2,
    call(args) {
      const s = zppString(args[0]!);
      const raw = rawFlag(args[1]);
      if (s === undefined || raw === undefined) return null;
      return output(createHash(name).update(phpBytes(s)).digest(), raw);
    },
  });
}

simpleDigest('md5', 'md5(string [, raw]): MD5 of the UTF-8 bytes, 32 lowercase hex characters (16 raw bytes when raw is truthy).');
simpleDigest('sha1', 'sha1(string [, raw]): SHA-1 of the UTF-8 bytes, 40 lowercase hex characters (20 raw bytes when raw is truthy).');

registerFunction({
  name: 'base64_encode',
  group: GROUP,
  description: 'base64_encode(string): standard Base64 alphabet with "=" padding and no line breaks.',
  minArgs: 1,
  maxArgs: 1,
  example: {
    args: [{ function: 'concat', args: [{ attr: 'username' }, ':', { attr: '#password' }] }],
    attr: { username: 'JohnDoe', '#password': 'secret' },
  },
  call(args) {
    const s = zppString(args[0]!);
    return s === undefined ? null : phpBytes(s).toString('base64');
  },
});

registerFunction({
  name: 'hash',
  group: GROUP,
  description:
    'hash(algo, data [, raw]): digest in lowercase hex; algorithm names are case-insensitive; an unknown algorithm yields false.',
  minArgs: 2,
  maxArgs: 3,
  example: { args: ['sha256', 'hello'] },
  call(args) {
    const algo = zppString(args[0]!);
    const data = zppString(args[1]!);
    const raw = rawFlag(args[2]);
    if (algo === undefined || data === undefined || raw === undefined) return null;
    const alg = findHashAlgorithm(algo);
    if (!alg) return false;
    return output(alg.digest(phpBytes(data)), raw);
  },
});

registerFunction({
  name: 'hash_hmac',
  group: GROUP,
  description:
    'hash_hmac(algo, data, key [, raw]): HMAC in lowercase hex — note the order: algorithm, message, key. ' +
    'Checksums (adler32, crc32*, fnv*, joaat) and unknown algorithms yield false.',
  minArgs: 3,
  maxArgs: 4,
  example: { args: ['sha256', 'GET /users', { attr: '#apiSecret' }], attr: { '#apiSecret': 's3cret' } },
  call(args) {
    const algo = zppString(args[0]!);
    const data = zppString(args[1]!);
    const key = zppString(args[2]!);
    const raw = rawFlag(args[3]);
    if (algo === undefined || data === undefined || key === undefined || raw === undefined) return null;
    const alg = findHashAlgorithm(algo);
    if (!alg?.crypto) return false;
    return output(hmac(alg, phpBytes(data), phpBytes(key)), raw);
  },
});
