import { Bool, Float64, Int64, TimestampMillisecond, Utf8, makeData, vectorFromArray } from 'apache-arrow';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { zoneStats } from './zonemap.js';

describe('zoneStats', () => {
  it('skips nulls and NaN, counts the NaN of float columns, keeps the storage domain', () => {
    expect(zoneStats(vectorFromArray([3, null, NaN, -1, 7], new Float64()).data[0]!)).toEqual({ min: -1, max: 7, nullCount: 1, rows: 5, nanCount: 1 });
    expect(zoneStats(vectorFromArray([NaN, NaN], new Float64()).data[0]!)).toEqual({ min: null, max: null, nullCount: 0, rows: 2, nanCount: 2 });
    expect(zoneStats(vectorFromArray([5n, -9n, null], new Int64()).data[0]!)).toEqual({ min: -9n, max: 5n, nullCount: 1, rows: 3 });
    expect(zoneStats(vectorFromArray([new Date(2000), new Date(1000)], new TimestampMillisecond()).data[0]!)).toMatchObject({ min: 1000n, max: 2000n });
  });
  it('orders strings by code point and handles bool and all-null', () => {
    expect(zoneStats(vectorFromArray(['b', 'é', 'a', null, 'ab'], new Utf8()).data[0]!)).toMatchObject({ min: 'a', max: 'é', nullCount: 1 });
    expect(zoneStats(vectorFromArray([true, true], new Bool()).data[0]!)).toMatchObject({ min: true, max: true });
    expect(zoneStats(vectorFromArray([null, null], new Float64()).data[0]!)).toEqual({ min: null, max: null, nullCount: 2, rows: 2, nanCount: 0 });
  });
  it('finds the min and max string in UTF-8 byte order, empty strings and nulls included', () => {
    const utf8 = (x: string) => Buffer.from(x, 'utf8');
    // short strings, strings around the 8-byte keys, and long ones sharing a prefix
    const text = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 4 }),
      fc.string({ unit: 'binary', minLength: 6, maxLength: 10 }),
      fc.string({ unit: fc.constantFrom('a', 'b'), maxLength: 12 }),
      fc.string({ unit: fc.constantFrom('a', 'b'), maxLength: 5 }).map((x) => `abab${x}`),
      fc.string({ unit: fc.constantFrom('a', 'b', '\0', 'é'), maxLength: 12 }),
      fc.string({ unit: 'binary', maxLength: 6 }).map((x) => `PLAT-${x}`),
    );
    fc.assert(
      fc.property(fc.array(fc.option(text, { freq: 5 }), { minLength: 1, maxLength: 60 }), (values) => {
        const present = values.filter((v): v is string => v !== null).sort((a, b) => Buffer.compare(utf8(a), utf8(b)));
        const z = zoneStats(vectorFromArray(values, new Utf8()).data[0]!);
        expect([z.min, z.max]).toEqual(present.length === 0 ? [null, null] : [present[0], present.at(-1)]);
      }),
      { numRuns: 400 },
    );
  });
  it('agrees with a reduction for dense float64 and int64 columns (NaN, ±0, ±Infinity, extremes)', () => {
    const float = fc.oneof(fc.double(), fc.constantFrom(0, -0, NaN, Infinity, -Infinity));
    fc.assert(
      fc.property(fc.array(float, { maxLength: 50 }), (values) => {
        const present = values.filter((v) => !Number.isNaN(v));
        const z = zoneStats(makeData({ type: new Float64(), data: Float64Array.from(values) }));
        const min = present.length === 0 ? null : present.reduce((a, b) => (b < a ? b : a));
        const max = present.length === 0 ? null : present.reduce((a, b) => (b > a ? b : a));
        expect(z).toEqual({ min, max, nullCount: 0, rows: values.length, nanCount: values.length - present.length });
        if (min !== null) expect(Object.is(z.min, min) && Object.is(z.max, max)).toBe(true);
      }),
    );
    const wide = fc.oneof(fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }), fc.bigInt({ min: -5n, max: 5n }), fc.constantFrom(-(2n ** 63n), 2n ** 63n - 1n, 2n ** 32n, -(2n ** 32n)));
    fc.assert(
      fc.property(fc.array(wide, { maxLength: 50 }), (values) => {
        const z = zoneStats(makeData({ type: new Int64(), data: BigInt64Array.from(values) }));
        const min = values.length === 0 ? null : values.reduce((a, b) => (b < a ? b : a));
        const max = values.length === 0 ? null : values.reduce((a, b) => (b > a ? b : a));
        expect(z).toEqual({ min, max, nullCount: 0, rows: values.length });
      }),
    );
  });
});
