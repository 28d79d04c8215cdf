import fc from 'fast-check';
import { crc32 } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { crc32Combine } from './crc32.js';

describe('crc32Combine', () => {
  it('gives the CRC-32 of a concatenation from its parts', () => {
    const bytes = fc.uint8Array({ maxLength: 300 });
    fc.assert(
      fc.property(fc.array(bytes, { minLength: 1, maxLength: 6 }), (parts) => {
        const combined = parts.reduce((crc, part) => crc32Combine(crc, crc32(part), part.length), 0);
        expect(combined).toBe(crc32(Buffer.concat(parts)));
      }),
      { numRuns: 300 },
    );
  });

  it('handles empty parts, zeros and parts longer than 2^24 bytes', () => {
    const a = Buffer.from('halocline');
    expect(crc32Combine(crc32(a), crc32(new Uint8Array(0)), 0)).toBe(crc32(a));
    expect(crc32Combine(0, crc32(a), a.length)).toBe(crc32(a));
    const long = new Uint8Array((1 << 24) + 3);
    for (let i = 0; i < long.length; i += 4093) long[i] = i & 255;
    expect(crc32Combine(crc32(a), crc32(long), long.length)).toBe(crc32(Buffer.concat([a, long])));
  });
});
