// The nesting scan that guards JSON bodies: brackets in strings do not count, escapes are honoured.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { deeperThan } from './json-depth.js';

// the real nesting of a parsed value
const depthOf = (v: unknown): number => (v !== null && typeof v === 'object' ? 1 + Math.max(0, ...Object.values(v).map(depthOf)) : 0);

describe('deeperThan', () => {
  it('finds the first bracket past the limit', () => {
    expect(deeperThan('[[[1]]]', 3)).toBe(-1);
    expect(deeperThan('[[[1]]]', 2)).toBe(2);
    expect(deeperThan('{"a":{"b":[1]}}', 2)).toBe(10);
  });

  it('skips brackets inside strings, escaped quotes included', () => {
    expect(deeperThan('["[[[[", "\\"[[[[", "\\\\", {"k]]": "{{{"}]', 2)).toBe(-1);
  });

  it('agrees with the depth of the parsed value for any JSON', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 6 }), fc.integer({ min: 0, max: 7 }), (value, max) => {
        const text = JSON.stringify(value);
        expect(deeperThan(text, max) >= 0).toBe(depthOf(value) > max);
      }),
    );
  });
});
