import fc from 'fast-check';
import wkx from 'wkx';
import { describe, expect, it } from 'vitest';
import { bboxOf, readGeometry } from './parse.js';
import { geoTest, isWkbPoint, isWktPoint } from './predicate.js';

const hexagon = 'POLYGON((-45 20, -30 20, -22 32, -30 44, -45 44, -53 32, -45 20))';
const utf8 = (s: string) => new TextEncoder().encode(s);

// every encoding of one geometry a row can hold, with the box the writer stores beside it
function encodings(wkt: string): { bytes: Uint8Array; wkb: boolean }[] {
  const g = wkx.Geometry.parse(wkt);
  const ewkb = wkx.Geometry.parse(`SRID=4326;${wkt}`);
  const be = g.toWkb();
  return [
    { bytes: new Uint8Array(g.toWkb()), wkb: true },
    { bytes: new Uint8Array(ewkb.toEwkb()), wkb: true },
    { bytes: bigEndian(new Uint8Array(be)), wkb: true },
    { bytes: utf8(wkt), wkb: false },
    { bytes: utf8(`  ${wkt.toLowerCase()}`), wkb: false },
  ];
}

// a 2D WKB point re-encoded big-endian (other shapes unchanged)
function bigEndian(le: Uint8Array): Uint8Array {
  if (le.length !== 21) return le;
  const v = new DataView(le.buffer, le.byteOffset, 21);
  const out = new Uint8Array(21);
  const w = new DataView(out.buffer);
  w.setUint8(0, 0);
  w.setUint32(1, v.getUint32(1, true), false);
  w.setFloat64(5, v.getFloat64(5, true), false);
  w.setFloat64(13, v.getFloat64(13, true), false);
  return out;
}

describe('geoTest.row', () => {
  it('recognises Point encodings only (WKB/EWKB/ISO Z, WKT any case), not MULTIPOINT or POLYGON', () => {
    expect(isWkbPoint(new Uint8Array(wkx.Geometry.parse('POINT(1 2)').toWkb()), 0)).toBe(true);
    expect(isWkbPoint(new Uint8Array(wkx.Geometry.parse('SRID=4326;POINT(1 2)').toEwkb()), 0)).toBe(true);
    const z = new Uint8Array(21 + 8);
    new DataView(z.buffer).setUint8(0, 1);
    new DataView(z.buffer).setUint32(1, 1001, true);
    expect(isWkbPoint(z, 0)).toBe(true);
    expect(isWkbPoint(new Uint8Array(wkx.Geometry.parse('MULTIPOINT((1 2))').toWkb()), 0)).toBe(false);
    expect(isWkbPoint(new Uint8Array(wkx.Geometry.parse('POLYGON((0 0, 1 0, 1 1, 0 0))').toWkb()), 0)).toBe(false);
    expect(isWktPoint(utf8(' \tpoint (1 2)'), 0, 13)).toBe(true);
    expect(isWktPoint(utf8('MULTIPOINT(1 2)'), 0, 15)).toBe(false);
    expect(isWktPoint(utf8('POLYGON((0 0, 1 0, 1 1, 0 0))'), 0, 29)).toBe(false);
    expect(isWktPoint(utf8('POIN'), 0, 4)).toBe(false);
  });

  it('gives what jsts gives on the parsed geometry, for points on/in/off a hexagon and other shapes', () => {
    const coordinate = fc.oneof(
      fc.tuple(fc.double({ min: -60, max: -15, noNaN: true }), fc.double({ min: 15, max: 50, noNaN: true })),
      // vertices and edge points of the hexagon (boundary: intersect but not within)
      fc.constantFrom([-45, 20], [-30, 20], [-37.5, 20], [-53, 32], [-26, 26], [-45, 44]),
    );
    const shape = fc.tuple(coordinate, fc.constantFrom('point', 'multipoint', 'box'));
    fc.assert(
      fc.property(shape, fc.constantFrom('intersect', 'within', 'contains') , ([[x, y], kind], op) => {
        const wkt = kind === 'point' ? `POINT(${x} ${y})` : kind === 'multipoint' ? `MULTIPOINT((${x} ${y}), (${x} ${y}))` : `POLYGON((${x} ${y}, ${x + 1} ${y}, ${x + 1} ${y + 1}, ${x} ${y}))`;
        const test = geoTest(op, hexagon);
        const want = test.geometry(readGeometry(wkt));
        const [x0, y0, x1, y1] = bboxOf(readGeometry(wkt))!;
        const [xs0, ys0, xs1, ys1] = [x0, y0, x1, y1].map((v) => Float64Array.of(v)) as [Float64Array, Float64Array, Float64Array, Float64Array];
        for (const { bytes, wkb } of encodings(wkt)) {
          // box sides as separate arrays (any partition) and, for Points, as one (points-only partition)
          expect(test.row(bytes, 0, bytes.length, wkb, xs0, ys0, xs1, ys1, 0)).toBe(want);
          if (kind === 'point') expect(test.row(bytes, 0, bytes.length, wkb, xs0, ys0, xs0, ys0, 0)).toBe(want);
          expect(test.bytes(bytes, 0, bytes.length, wkb)).toBe(want);
        }
      }),
      { numRuns: 300 },
    );
  });
});
