import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { selectKth } from './select-kth.js';

const special = fc.constantFrom(Number.NaN, 0, -0, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, 1, -1);
const value = fc.oneof(fc.double(), special, fc.integer({ min: -3, max: 3 }));

describe('selectKth', () => {
  it('gives what sort() puts at index k, whatever the values (NaN, ±0, ±Infinity, many equal)', () => {
    fc.assert(
      fc.property(fc.array(value, { minLength: 1, maxLength: 400 }), fc.nat(), (list, at) => {
        const k = at % list.length;
        const expected = Float64Array.from(list).sort()[k]!;
        expect(Object.is(selectKth(Float64Array.from(list), k), expected)).toBe(true);
      }),
      { numRuns: 400 },
    );
  });

  it('finds the median of sorted, reversed and organ-pipe inputs', () => {
    const n = 10_001;
    const shapes = [
      Float64Array.from({ length: n }, (_, i) => i),
      Float64Array.from({ length: n }, (_, i) => n - i),
      Float64Array.from({ length: n }, (_, i) => Math.min(i, n - i)),
      Float64Array.from({ length: n }, (_, i) => i % 2),
    ];
    for (const values of shapes) {
      const expected = Float64Array.from(values).sort()[n >> 1]!;
      expect(selectKth(values, n >> 1)).toBe(expected);
    }
  });

  it('refuses an index outside the array', () => {
    expect(() => selectKth(new Float64Array(3), 3)).toThrow(/outside 0..2/);
    expect(() => selectKth(new Float64Array(0), 0)).toThrow(RangeError);
  });
});
