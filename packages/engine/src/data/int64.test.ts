import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { floorDivInt64, getInt64, putInt64, putScaled, wordsOf } from './int64.js';

const slot = () => {
  const a = new BigInt64Array(1);
  return { a, w: wordsOf(a) };
};
const floorDiv = (a: bigint, d: bigint) => (a >= 0n || a % d === 0n ? a / d : a / d - 1n);

describe('int64 words', () => {
  it('putInt64 writes any integral double of the int64 range exactly', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }), (b) => {
        const v = Number(b);
        if (!(v < 2 ** 63)) return;
        const { a, w } = slot();
        putInt64(w, 0, v);
        expect(a[0]).toBe(BigInt(v));
      }),
    );
    const u = new BigUint64Array(1);
    putInt64(wordsOf(u), 0, 2 ** 64 - 2048);
    expect(u[0]).toBe(2n ** 64n - 2048n);
  });
  it('getInt64 reads safe integers back', () => {
    fc.assert(
      fc.property(fc.maxSafeInteger(), (v) => {
        const { w } = slot();
        putInt64(w, 0, v);
        expect(getInt64(w, 0)).toBe(v);
      }),
    );
  });
  it('putScaled is v * factor + add, or false on overflow', () => {
    fc.assert(
      fc.property(fc.maxSafeInteger(), fc.constantFrom(1, 1000, 1_000_000), fc.nat(999_999), (v, factor, add0) => {
        const add = add0 % factor;
        const { a, w } = slot();
        const exact = BigInt(v) * BigInt(factor) + BigInt(add);
        const fits = exact === BigInt.asIntN(64, exact);
        expect(putScaled(w, 0, v, factor, add)).toBe(fits);
        if (fits) expect(a[0]).toBe(exact);
      }),
    );
  });
  it('floorDivInt64 rounds toward minus infinity', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }), fc.constantFrom(1000n, 1_000_000n), (b, d) => {
        const { a, w } = slot();
        a[0] = b;
        const q = floorDiv(b, d);
        if (q > BigInt(Number.MAX_SAFE_INTEGER) || q < -BigInt(Number.MAX_SAFE_INTEGER)) return;
        expect(floorDivInt64(w, 0, Number(d))).toBe(Number(q));
      }),
    );
    const { a, w } = slot();
    a[0] = -1n;
    expect(floorDivInt64(w, 0, 1000)).toBe(-1);
  });
});
