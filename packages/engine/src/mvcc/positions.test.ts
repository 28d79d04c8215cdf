// Row position encodings: every container round-trips, and the first format's base64 lists still decode.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { emptyBits } from './deletes.js';
import { countPositions, decodePositions, encodePositions, markPositions } from './positions.js';

const sortedRows = fc.uniqueArray(fc.integer({ min: 0, max: 5000 }), { maxLength: 400 }).map((a) => Uint32Array.from(a.sort((x, y) => x - y)));
// gaps of every varint length, up to the largest u32 position
const wideRows = fc
  .uniqueArray(fc.oneof(fc.integer({ min: 0, max: 2 ** 32 - 1 }), fc.constantFrom(0, 127, 128, 16_383, 16_384, 2 ** 21, 2 ** 28, 2 ** 32 - 1)), { maxLength: 60 })
  .map((a) => Uint32Array.from(a.sort((x, y) => x - y)));
const runs = fc
  .array(fc.tuple(fc.integer({ min: 0, max: 50 }), fc.integer({ min: 1, max: 300 })), { maxLength: 8 })
  .map((rs) => {
    const out: number[] = [];
    let at = 0;
    for (const [gap, n] of rs) {
      at += gap + 1;
      for (let i = 0; i < n; i++) out.push(at++);
    }
    return Uint32Array.from(out);
  });

describe('row positions', () => {
  it('round-trip in whichever container is smallest (list, runs, bitmap, gaps)', () => {
    fc.assert(
      fc.property(fc.oneof(sortedRows, runs), (rows) => {
        const enc = encodePositions(rows);
        expect([...decodePositions(enc)]).toEqual([...rows]);
        expect(countPositions(enc)).toBe(rows.length);
        const bits = emptyBits(6000);
        bits[0] = 1; // row 0 already set
        expect(markPositions(bits, enc)).toBe(rows.length - (rows[0] === 0 ? 1 : 0));
        const set = new Set([0, ...rows]);
        const got = Array.from({ length: 6000 }, (_, r) => ((bits[r >> 3]! >> (r & 7)) & 1) === 1);
        expect(got).toEqual(Array.from({ length: 6000 }, (_, r) => set.has(r)));
      }),
      { numRuns: 60 },
    );
    fc.assert(
      fc.property(wideRows, (rows) => {
        const enc = encodePositions(rows);
        expect([...decodePositions(enc)]).toEqual([...rows]);
        expect(countPositions(enc)).toBe(rows.length);
      }),
      { numRuns: 200 },
    );
  });

  it('picks runs for a range, gaps for a sparse scatter, a bitmap for a dense one, a list for huge gaps', () => {
    expect(encodePositions(Uint32Array.from({ length: 1000 }, (_, i) => 500 + i))[0]).toBe(1);
    const scatter = encodePositions(Uint32Array.of(3, 900, 70_000));
    expect([scatter[0], scatter.length]).toEqual([3, 4 + 1 + 2 + 3]);
    expect(encodePositions(Uint32Array.of(2 ** 32 - 1))[0]).toBe(0); // 4 bytes of list, 5 of gaps
    expect(encodePositions(Uint32Array.from({ length: 500 }, (_, i) => 3 * i))[0]).toBe(2);
    expect(encodePositions(new Uint32Array(0)).length).toBe(4);
  });

  it('reads the first format: base64 of a little-endian u32 list', () => {
    const legacy = Buffer.from(Uint32Array.of(1, 5, 9).buffer).toString('base64');
    expect([...decodePositions(legacy)]).toEqual([1, 5, 9]);
    const bits = emptyBits(16);
    expect(markPositions(bits, legacy)).toBe(3);
    expect(countPositions(legacy)).toBe(3);
  });
});
