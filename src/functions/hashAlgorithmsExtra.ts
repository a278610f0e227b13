/**
 * PHP 7.4 hash algorithms without an implementation here yet: they are known names (so they do
 * not yield `false` like unknown ones) but computing them is an internal error.
 */
import { ApplicationError } from '../errors/ApplicationError.ts';
import { findHashAlgorithm, registerHashAlgorithm } from './hashAlgorithms.ts';

const PENDING: Array<[string, number]> = [
  ['tiger128,3', 64],
  ['tiger160,3', 64],
  ['tiger192,3', 64],
  ['tiger128,4', 64],
  ['tiger160,4', 64],
  ['tiger192,4', 64],
  ['snefru', 32],
  ['snefru256', 32],
  ['gost', 32],
  ['gost-crypto', 32],
];
for (const bits of [128, 160, 192, 224, 256]) for (const passes of [3, 4, 5]) PENDING.push([`haval${bits},${passes}`, 128]);

for (const [name, blockSize] of PENDING) {
  if (findHashAlgorithm(name)) continue;
  registerHashAlgorithm({
    name,
    blockSize,
    crypto: true,
    digest() {
      throw new ApplicationError(`Hash algorithm '${name}' is not supported by this implementation`);
    },
  });
}
