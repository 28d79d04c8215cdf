import fc from 'fast-check';
import { Binary, Bool, type DataType, Float64, Int32, Int64, LargeUtf8, Utf8, makeVector, vectorFromArray } from 'apache-arrow';
import { describe, expect, it } from 'vitest';
import { concatData } from '../storage/concat.js';
import { zoneStats } from '../storage/zonemap.js';
import { ColumnAccumulator } from './accumulate.js';

const layouts: Array<{ type: DataType; gen: fc.Arbitrary<unknown> }> = [
  { type: new Float64(), gen: fc.option(fc.double(), { nil: null }) },
  { type: new Int32(), gen: fc.option(fc.integer(), { nil: null }) },
  { type: new Int64(), gen: fc.option(fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }), { nil: null }) },
  { type: new Bool(), gen: fc.option(fc.boolean(), { nil: null }) },
  { type: new Utf8(), gen: fc.option(fc.string({ unit: 'binary' }), { nil: null }) },
  { type: new LargeUtf8(), gen: fc.option(fc.string(), { nil: null }) },
  { type: new Binary(), gen: fc.option(fc.uint8Array({ maxLength: 5 }), { nil: null }) },
];

describe('ColumnAccumulator', () => {
  it.each(layouts.map((l) => [String(l.type), l] as const))('gives the rows and zone map one pass over the joined %s chunks gives', (_name, { type, gen }) => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.array(gen, { maxLength: 3000 }), fc.nat(), fc.nat()), { minLength: 1, maxLength: 6 }), (parts) => {
        const chunks = parts.map(([values, a, b]) => {
          const data = vectorFromArray(values, type as never).data[0]!;
          const from = values.length ? a % values.length : 0;
          return data.slice(from, values.length ? b % (values.length - from + 1) : 0);
        });
        const acc = new ColumnAccumulator(type);
        for (const c of chunks) acc.append(c);
        const { data, zone } = acc.finish();
        const joined = concatData(type, chunks);
        expect(data.offset).toBe(0);
        expect([...makeVector(data)]).toEqual([...makeVector(joined)]);
        expect(data.nullCount).toBe(joined.nullCount);
        const expected = zoneStats(joined);
        expect(zone).toEqual(joined.length === 0 ? { min: null, max: null, nullCount: 0, rows: 0 } : expected);
        // -0 and +0 compare equal: the first one seen is kept, as one pass keeps it
        if (typeof expected.min === 'number') expect(Object.is(zone.min, expected.min)).toBe(true);
      }),
      { numRuns: 40 },
    );
  });

  it('keeps fixed-width values, string bytes and offsets in shared memory (not counted against the heap)', () => {
    for (const type of [new Float64(), new Int64(), new Utf8(), new Binary()]) {
      const acc = new ColumnAccumulator(type);
      acc.reserve(5000);
      const values = Array.from({ length: 5000 }, (_, i) => (type instanceof Float64 ? i / 2 : type instanceof Int64 ? BigInt(i) : type instanceof Utf8 ? `s${i}` : Uint8Array.of(i & 255)));
      for (let at = 0; at < values.length; at += 1000) acc.append(vectorFromArray(values.slice(at, at + 1000), type as never).data[0]!);
      const { data } = acc.finish();
      expect(data.values.buffer, String(type)).toBeInstanceOf(SharedArrayBuffer);
      if (data.valueOffsets) expect(data.valueOffsets.buffer, String(type)).toBeInstanceOf(SharedArrayBuffer);
      expect([...makeVector(data)]).toEqual(values);
    }
  });
});
