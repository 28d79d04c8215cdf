// The one geometry parsing module: WKT/WKB → wkx (strict) → jsts, coordinate ranges, bounding boxes.
import { createRequire } from 'node:module';
import type Geometry from 'jsts/org/locationtech/jts/geom/Geometry.js';
import type GeometryFactory from 'jsts/org/locationtech/jts/geom/GeometryFactory.js';
import type GeoJSONReader from 'jsts/org/locationtech/jts/io/GeoJSONReader.js';
import wkx from 'wkx';
import { jsts } from './lib.js';

export type { Geometry };

/** A bounding box [xmin, ymin, xmax, ymax] (longitude, latitude in degrees). */
export type BBox = readonly [number, number, number, number];

/**
 * Parses WKT (any case, any whitespace, optional `SRID=n;`) or WKB; throws an Error saying what is
 * wrong when the input is not exactly one geometry.
 * @example
 * parseGeometry('point (1 2)').toWkt() // 'POINT(1 2)'
 */
export function parseGeometry(value: string | Uint8Array): wkx.Geometry {
  if (typeof value === 'string') {
    const text = value.replace(/\s+/g, ' ').trim().toUpperCase();
    const parser = new WktParser(text);
    const geometry = parseWith(parser);
    const rest = text.slice(parser.position).trim();
    if (rest !== '') throw new Error(`unexpected text after the geometry: "${rest.slice(0, 20)}"`);
    return geometry;
  }
  const reader = new BinaryReader(Buffer.from(value.buffer, value.byteOffset, value.byteLength));
  const geometry = parseWith(reader);
  if (reader.position !== value.byteLength) throw new Error(`${value.byteLength - reader.position} bytes after the geometry`);
  return geometry;
}

/**
 * A geometry as a jsts Geometry, with every coordinate a finite longitude in [-180, 180] and
 * latitude in [-90, 90]; throws an Error saying what is wrong otherwise.
 * @example
 * readGeometry('POLYGON((0 0, 1 0, 1 1, 0 0))').getArea() // 0.5
 */
export function readGeometry(value: string | Uint8Array): Geometry {
  const geometry = toJsts(parseGeometry(value));
  checkCoordinates(geometry);
  return geometry;
}

/** Whether a parsed geometry is an empty Point: `POINT EMPTY` in WKT, NaN coordinates in WKB. */
export function isEmptyPoint(geometry: wkx.Geometry): boolean {
  if (!(geometry instanceof wkx.Point)) return false;
  return geometry.x === undefined || (Number.isNaN(geometry.x) && Number.isNaN(geometry.y));
}

/** The bounding box of a geometry; an empty geometry has none (null). */
export function bboxOf(geometry: Geometry): BBox | null {
  const e = geometry.getEnvelopeInternal();
  if (e.isNull()) return null;
  return [e.getMinX(), e.getMinY(), e.getMaxX(), e.getMaxY()];
}

/** Why `lat`/`lon` is not a valid coordinate, or null when it is. */
export function coordinateProblem(lon: number, lat: number): string | null {
  if (!Number.isFinite(lon) || lon < -180 || lon > 180) return `longitude ${lon} is not in [-180, 180]`;
  if (!Number.isFinite(lat) || lat < -90 || lat > 90) return `latitude ${lat} is not in [-90, 90]`;
  return null;
}

/** WKB bytes of a GeoJSON geometry object. */
export function geoJsonToWkb(geometry: object): Uint8Array {
  const buf = wkx.Geometry.parseGeoJSON(geometry).toWkb();
  return new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength);
}

let shared: { factory: GeometryFactory; reader: GeoJSONReader } | undefined;

/** The shared jsts factory (floating precision, SRID 0). */
export function factory(): GeometryFactory {
  return jstsIo().factory;
}

interface Cursor {
  position: number;
}
type Parser = new (value: string | Buffer) => Cursor;

const require = createRequire(import.meta.url);
const WktParser = require('wkx/lib/wktparser.js') as Parser;
const BinaryReader = require('wkx/lib/binaryreader.js') as Parser;
const parseWith = wkx.Geometry.parse as unknown as (source: Cursor) => wkx.Geometry;
const reader = (): GeoJSONReader => jstsIo().reader;

function jstsIo(): { factory: GeometryFactory; reader: GeoJSONReader } {
  if (!shared) {
    const factory = new (jsts<typeof GeometryFactory>('geom/GeometryFactory.js'))();
    shared = { factory, reader: new (jsts<typeof GeoJSONReader>('io/GeoJSONReader.js'))(factory) };
  }
  return shared;
}

// through GeoJSON, which has no empty Point or Polygon (jsts would read them as POINT(0 0) and fail
// on the polygon), so those are made directly, also inside collections
function toJsts(geometry: wkx.Geometry): Geometry {
  const f = factory() as unknown as EmptyFactory;
  if (isEmptyPoint(geometry)) return f.createPoint();
  if (geometry instanceof wkx.Polygon && geometry.exteriorRing.length === 0) return f.createPolygon();
  if (geometry instanceof wkx.GeometryCollection) return f.createGeometryCollection(geometry.geometries.map(toJsts));
  return reader().read(geometry.toGeoJSON()) as Geometry;
}

interface EmptyFactory {
  createPoint(): Geometry;
  createPolygon(): Geometry;
  createGeometryCollection(parts: Geometry[]): Geometry;
}

function checkCoordinates(geometry: Geometry): void {
  for (const c of (geometry as unknown as { getCoordinates(): { x: number; y: number }[] }).getCoordinates()) {
    const problem = coordinateProblem(c.x, c.y);
    if (problem) throw new Error(`coordinate (${c.x} ${c.y}): ${problem}`);
  }
}

/**
 * Why a geometry is not topologically valid (jsts IsValidOp: self-intersecting rings, holes
 * outside their shell, ...), with the location, or null when it is valid.
 */
export function topologyProblem(geometry: Geometry): string | null {
  const IsValidOp = jsts<new (g: Geometry) => { getValidationError(): { toString(): string } | null }>('operation/valid/IsValidOp.js');
  const error = new IsValidOp(geometry).getValidationError();
  return error === null ? null : error.toString();
}
