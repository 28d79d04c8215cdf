// Which columns of a schema are spatial: geometry columns, latitude/longitude point pairs.
import { type Data, type Field, type Schema, Type } from 'apache-arrow';
import { fieldInfo } from '../schema/metadata.js';

/** A point formed by a latitude and a longitude column. */
export interface PointColumns {
  readonly lat: string;
  readonly lon: string;
}

/** The spatial columns of a schema. */
export interface SpatialColumns {
  /** `class: geometry` columns (WKT in string columns, WKB in binary ones). */
  readonly geometries: readonly string[];
  /** The i-th latitude column pairs with the i-th longitude column, in schema order. */
  readonly points: readonly PointColumns[];
}

/**
 * The geometry columns and lat/lon pairs of `schema` (cached per schema object).
 * @example
 * spatialColumns(schema) // { geometries: ['geom'], points: [{ lat: 'lat', lon: 'lon' }] }
 */
export function spatialColumns(schema: Schema): SpatialColumns {
  let found = cache.get(schema);
  if (found) return found;
  const ofClass = (k: string): string[] => schema.fields.filter((f) => fieldInfo(f).class === k).map((f) => f.name);
  const [lats, lons] = [ofClass('latitude'), ofClass('longitude')];
  const points = lats.slice(0, lons.length).map((lat, i) => ({ lat, lon: lons[i]! }));
  found = { geometries: ofClass('geometry'), points };
  cache.set(schema, found);
  return found;
}

/** The first spatial column: a geometry column, else the first lat/lon pair, else null. */
export function firstSpatial(schema: Schema): { geometry: string } | { point: PointColumns } | null {
  const { geometries, points } = spatialColumns(schema);
  if (geometries[0] !== undefined) return { geometry: geometries[0] };
  return points[0] ? { point: points[0] } : null;
}

/** Whether the field holds WKB (binary) rather than WKT (string). */
export const isWkb = (field: Field): boolean => field.type.typeId === Type.Binary || field.type.typeId === Type.LargeBinary;

const cache = new WeakMap<Schema, SpatialColumns>();

/** Decodes row `i` of a utf8/binary chunk (offset 0) as the parser's input. */
export function geometryInput(data: Data, i: number, wkb: boolean): string | Uint8Array {
  const offsets = data.valueOffsets as Int32Array | BigInt64Array;
  const start = Number(offsets[i]!);
  const end = Number(offsets[i + 1]!);
  const bytes = (data.values as Uint8Array).subarray(start, end);
  return wkb ? bytes : decoder.decode(bytes);
}

const decoder = new TextDecoder();
