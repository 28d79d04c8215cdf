// Per-row bounding boxes of geometry columns, stored as hidden Float64 columns beside the rows.
import { type Data, Float64, type Schema } from 'apache-arrow';
import { fixedData } from '../data/layout.js';
import { geometryInput, isWkb, spatialColumns } from './columns.js';
import { bboxOf, readGeometry } from './parse.js';

/** The four sides of a bounding box, in the order of a `BBox`. */
export const SIDES = ['xmin', 'ymin', 'xmax', 'ymax'] as const;
export type Side = (typeof SIDES)[number];

/**
 * The name of the hidden column holding one side of the boxes of geometry column `column`. The NUL
 * byte keeps it apart from any column a schema can name; hidden columns never appear in results.
 */
export const bboxColumn = (column: string, side: Side): string => `${column}\u0000${side}`;

/** Whether a stored column name is a hidden (derived) one. */
export const isHidden = (name: string): boolean => name.includes('\u0000');

/**
 * The hidden columns derived from a partition's columns (in `schema` order): for every geometry
 * column, four Float64 columns xmin/ymin/xmax/ymax with the geometry's validity; an empty geometry
 * has a NaN box (which no box comparison matches). Values were validated at insert.
 * @example
 * derivedColumns(schema, columns) // [{ name: 'geom\u0000xmin', data }, ...]
 */
export function derivedColumns(schema: Schema, columns: readonly Data[]): { name: string; data: Data; sameAs?: string }[] {
  const out: { name: string; data: Data; sameAs?: string }[] = [];
  for (const name of spatialColumns(schema).geometries) {
    const i = schema.fields.findIndex((f) => f.name === name);
    const boxes = boxesOf(columns[i]!, isWkb(schema.fields[i]!));
    SIDES.forEach((side, s) => {
      const bitmap = columns[i]!.nullCount > 0 ? (columns[i]!.nullBitmap ?? undefined) : undefined;
      const data = fixedData(new Float64(), columns[i]!.length, boxes[s]!, bitmap, columns[i]!.nullCount);
      // a partition of points only: xmax is xmin and ymax is ymin, stored once
      const same = s >= 2 && boxes[s] === boxes[s - 2] ? bboxColumn(name, SIDES[s - 2]!) : undefined;
      out.push(same ? { name: bboxColumn(name, side), data, sameAs: same } : { name: bboxColumn(name, side), data });
    });
  }
  return out;
}

/**
 * The boxes of every row of a utf8/binary geometry chunk (offset 0), as four side arrays; when
 * every geometry is a Point (or null/empty), xmax and ymax are the xmin and ymin arrays themselves
 * (stored once; exact predicates then test every row as a point on its box, `predicate.ts`).
 */
export function boxesOf(data: Data, wkb: boolean): Float64Array[] {
  const n = data.length;
  const sides = SIDES.map(() => new Float64Array(n).fill(NaN));
  let points = true;
  const validity = data.nullCount > 0 ? data.nullBitmap : null;
  const offsets = data.valueOffsets as Int32Array | BigInt64Array;
  const bytes = data.values as Uint8Array;
  for (let i = 0; i < n; i++) {
    if (validity && ((validity[i >> 3]! >> (i & 7)) & 1) === 0) continue;
    if (wkb && wkbPoint(bytes, Number(offsets[i]!), Number(offsets[i + 1]!), sides, i)) continue;
    const geometry = readGeometry(geometryInput(data, i, wkb));
    const box = bboxOf(geometry);
    if (box) for (let s = 0; s < 4; s++) sides[s]![i] = box[s]!;
    // only Points: a degenerate line or polygon has a point box but not a point's predicates
    if (box && (box[0] !== box[2] || box[1] !== box[3] || (geometry as unknown as { getGeometryType(): string }).getGeometryType() !== 'Point')) points = false;
  }
  return points ? [sides[0]!, sides[1]!, sides[0]!, sides[1]!] : sides;
}

// a 2D WKB point (21 bytes) read in place, no parse; false for anything else
function wkbPoint(bytes: Uint8Array, start: number, end: number, sides: Float64Array[], i: number): boolean {
  if (end - start !== 21) return false;
  const view = new DataView(bytes.buffer, bytes.byteOffset + start, 21);
  const little = view.getUint8(0) === 1;
  if (view.getUint32(1, little) !== 1) return false;
  const [x, y] = [view.getFloat64(5, little), view.getFloat64(13, little)];
  if (Number.isNaN(x) || Number.isNaN(y)) return false; // POINT EMPTY
  sides[0]![i] = sides[2]![i] = x;
  sides[1]![i] = sides[3]![i] = y;
  return true;
}
