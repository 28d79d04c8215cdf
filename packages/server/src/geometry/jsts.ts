// A typed facade over jsts (the team's geometry library): reading GeoJSON/WKT and exact predicates.
import 'jsts/org/locationtech/jts/monkey.js';
import GeoJSONReader from 'jsts/org/locationtech/jts/io/GeoJSONReader.js';
import WKTReader from 'jsts/org/locationtech/jts/io/WKTReader.js';

/** An axis-aligned bounding box in rbush's shape. */
export interface BBox {
  readonly minX: number;
  readonly minY: number;
  readonly maxX: number;
  readonly maxY: number;
}

/** A jsts envelope (bounding box). */
export interface Envelope {
  getMinX(): number;
  getMinY(): number;
  getMaxX(): number;
  getMaxY(): number;
  intersects(other: Envelope): boolean;
}

/** The jsts geometry methods the server uses (monkey.js adds the predicates to Geometry). */
export interface Geom {
  intersects(other: Geom): boolean;
  within(other: Geom): boolean;
  contains(other: Geom): boolean;
  equalsTopo(other: Geom): boolean;
  isEmpty(): boolean;
  getEnvelopeInternal(): Envelope;
}


const geoJsonReader = new GeoJSONReader(undefined as never);
const wktReader = new WKTReader(undefined as never);

/** Reads a (validated) GeoJSON geometry. */
export function fromGeoJson(g: object): Geom {
  return geoJsonReader.read(g) as Geom;
}

/** Reads WKT; throws on malformed text. */
export function fromWkt(text: string): Geom {
  return wktReader.read(text) as unknown as Geom;
}

/** The bounding box of a geometry. */
export function bboxOf(g: Geom): BBox {
  const e = g.getEnvelopeInternal();
  return { minX: e.getMinX(), minY: e.getMinY(), maxX: e.getMaxX(), maxY: e.getMaxY() };
}
