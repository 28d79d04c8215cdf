// Exact geometry predicates against one query geometry, prepared once and reused for every row.
import type IndexedPointInAreaLocator from 'jsts/org/locationtech/jts/algorithm/locate/IndexedPointInAreaLocator.js';
import type Coordinate from 'jsts/org/locationtech/jts/geom/Coordinate.js';
import { jsts } from './lib.js';
import { HaloclineError } from '../errors.js';
import { factory, type Geometry, readGeometry, topologyProblem } from './parse.js';

/** The exact operators: the row's geometry R against the query geometry Q. */
export type GeoOp = 'intersect' | 'contains' | 'within';

/**
 * A row test for one operator and query geometry. Semantics are jsts's (JTS's) DE-9IM predicates:
 * `intersect` = R.intersects(Q) (boundaries touching count), `within` = R.within(Q) (a point on
 * Q's boundary is NOT within), `contains` = R.contains(Q). Coordinates are planar degrees: a
 * polygon is not split at the antimeridian (one spanning 170°..-170° covers the 340° in between).
 */
export interface GeoTest {
  /** A point row (longitude, latitude). */
  point(x: number, y: number): boolean;
  /** A geometry row stored as WKB (`wkb`) or UTF-8 WKT bytes `data[start, end)`. */
  bytes(data: Uint8Array, start: number, end: number, wkb: boolean): boolean;
  /**
   * Row `i` of a geometry column with its stored box columns. A point is tested on its box (the
   * point) without decoding: every row when the box columns are one array for xmin/xmax and
   * ymin/ymax (a partition of Points only, see `bbox.ts`), else a row whose box is a point and
   * whose encoding says Point. Anything else as `bytes`.
   */
  row(data: Uint8Array, start: number, end: number, wkb: boolean, xmin: Float64Array, ymin: Float64Array, xmax: Float64Array, ymax: Float64Array, i: number): boolean;
  /** Any parsed row geometry. */
  geometry(g: Geometry): boolean;
}

/**
 * Builds the test once: Q is parsed, and for an areal Q an IndexedPointInAreaLocator (an interval
 * tree over Q's edges) classifies point rows without allocating.
 * @example
 * geoTest('within', 'POLYGON((0 0, 10 0, 10 10, 0 0))').point(5, 1) // true
 */
export function geoTest(op: GeoOp, wkt: string): GeoTest {
  const query = readGeometry(wkt);
  const Relate = jsts<RelateOps>('operation/relate/RelateOp.js');
  const Coord = jsts<typeof Coordinate>('geom/Coordinate.js');
  const Locator = jsts<typeof IndexedPointInAreaLocator>('algorithm/locate/IndexedPointInAreaLocator.js');
  // jsts 2.12's PreparedPolygon cannot be constructed (its base constructor runs with no geometry),
  // so non-point rows use the plain predicates, which still short-circuit on envelopes
  const relate = (g: Geometry): boolean => {
    if (op === 'intersect') return Relate.intersects(g, query);
    if (op === 'within') return Relate.contains(query, g);
    return Relate.contains(g, query);
  };
  const geometry = (g: Geometry): boolean => {
    try {
      return relate(g);
    } catch (e) {
      // a stored geometry that parses but is not topologically valid (e.g. a self-intersecting ring)
      const why = topologyProblem(g) ?? (e as Error).message;
      throw new HaloclineError('InvalidData', `'${op}' cannot be evaluated on a stored geometry that is not valid (${why})`, { value: (g as unknown as { toString(): string }).toString().slice(0, 200) });
    }
  };
  const areal = (query as unknown as { getDimension(): number }).getDimension() === 2 && query.getArea() > 0;
  const locator = areal ? (new Locator(query) as unknown as Locator) : null;
  const at = new Coord(0, 0) as unknown as { x: number; y: number };
  const point = (x: number, y: number): boolean => {
    if (locator) {
      at.x = x;
      at.y = y;
      const where = locator.locate(at);
      return op === 'intersect' ? where !== EXTERIOR : op === 'within' ? where === INTERIOR : false;
    }
    return geometry(factory().createPoint(new Coord(x, y)) as unknown as Geometry);
  };
  const decoder = new TextDecoder();
  const bytes = (data: Uint8Array, start: number, end: number, wkb: boolean): boolean => {
    if (wkb && end - start === 21 && isWkbPoint(data, start)) {
      const view = new DataView(data.buffer, data.byteOffset + start, 21);
      const little = data[start] === 1;
      const [x, y] = [view.getFloat64(5, little), view.getFloat64(13, little)];
      if (!Number.isNaN(x) && !Number.isNaN(y)) return point(x, y);
    }
    return geometry(readGeometry(wkb ? data.subarray(start, end) : decoder.decode(data.subarray(start, end))));
  };
  return {
    point,
    geometry,
    bytes,
    row: (data, start, end, wkb, xmin, ymin, xmax, ymax, i) => {
      const [x, y] = [xmin[i]!, ymin[i]!];
      if (xmax === xmin && ymax === ymin) return point(x, y);
      // a non-empty point's box is the point (an empty one's is NaN, never equal)
      if (x === xmax[i] && y === ymax[i] && (wkb ? end - start >= 5 && isWkbPoint(data, start) : isWktPoint(data, start, end))) return point(x, y);
      return bytes(data, start, end, wkb);
    },
  };
}

/** Whether WKB at `data[start]` is a Point: ISO types 1, 1001, 2001, 3001, EWKB flags in the top bits. */
export function isWkbPoint(data: Uint8Array, start: number): boolean {
  const little = data[start] === 1;
  const type = little
    ? data[start + 1]! | (data[start + 2]! << 8) | (data[start + 3]! << 16) | (data[start + 4]! << 24)
    : (data[start + 1]! << 24) | (data[start + 2]! << 16) | (data[start + 3]! << 8) | data[start + 4]!;
  return (type & 0x0fffffff) % 1000 === 1;
}

/** Whether UTF-8 WKT `data[start, end)` is a Point (`POINT`, any case, after leading whitespace; not MULTIPOINT). */
export function isWktPoint(data: Uint8Array, start: number, end: number): boolean {
  let i = start;
  while (i < end && (data[i] === 32 || (data[i]! >= 9 && data[i]! <= 13))) i++;
  if (end - i < 5) return false;
  for (let k = 0; k < 5; k++) if ((data[i + k]! | 0x20) !== POINT[k]) return false;
  return true;
}

const POINT = [...'point'].map((c) => c.charCodeAt(0));

// jsts's RelateOp directly (its `monkey.js`, which puts these on Geometry, also loads overlay,
// buffer, union and more)
interface RelateOps {
  intersects(a: Geometry, b: Geometry): boolean;
  contains(a: Geometry, b: Geometry): boolean;
}
interface Locator {
  locate(c: { x: number; y: number }): number;
}

// org.locationtech.jts.geom.Location
const INTERIOR = 0;
const EXTERIOR = 2;
