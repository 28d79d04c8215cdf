import * as arrow from 'apache-arrow';
import { type Data, type DataType, makeData } from 'apache-arrow';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { castTemporal } from './temporal.js';

// timestamps to a coarser unit: the double fast path must agree with exact BigInt division everywhere
describe('castTemporal to a coarser unit', () => {
  const units: [DataType, bigint][] = [
    [new arrow.TimestampSecond(), 1_000_000_000n],
    [new arrow.TimestampMillisecond(), 1_000_000n],
    [new arrow.TimestampMicrosecond(), 1_000n],
    [new arrow.TimestampNanosecond(), 1n],
  ];
  const value = fc.oneof(
    fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }),
    fc.bigInt({ min: -(2n ** 53n), max: 2n ** 53n }),
    fc.bigInt({ min: -(10n ** 12n), max: 10n ** 12n }).map((v) => v * 1_000_000n),
    fc.bigInt({ min: -(10n ** 15n), max: 10n ** 15n }).map((v) => v * 1_000n),
    fc.constantFrom(0n, -1000n, 2n ** 52n * 1000n, -(2n ** 52n) * 1000n, 4503599627370496000n),
  );
  it('divides exactly or fails at the first row the exact cast fails, whatever the values and nulls', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 3 }), fc.integer({ min: 0, max: 3 }), fc.array(fc.option(value, { freq: 6 }), { maxLength: 40 }), (a, b, rows) => {
        const [from, fromNs] = units[Math.max(a, b)]!;
        const [to, toNs] = units[Math.min(a, b)]!;
        const n = rows.length;
        const bits = new Uint8Array(Math.ceil(n / 8) + 1);
        rows.forEach((v, i) => v !== null && (bits[i >> 3]! |= 1 << (i & 7)));
        const nullCount = rows.filter((v) => v === null).length;
        const data = makeData({ type: from as arrow.TimestampSecond, length: n, nullCount, nullBitmap: bits, data: BigInt64Array.from(rows, (v) => v ?? 12345n) }) as Data;
        const k = toNs / fromNs;
        const bad = rows.findIndex((v) => v !== null && v % k !== 0n);
        let got: Data | null = null;
        let row: number | undefined;
        try {
          got = castTemporal(data, to);
        } catch (e) {
          row = (e as { row?: number }).row;
        }
        if (bad >= 0) {
          expect(row).toBe(bad);
          return;
        }
        expect(row).toBeUndefined();
        expect(Array.from(got!.values as BigInt64Array, (v, i) => (rows[i] === null ? null : v))).toEqual(rows.map((v) => (v === null ? null : v / k)));
      }),
      { numRuns: 400 },
    );
  });
});
