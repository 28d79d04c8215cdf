import fc from 'fast-check';
import { Bool, type DataType, Float32, Float64, Int16, Int64, Int8, LargeUtf8, Utf8, makeData, makeVector, vectorFromArray } from 'apache-arrow';
import { describe, expect, it } from 'vitest';
import { compactInPlace, gather, runOf } from './gather.js';
import { taskColumn } from './arrays.js';

const layouts: Array<{ type: DataType; gen: fc.Arbitrary<unknown> }> = [
  { type: new Float64(), gen: fc.option(fc.double(), { nil: null }) },
  { type: new Float32(), gen: fc.option(fc.float({ noNaN: true }), { nil: null }) },
  { type: new Int64(), gen: fc.option(fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }), { nil: null }) },
  { type: new Int16(), gen: fc.option(fc.integer({ min: -32768, max: 32767 }), { nil: null }) },
  { type: new Int8(), gen: fc.option(fc.integer({ min: -128, max: 127 }), { nil: null }) },
  { type: new Bool(), gen: fc.option(fc.boolean(), { nil: null }) },
  // strings past 64 bytes too: those are copied whole, the shorter ones four bytes at a time
  { type: new Utf8(), gen: fc.option(fc.string({ maxLength: 100 }), { nil: null }) },
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

  it('copies 8-byte values bit for bit, NaN bit patterns included, before and after the loop is optimised', () => {
    // int64 values whose bits are NaNs (quiet, signalling, negative) with payloads: a canonicalising copy would change them
    const nans = [0x7ff4000000000123n, 0x7ff8000000000001n, 0xfff8000000000abcn, 0xfff0000000000001n, 0x7ff0000000000001n].map((u) => BigInt.asIntN(64, u));
    const check = (rows: number) => {
      const values = new BigInt64Array(rows);
      for (let i = 0; i < rows; i++) values[i] = nans[i % nans.length]! + BigInt(i % 3);
      const data = makeData({ type: new Int64(), length: rows, nullCount: 0, data: values });
      const sel = Int32Array.from({ length: rows >> 1 }, (_, j) => 2 * j + (j % 2));
      const out = gather(taskColumn(data), sel, sel.length).values as BigInt64Array;
      expect(out).toBeInstanceOf(BigInt64Array);
      expect([...out]).toEqual([...sel].map((i) => values[i]));
    };
    check(11); // first calls: unoptimised code
    for (let k = 0; k < 300; k++) check(2000); // long enough to be optimised
    check(11);
  });

  it('copies values short and long (past 64 bytes), mixed in one column, in order', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.string({ maxLength: 8 }), fc.string({ minLength: 60, maxLength: 200 })), { minLength: 1, maxLength: 60 }), fc.array(fc.boolean(), { minLength: 60, maxLength: 60 }), (values, picks) => {
        const data = vectorFromArray(values, new Utf8()).data[0]!;
        const sel = Int32Array.from(values.flatMap((_, i) => (picks[i] ? [i] : [])));
        const out = gather(taskColumn(data), sel, sel.length);
        const got = makeVector(makeData({ type: new Utf8(), length: sel.length, nullCount: 0, data: out.values, valueOffsets: out.offsets! } as never));
        expect([...got]).toEqual([...sel].map((i) => values[i]));
      }),
      { numRuns: 100 },
    );
  });
});

describe('runOf', () => {
  it.each(layouts.map((l) => [String(l.type), l] as const))('views a run of %s rows without copying, or declines', (_n, { type, gen }) => {
    fc.assert(
      fc.property(fc.array(gen, { minLength: 1, maxLength: 80 }), fc.nat(), fc.nat(), fc.boolean(), (values, a, b, owned) => {
        const data = vectorFromArray(values, type as never).data[0]!;
        const first = a % values.length;
        const count = 1 + (b % (values.length - first));
        const col = { ...taskColumn(data), owned };
        const out = runOf(col, first, count);
        const declines = owned || col.validity !== null || col.width === 0 || (col.width === -1 && !(col.offsets instanceof Int32Array));
        if (declines) {
          expect(out).toBeNull();
          return;
        }
        expect(out).not.toBeNull();
        expect((out!.values as Uint8Array).buffer).toBe((col.values as Uint8Array).buffer); // a view
        if (out!.offsets) expect(out!.offsets[0]).toBe(0);
        const got = makeVector(makeData({ type, length: count, nullCount: 0, data: out!.values, valueOffsets: out!.offsets ?? undefined } as never));
        const all = [...makeVector(data)];
        expect([...got]).toEqual(all.slice(first, first + count));
      }),
      { numRuns: 80 },
    );
  });
});
