import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatFloat, formatFloatGeneral, numberText, writeFloat17, writeShortFloatString } from '../../src/php/numbers.ts';
import { phpFloatString } from '../../src/php/stringConversion.ts';

function randomDoubles(count: number): number[] {
  let s = 12345;
  const rnd = () => {
    s = (s * 1103515245 + 12345) >>> 0;
    return s / 4294967296;
  };
  const view = new DataView(new ArrayBuffer(8));
  const xs: number[] = [
    0.1,
    0.5,
    1.5,
    2.5,
    1e-4,
    1e16,
    1e17,
    99999999999999990,
    123456789012345.625,
    123456789012345.875,
    9007199254740993,
    2 ** 53 + 2,
  ];
  for (let p = -5; p <= 18; p++) {
    let lo = 10 ** p;
    let hi = lo;
    for (let i = 0; i < 20; i++) {
      xs.push(lo, hi);
      lo -= lo * 2 ** -52;
      hi += hi * 2 ** -52;
    }
  }
  for (let i = 0; i < count; i++) {
    let x: number;
    switch (i % 6) {
      case 0:
        x = (rnd() - 0.5) * 10 ** Math.floor(rnd() * 25 - 5);
        break;
      case 1:
        view.setUint32(0, (rnd() * 2 ** 32) >>> 0);
        view.setUint32(4, (rnd() * 2 ** 32) >>> 0);
        x = view.getFloat64(0);
        break;
      case 2:
        x = Math.floor(rnd() * 2 ** 53) / 2 ** Math.floor(rnd() * 60);
        break;
      case 3:
        x = Math.floor(rnd() * 1e6) / 100 + 0.25;
        break;
      case 4:
        // many exact ties at the 18th significant digit
        x = (Math.floor(rnd() * 2 ** 30) * 2 ** 23 + 2 ** 22) / 2 ** Math.floor(rnd() * 40);
        break;
      default:
        x = -Math.floor(rnd() * 10 ** Math.floor(rnd() * 10)) / 10 ** Math.floor(rnd() * 9);
    }
    if (Number.isFinite(x)) xs.push(x, -x);
  }
  return xs;
}

test('formatFloat: the exact 17-digit path and the short-decimal path agree with the general (BigInt) path', () => {
  for (const x of randomDoubles(60_000)) {
    assert.equal(formatFloat(x, 17), formatFloatGeneral(x, 17), `p17 ${x}`);
    assert.equal(formatFloat(x, 14), formatFloatGeneral(x, 14), `p14 ${x}`);
  }
});

test('writeFloat17 writes the bytes of formatFloat(x, 17) or declines', () => {
  const buf = new Uint8Array(64);
  for (const x of randomDoubles(30_000)) {
    const end = writeFloat17(x, buf, 0);
    if (end < 0) continue;
    assert.equal(Buffer.from(buf.subarray(0, end)).toString('latin1'), formatFloat(x, 17), `${x}`);
  }
  assert.equal(writeFloat17(0, buf, 0), -1);
  assert.equal(writeFloat17(Infinity, buf, 0), -1);
  assert.equal(writeFloat17(1e-5, buf, 0), -1);
});

test('numberText is String(n)', () => {
  for (const x of [...randomDoubles(30_000), 0, -0, 7, -7, 2147483647, -2147483648, 2147483648, 1e21, 1e-7, NaN, Infinity, -Infinity]) {
    assert.equal(numberText(x), String(x), `${x}`);
  }
});

test('writeShortFloatString writes the bytes of phpFloatString, or nothing', () => {
  const out = new Uint8Array(40);
  const check = (x: number): boolean => {
    out.fill(0xff);
    const end = writeShortFloatString(x, out, 3);
    if (end < 0) {
      assert.ok(
        out.every((b) => b === 0xff),
        `wrote for ${x}`,
      );
      return false;
    }
    assert.equal(Buffer.from(out.subarray(3, end)).toString('latin1'), phpFloatString(x), String(x));
    assert.equal(out[end], 0xff);
    return true;
  };
  for (const x of [12.5, 0.0012, -88.5, 0.625, 7, 1e-4, 2147483647, 0.1, 99999.999]) assert.ok(check(x), `fast path for ${x}`);
  for (const x of [0, -0, NaN, Infinity, -Infinity, 1e-5, 9.99e-5, 0.1 + 0.2, 1e20, 2 ** 31, Math.PI, 1 / 3])
    assert.ok(!check(x), `no fast path for ${x}`);
  let seed = 7;
  const next = (n: number): number => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed % n;
  };
  for (let i = 0; i < 50000; i++) {
    const x = (next(2) ? -1 : 1) * (next(2147483647) / 10 ** next(12));
    check(x);
    check(x * 1.0000001);
  }
});
