import fc from 'fast-check';
import { cellToParent, getPentagons, getRes0Cells, getResolution, latLngToCell } from 'h3-js';
import { describe, expect, it } from 'vitest';
import { CELL_ID_LENGTH, cellKey, keyCell, writeCellId } from './h3.js';

const RESOLUTIONS = Array.from({ length: 16 }, (_, r) => r);
// the reference: the 64-bit index's bits below the mode/resolution fields, shifted past the unused digits
const bigKey = (cell: string, res: number): number => Number((BigInt(`0x${cell}`) & ((1n << 52n) - 1n)) >> BigInt(3 * (15 - res)));

// the id as writeCellId writes it, at an offset into a larger buffer
function idBytes(key: number, res: number): string {
  const out = new Uint8Array(CELL_ID_LENGTH + 3).fill(0x2a);
  writeCellId(key, res, out, 2);
  expect([out[0], out[1], out[CELL_ID_LENGTH + 2]]).toEqual([0x2a, 0x2a, 0x2a]);
  return new TextDecoder().decode(out.subarray(2, 2 + CELL_ID_LENGTH));
}

describe('h3 cell keys', () => {
  it('round-trip every resolution 0..15 exactly, and order as the id strings do', () => {
    const point = fc.tuple(fc.double({ min: -90, max: 90, noNaN: true }), fc.double({ min: -180, max: 180, noNaN: true }));
    fc.assert(
      fc.property(fc.array(point, { minLength: 2, maxLength: 8 }), fc.constantFrom(...RESOLUTIONS), (points, res) => {
        const cells = points.map(([lat, lon]) => latLngToCell(lat, lon, res));
        for (const cell of cells) {
          const key = cellKey(cell, res);
          expect(Number.isSafeInteger(key)).toBe(true);
          expect(key).toBe(bigKey(cell, res));
          expect(keyCell(key, res)).toBe(cell);
          expect(idBytes(key, res)).toBe(cell);
        }
        const byKey = [...cells].sort((a, b) => cellKey(a, res) - cellKey(b, res));
        expect(byKey).toEqual([...cells].sort());
      }),
      { numRuns: 400 },
    );
  });

  it('round-trip all 122 base cells, every pentagon at every resolution, and their parents', () => {
    for (const cell of getRes0Cells()) expect(keyCell(cellKey(cell, 0), 0)).toBe(cell);
    for (const res of RESOLUTIONS) {
      const pentagons = getPentagons(res);
      expect(pentagons).toHaveLength(12);
      for (const cell of pentagons) {
        expect(getResolution(cell)).toBe(res);
        expect(keyCell(cellKey(cell, res), res)).toBe(cell);
        expect(idBytes(cellKey(cell, res), res)).toBe(cell);
        for (let up = 0; up < res; up++) expect(keyCell(cellKey(cellToParent(cell, up), up), up)).toBe(cellToParent(cell, up));
      }
    }
  });

  it('keep the extreme keys exact: the last base cell at resolution 15 with every digit 6', () => {
    const cell = '8ff3db6db6db6db'; // mode 1, resolution 15, base cell 121, fifteen digits 6
    const key = cellKey(cell, 15);
    expect(key).toBe(bigKey(cell, 15));
    expect(keyCell(key, 15)).toBe(cell);
    expect(idBytes(key, 15)).toBe(cell);
  });
});
