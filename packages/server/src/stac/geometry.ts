// GeoJSON geometries: structural validation, bounding boxes, and exact predicates through jsts.
import type Geometry from 'jsts/org/locationtech/jts/geom/Geometry.js';
import GeometryFactory from 'jsts/org/locationtech/jts/geom/GeometryFactory.js';
import GeoJSONReader from 'jsts/org/locationtech/jts/io/GeoJSONReader.js';

/** A GeoJSON geometry object (RFC 7946) that passed {@link checkGeometry}. */
export interface GeoJsonGeometry {
  readonly type: string;
  readonly coordinates?: unknown;
  readonly geometries?: readonly GeoJsonGeometry[];
}

/** [minX, minY, maxX, maxY] in degrees. */
export type Box = readonly [number, number, number, number];

const factory = new GeometryFactory();
const reader = new GeoJSONReader(factory);

/**
 * Why `value` is not a GeoJSON geometry (type, coordinate nesting, ring closure, and with `ranges`
 * longitudes in [-180, 180] and latitudes in [-90, 90]), or undefined when it is one.
 * @example
 * checkGeometry({ type: 'Point', coordinates: [200, 0] }, true) // 'coordinates[0]: longitude 200 is outside [-180, 180]'
 */
export function checkGeometry(value: unknown, ranges: boolean, nesting = 0): string | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'is not a GeoJSON geometry object';
  const g = value as { type?: unknown; coordinates?: unknown; geometries?: unknown };
  if (g.type === 'GeometryCollection') {
    if (!Array.isArray(g.geometries)) return 'GeometryCollection needs a geometries array';
    if (nesting >= 8) return 'GeometryCollections nest deeper than 8';
    for (const [i, part] of g.geometries.entries()) {
      const problem = checkGeometry(part, ranges, nesting + 1);
      if (problem) return `geometries[${i}]: ${problem}`;
    }
    return undefined;
  }
  const depth = DEPTH[g.type as string];
  if (depth === undefined) return `type ${JSON.stringify(g.type)} is not a GeoJSON geometry type (${Object.keys(DEPTH).join(', ')}, GeometryCollection)`;
  return checkCoordinates(g.coordinates, depth, g.type as string, ranges, 'coordinates');
}

/** The bounding box of a checked geometry, or undefined when it has no positions (empty). */
export function boxOf(g: GeoJsonGeometry): Box | undefined {
  const b = [Infinity, Infinity, -Infinity, -Infinity];
  const visit = (c: unknown): void => {
    if (!Array.isArray(c)) return;
    if (typeof c[0] === 'number') {
      const [x, y] = c as number[];
      if (x! < b[0]!) b[0] = x!;
      if (y! < b[1]!) b[1] = y!;
      if (x! > b[2]!) b[2] = x!;
      if (y! > b[3]!) b[3] = y!;
      return;
    }
    for (const child of c) visit(child);
  };
  const walk = (geom: GeoJsonGeometry): void => (geom.geometries ? geom.geometries.forEach(walk) : visit(geom.coordinates));
  walk(g);
  return b[0] === Infinity ? undefined : (b as unknown as Box);
}

const MULTI: Record<string, string> = { Point: 'MultiPoint', MultiPoint: 'MultiPoint', LineString: 'MultiLineString', MultiLineString: 'MultiLineString', Polygon: 'MultiPolygon', MultiPolygon: 'MultiPolygon' };

/**
 * A GeometryCollection whose parts (nested collections flattened) are all points, all lines or all
 * polygons, as the one multi-part geometry it is (a STAC item's geometry cannot be a GeometryCollection:
 * the item schema takes GeoJSON's Geometry.json); any other geometry as it is, a mixed collection too.
 * @example
 * asMultiPart({ type: 'GeometryCollection', geometries: [point(0, 0), point(1, 1)] }) // { type: 'MultiPoint', coordinates: [[0, 0], [1, 1]] }
 */
export function asMultiPart(g: GeoJsonGeometry): GeoJsonGeometry {
  if (g.type !== 'GeometryCollection') return g;
  const parts: GeoJsonGeometry[] = [];
  const walk = (x: GeoJsonGeometry): void => { if (x.type === 'GeometryCollection') for (const y of x.geometries ?? []) walk(y); else parts.push(x); };
  walk(g);
  const type = MULTI[parts[0]?.type ?? ''];
  if (type === undefined || parts.some((p) => MULTI[p.type] !== type)) return g;
  const coordinates = parts.flatMap((p) => (p.type === type ? (p.coordinates as unknown[]) : [p.coordinates]));
  return { type, coordinates };
}

/** The jsts geometry of a checked GeoJSON geometry. */
export function toJsts(g: GeoJsonGeometry): Geometry {
  return reader.read(g) as Geometry;
}

/** The jsts polygon (or point/line when degenerate) of a box; two parts when west > east (across the antimeridian). */
export function boxGeometry(b: Box): Geometry {
  const [x0, y0, x1, y1] = b;
  // west above east: the box crosses the antimeridian, its two parts either side of it
  if (x0 > x1) {
    const part = (w: number, e: number) => [[[w, y0], [e, y0], [e, y1], [w, y1], [w, y0]]];
    if (y0 === y1) return toJsts({ type: 'MultiLineString', coordinates: [[[x0, y0], [180, y0]], [[-180, y0], [x1, y0]]] });
    return toJsts({ type: 'MultiPolygon', coordinates: [part(x0, 180), part(-180, x1)] });
  }
  if (x0 === x1 && y0 === y1) return toJsts({ type: 'Point', coordinates: [x0, y0] });
  if (x0 === x1 || y0 === y1) return toJsts({ type: 'LineString', coordinates: [[x0, y0], [x1, y1]] });
  return toJsts({ type: 'Polygon', coordinates: [[[x0, y0], [x1, y0], [x1, y1], [x0, y1], [x0, y0]]] });
}

const DEPTH: Record<string, number> = { Point: 0, MultiPoint: 1, LineString: 1, MultiLineString: 2, Polygon: 2, MultiPolygon: 3 };

function checkCoordinates(c: unknown, depth: number, type: string, ranges: boolean, path: string): string | undefined {
  if (depth === 0) return checkPosition(c, ranges, path);
  if (!Array.isArray(c)) return `${path} must be an array (${type})`;
  const min = minLength(type, depth);
  if (c.length < min) return `${path} needs at least ${min} ${depth === 1 ? 'positions' : 'elements'} (${type})`;
  for (const [i, child] of c.entries()) {
    const problem = checkCoordinates(child, depth - 1, type, ranges, `${path}[${i}]`);
    if (problem) return problem;
  }
  if (depth === 1 && isRing(type) && !samePosition(c[0], c[c.length - 1])) return `${path} is a ring that does not close (first and last positions differ)`;
  return undefined;
}

function checkPosition(p: unknown, ranges: boolean, path: string): string | undefined {
  if (!Array.isArray(p) || p.length < 2 || p.length > 3 || !p.every((n) => typeof n === 'number' && Number.isFinite(n))) {
    return `${path} must be a position [longitude, latitude] or [longitude, latitude, height] of finite numbers`;
  }
  if (ranges && Math.abs(p[0] as number) > 180) return `${path}: longitude ${p[0]} is outside [-180, 180]`;
  if (ranges && Math.abs(p[1] as number) > 90) return `${path}: latitude ${p[1]} is outside [-90, 90]`;
  return undefined;
}

function minLength(type: string, depth: number): number {
  if (depth === 1 && isRing(type)) return 4;
  if (depth === 1 && type.endsWith('LineString')) return 2;
  return type.startsWith('Multi') && depth === DEPTH[type] ? 0 : 1;
}

function isRing(type: string): boolean {
  return type === 'Polygon' || type === 'MultiPolygon';
}

function samePosition(a: unknown, b: unknown): boolean {
  return Array.isArray(a) && Array.isArray(b) && a[0] === b[0] && a[1] === b[1];
}
