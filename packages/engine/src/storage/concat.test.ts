import fc from 'fast-check';
import { Bool, type DataType, Float64, Int64, LargeUtf8, Utf8, makeVector, vectorFromArray } from 'apache-arrow';
import { describe, expect, it } from 'vitest';
import { concatData } from './concat.js';

const layouts: Array<{ type: DataType; gen: fc.Arbitrary<unknown> }> = [
  { type: new Float64(), gen: fc.option(fc.double({ noNaN: true }), { nil: null }) },
  { type: new Int64(), gen: fc.option(fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }), { nil: null }) },
  { type: new Bool(), gen: fc.option(fc.boolean(), { nil: null }) },
  { type: new Utf8(), gen: fc.option(fc.string(), { nil: null }) },
  { type: new LargeUtf8(), gen: fc.option(fc.string(), { nil: null }) },
];

describe('concatData', () => {
  it.each(layouts.map((l) => [String(l.type), l] as const))('joins sliced %s chunks with nulls into one offset-0 chunk', (_name, { type, gen }) => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.array(gen, { maxLength: 40 }), fc.nat(), fc.nat()), { minLength: 1, maxLength: 5 }), (parts) => {
        const chunks = parts.map(([values, a, b]) => {
          const data = vectorFromArray(values, type as never).data[0]!;
          const from = values.length ? a % values.length : 0;
          return data.slice(from, values.length ? b % (values.length - from + 1) : 0);
        });
        const expected = chunks.flatMap((c) => [...makeVector(c)]);
        const out = concatData(type, chunks);
        expect(out.offset).toBe(0);
        expect([...makeVector(out)]).toEqual(expected);
        // the same into shared memory: every new buffer comes from the allocator
        const made: SharedArrayBuffer[] = [];
        const shared = concatData(type, chunks, (bytes) => {
          made.push(new SharedArrayBuffer(bytes));
          return made.at(-1)!;
        });
        expect([...makeVector(shared)]).toEqual(expected);
        const lone = chunks.filter((c) => c.length > 0);
        if (lone.length === 1 && lone[0]!.offset === 0) expect(shared).toBe(lone[0]);
        else if (shared.length > 0) for (const b of [shared.values, shared.valueOffsets, shared.nullCount > 0 ? shared.nullBitmap : undefined]) if (b) expect(made).toContain(b.buffer);
      }),
      { numRuns: 60 },
    );
  });

  it.each(layouts.map((l) => [String(l.type), l] as const))('joins %s chunks into dirty buffers from an allocator exactly as into fresh ones', (_name, { type, gen }) => {
    fc.assert(
      fc.property(fc.array(fc.array(gen, { maxLength: 40 }), { minLength: 2, maxLength: 4 }), fc.integer({ min: 0, max: 255 }), (parts, junk) => {
        const chunks = parts.map((values) => vectorFromArray(values, type as never).data[0]!);
        // reused memory holds whatever the last user left, and may be larger than asked for
        const taken: number[] = [];
        const alloc = (bytes: number) => {
          taken.push(bytes);
          const b = new SharedArrayBuffer(bytes + 24);
          new Uint8Array(b).fill(junk);
          return b;
        };
        const out = concatData(type, chunks, alloc);
        expect([...makeVector(out)]).toEqual([...makeVector(concatData(type, chunks))]);
        if (chunks.some((c) => c.length > 0) && chunks.filter((c) => c.length > 0).length > 1) expect(taken.length).toBeGreaterThan(0);
      }),
      { numRuns: 60 },
    );
  });
});
