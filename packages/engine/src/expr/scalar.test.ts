// Scalar comparisons: strings order as their UTF-8 bytes without being encoded.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareBytes, compareScalars, compareText } from './scalar.js';

const encoder = new TextEncoder();
// code units anywhere, often near the surrogates: lone ones, pairs, and the BMP above them
const text = fc
  .array(fc.oneof(fc.integer({ min: 0, max: 0x7f }), fc.integer({ min: 0xd7f0, max: 0xe010 }), fc.integer({ min: 0, max: 0xffff })), { maxLength: 8 })
  .map((units) => String.fromCharCode(...units));

describe('compareText', () => {
  it('orders any two strings as compareBytes orders their UTF-8 encodings (a lone surrogate as U+FFFD)', () => {
    fc.assert(
      fc.property(text, text, (a, b) => {
        expect(Math.sign(compareText(a, b))).toBe(Math.sign(compareBytes(encoder.encode(a), encoder.encode(b))));
        expect(compareScalars('<', a, b)).toBe(compareBytes(encoder.encode(a), encoder.encode(b)) < 0);
      }),
      { numRuns: 2000 },
    );
    expect(compareText('\uFFFF', '😀')).toBeLessThan(0); // UTF-16 code units order them the other way
    expect(compareText('\uD800', '\uFFFD')).toBe(0);
    expect(compareText('ab', 'a')).toBeGreaterThan(0);
  });
});
