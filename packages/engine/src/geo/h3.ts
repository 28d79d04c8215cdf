// H3 cells as exact numbers: a res-15 cell kept per row, its parent at any resolution by arithmetic.
import type Centroid from 'jsts/org/locationtech/jts/algorithm/Centroid.js';
import { h3, jsts } from './lib.js';
import type { Geometry } from './parse.js';

/**
 * An H3 cell of resolution `res` as an exact integer number: its base cell and its `res` digits
 * (7 + 3·res ≤ 52 bits), so cells group in typed arrays and hash tables without strings.
 * @example
 * keyCell(cellKey(latLngToCell(48.85, 2.35, 5), 5), 5) // '851fb467fffffff'
 */
export function cellKey(cell: string, res: number): number {
  // the hex halves as h3-js's h3IndexToSplitLong reads them, without its per-call validation regex
  // (a cell from latLngToCell is well-formed; on the first h3 query this is one call per row)
  const hi = parseInt(cell.slice(0, -8), 16);
  const lo = parseInt(cell.slice(-8), 16);
  return Math.floor(((hi & 0xfffff) * 2 ** 32 + lo) / SHIFT[res]!);
}

/** The key of the resolution-`res` cell containing a coordinate (degrees), as h3-js's latLngToCell. */
export function pointKey(lat: number, lon: number, res: number): number {
  return cellKey(h3().latLngToCell(lat, lon, res), res);
}

/** The cell id string of a key at resolution `res` (unused digits are 7, as H3 requires). */
export function keyCell(key: number, res: number): string {
  const shift = SHIFT[res]!;
  const bits = key * shift + (shift - 1);
  const hi = 0x08000000 | (res << 20) | Math.floor(bits / 2 ** 32);
  const lo = bits % 2 ** 32;
  return h3().splitLongToH3Index(lo, hi);
}

/** Every H3 index is 15 hex digits (4 zero bits, then mode 1: the first digit is always 8). */
export const CELL_ID_LENGTH = 15;

/**
 * Writes the id string of a key at resolution `res` as ASCII hex into `out[at, at + 15)`, the bytes
 * of `keyCell(key, res)` without making a string (result columns of many cells are built this way).
 */
export function writeCellId(key: number, res: number, out: Uint8Array, at: number): void {
  const shift = SHIFT[res]!;
  const bits = key * shift + (shift - 1);
  const hi = 0x08000000 | (res << 20) | Math.floor(bits / 2 ** 32);
  const lo = bits % 2 ** 32;
  for (let d = 6; d >= 0; d--) out[at + 6 - d] = HEX[(hi >>> (4 * d)) & 15]!;
  for (let d = 7; d >= 0; d--) out[at + 14 - d] = HEX[(lo >>> (4 * d)) & 15]!;
}

const HEX = new TextEncoder().encode('0123456789abcdef');

/** Checks an h3 resolution argument; returns an error message or null. */
export function resolutionProblem(res: unknown): string | null {
  return Number.isInteger(res) && (res as number) >= 0 && (res as number) <= 15 ? null : `the H3 resolution must be an integer 0..15, got ${String(res)}`;
}

/**
 * The cells of a geometry at `res`: a point's cell; for polygons every cell whose centroid lies
 * inside (h3-js polygonToCells), or the polygon centroid's cell when none does; a line's centroid's
 * cell. Multi-geometries and collections: the union of their parts'.
 */
export function geometryCells(g: Geometry, res: number): string[] {
  const type = (g as unknown as { getGeometryType(): string }).getGeometryType();
  const parts = g.getNumGeometries();
  if (type.startsWith('Multi') || type === 'GeometryCollection') {
    const cells = new Set<string>();
    for (let i = 0; i < parts; i++) for (const c of geometryCells(g.getGeometryN(i) as Geometry, res)) cells.add(c);
    return [...cells];
  }
  if (type === 'Point') {
    const c = (g as unknown as { getCoordinate(): { x: number; y: number } | null }).getCoordinate();
    return c ? [h3().latLngToCell(c.y, c.x, res)] : [];
  }
  if (type === 'Polygon') {
    const cells = h3().polygonToCells(rings(g), res, true);
    if (cells.length > 0) return cells;
  }
  if ((g as unknown as { isEmpty(): boolean }).isEmpty()) return [];
  const c = (jsts<typeof Centroid>('algorithm/Centroid.js') as unknown as { getCentroid(g: Geometry): { x: number; y: number } }).getCentroid(g);
  return [h3().latLngToCell(c.y, c.x, res)];
}

const SHIFT = Array.from({ length: 16 }, (_, r) => 8 ** (15 - r));

function rings(polygon: Geometry): number[][][] {
  const p = polygon as unknown as { getExteriorRing(): Ring; getNumInteriorRing(): number; getInteriorRingN(i: number): Ring };
  const ring = (r: Ring): number[][] => r.getCoordinates().map((c) => [c.x, c.y]);
  const out = [ring(p.getExteriorRing())];
  for (let i = 0; i < p.getNumInteriorRing(); i++) out.push(ring(p.getInteriorRingN(i)));
  return out;
}
interface Ring {
  getCoordinates(): { x: number; y: number }[];
}
