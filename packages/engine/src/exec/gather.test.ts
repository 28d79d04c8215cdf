import fc from 'fast-check';
import { Bool, type DataType, Float32, Float64, Int16, Int64, Int8, LargeUtf8, Utf8, makeData, makeVector, vectorFromArray } from 'apache-arrow';
import { describe, expect, it } from 'vitest';
import { compactInPlace, gather } from './gather.js';
import { taskColumn } from './arrays.js';

const layouts: Array<{ type: DataType; gen: fc.Arbitrary<unknown> }> = [
  { type: new Float64(), gen: fc.option(fc.double(), { nil: null }) },
  { type: new Float32(), gen: fc.option(fc.float({ noNaN: true }), { nil: null }) },
  { type: new Int64(), gen: fc.option(fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }), { nil: null }) },
  { type: new Int16(), gen: fc.option(fc.integer({ min: -32768, max: 32767 }), { nil: null }) },
  { type: new Int8(), gen: fc.option(fc.integer({ min: -128, max: 127 }), { nil: null }) },
  { type: new Bool(), gen: fc.option(fc.boolean(), { nil: null }) },
  { type: new Utf8(), gen: fc.option(fc.string(), { nil: null }) },
  { type: new LargeUtf8(), gen: fc.option(fc.string(), { nil: null }) },
];

describe('gather', () => {
  it.each(layouts.map((l) => [String(l.type), l] as const))('picks the selected %s rows bit-exactly', (_n, { type, gen }) => {
    fc.assert(
      fc.property(fc.array(gen, { minLength: 1, maxLength: 80 }), fc.array(fc.boolean(), { minLength: 80, maxLength: 80 }), (values, picks) => {
        const data = vectorFromArray(values, type as never).data[0]!;
        const sel = Int32Array.from(values.flatMap((_, i) => (picks[i] ? [i] : [])));
        const col = taskColumn(data);
        const out = gather(col, sel, sel.length);
        const got = makeVector(makeData({ type, length: sel.length, nullCount: out.nullCount, nullBitmap: out.validity ?? undefined, data: out.values, valueOffsets: out.offsets ?? undefined } as never));
        const all = [...makeVector(data)];
        expect([...got]).toEqual([...sel].map((i) => all[i]));
      }),
      { numRuns: 80 },
    );
  });

  it.each(layouts.map((l) => [String(l.type), l] as const))('compacts the selected %s rows of an owned chunk in place', (_n, { type, gen }) => {
    fc.assert(
      fc.property(fc.array(gen, { minLength: 1, maxLength: 80 }), fc.array(fc.boolean(), { minLength: 80, maxLength: 80 }), (values, picks) => {
        const data = vectorFromArray(values, type as never).data[0]!;
        const all = [...makeVector(data)];
        const sel = Int32Array.from(values.flatMap((_, i) => (picks[i] ? [i] : [])));
        const col = taskColumn(data);
        const out = compactInPlace(col, sel, sel.length);
        expect((out.values as Uint8Array).buffer).toBe((col.values as Uint8Array).buffer); // no copy
        const got = makeVector(makeData({ type, length: sel.length, nullCount: out.nullCount, nullBitmap: out.validity ?? undefined, data: out.values, valueOffsets: out.offsets ?? undefined } as never));
        expect([...got]).toEqual([...sel].map((i) => all[i]));
      }),
      { numRuns: 80 },
    );
  });
});
