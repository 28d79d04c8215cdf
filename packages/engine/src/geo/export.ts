// Streams a select result as GeoJSON features or FlatGeobuf (through the flatgeobuf package).
import { type Field, type RecordBatch, type Schema, Type } from 'apache-arrow';
import { magicbytes } from 'flatgeobuf/lib/mjs/constants.js';
import { ColumnType } from 'flatgeobuf/lib/mjs/flat-geobuf/column-type.js';
import { GeometryType } from 'flatgeobuf/lib/mjs/flat-geobuf/geometry-type.js';
import { buildFeature } from 'flatgeobuf/lib/mjs/generic/feature.js';
import { Column } from 'flatgeobuf/lib/mjs/flat-geobuf/column.js';
import { Crs } from 'flatgeobuf/lib/mjs/flat-geobuf/crs.js';
import { Header } from 'flatgeobuf/lib/mjs/flat-geobuf/header.js';
import * as flatbuffers from 'flatbuffers';
import { parseGeometry as fgbGeometry } from 'flatgeobuf/lib/mjs/geojson/geometry.js';
import type { HeaderMeta } from 'flatgeobuf/lib/mjs/header-meta.js';
import type { ColumnMeta } from 'flatgeobuf/lib/mjs/column-meta.js';
import { batchToRows } from '../data/rows.js';
import { HaloclineError } from '../errors.js';
import { firstSpatial } from './columns.js';
import { parseGeometry } from './parse.js';

/** A GeoJSON Feature: the geometry of the row and its other columns as properties. */
export interface GeoJsonFeature {
  readonly type: 'Feature';
  readonly geometry: { type: string; coordinates?: unknown; geometries?: unknown } | null;
  readonly properties: Record<string, unknown>;
}

/**
 * The rows of `batches` as GeoJSON features. The geometry is the first geometry column (WKT or
 * WKB), else the first latitude/longitude pair as a Point; the other columns become properties
 * (int64 as a number when exact, else a string; timestamps and dates as ISO strings; binary as base64).
 * @example
 * for await (const f of geojsonFeatures(schema, cursor.batches(), 'ctd')) console.log(f.geometry)
 */
export async function* geojsonFeatures(schema: Schema, batches: AsyncIterable<RecordBatch>, table: string): AsyncGenerator<GeoJsonFeature> {
  const spatial = spatialOf(schema, table);
  const skip = new Set('geometry' in spatial ? [spatial.geometry] : [spatial.point.lat, spatial.point.lon]);
  for await (const batch of batches) {
    for (const row of batchToRows(batch)) {
      const properties: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(row)) if (!skip.has(k)) properties[k] = jsonValue(v);
      yield { type: 'Feature', geometry: geometryOf(row, spatial), properties };
    }
  }
}

/**
 * The rows of `batches` as a FlatGeobuf stream: magic bytes and header first (no spatial index,
 * feature count 0 = unknown, as a streamed file must be), then one chunk per record batch.
 */
export async function* flatgeobufChunks(schema: Schema, batches: AsyncIterable<RecordBatch>, table: string): AsyncGenerator<Uint8Array> {
  const spatial = spatialOf(schema, table);
  const header = headerOf(schema, spatial);
  const features = geojsonFeatures(schema, batches, table);
  const first = await features.next();
  yield concat([magicbytes, headerBytes(header)]);
  if (first.done) return;
  let chunk: Uint8Array[] = [encode(first.value, header)];
  for await (const f of features) {
    chunk.push(encode(f, header));
    if (chunk.length >= 4096) {
      yield concat(chunk);
      chunk = [];
    }
  }
  if (chunk.length > 0) yield concat(chunk);
}

type Spatial = NonNullable<ReturnType<typeof firstSpatial>>;

function spatialOf(schema: Schema, table: string): Spatial {
  const spatial = firstSpatial(schema);
  if (!spatial) throw new HaloclineError('InvalidArgument', 'the result has no geometry column and no latitude/longitude pair to export', { table });
  return spatial;
}

function geometryOf(row: Record<string, unknown>, spatial: Spatial): GeoJsonFeature['geometry'] {
  if ('geometry' in spatial) {
    const v = row[spatial.geometry];
    return v === null || v === undefined ? null : (parseGeometry(v as string | Uint8Array).toGeoJSON() as GeoJsonFeature['geometry']);
  }
  const [lat, lon] = [row[spatial.point.lat], row[spatial.point.lon]];
  return lat === null || lon === null ? null : { type: 'Point', coordinates: [lon, lat] };
}

function jsonValue(v: unknown): unknown {
  if (typeof v === 'bigint') return Number.isSafeInteger(Number(v)) ? Number(v) : String(v);
  if (v instanceof Date) return v.toISOString();
  if (v instanceof Uint8Array) return Buffer.from(v).toString('base64');
  return v;
}

function headerOf(schema: Schema, spatial: Spatial): HeaderMeta {
  const skip = new Set('geometry' in spatial ? [spatial.geometry] : [spatial.point.lat, spatial.point.lon]);
  const columns = schema.fields.filter((f) => !skip.has(f.name)).map(columnMeta);
  const geometryType = 'geometry' in spatial ? GeometryType.Unknown : GeometryType.Point;
  return { geometryType, columns, envelope: null, featuresCount: 0, indexNodeSize: 0, crs: null, title: null, description: null, metadata: null };
}

function columnMeta(field: Field): ColumnMeta {
  return { name: field.name, type: columnType(field), title: null, description: null, width: -1, precision: -1, scale: -1, nullable: field.nullable, unique: false, primary_key: false };
}

function columnType(field: Field): ColumnType {
  const t = field.type as { typeId: Type; bitWidth?: number; isSigned?: boolean; precision?: number };
  switch (t.typeId) {
    case Type.Bool:
      return ColumnType.Bool;
    case Type.Int:
      return t.bitWidth === 64 ? ColumnType.Long : t.bitWidth === 32 && !t.isSigned ? ColumnType.Long : ColumnType.Int;
    case Type.Float:
      return ColumnType.Double;
    case Type.Timestamp:
    case Type.Date:
      return ColumnType.DateTime;
    case Type.Binary:
    case Type.LargeBinary:
      return ColumnType.String; // base64 text
    default:
      return ColumnType.String;
  }
}

function encode(f: GeoJsonFeature, header: HeaderMeta): Uint8Array {
  const properties: Record<string, unknown> = {};
  for (const c of header.columns ?? []) {
    const v = f.properties[c.name];
    properties[c.name] = v === undefined ? null : c.type === ColumnType.Long && typeof v === 'string' ? BigInt(v) : v;
  }
  const geometry = f.geometry ? fgbGeometry(f.geometry as never) : { xy: [], type: GeometryType.Unknown };
  return buildFeature(geometry as never, properties as never, header);
}

/**
 * The size-prefixed header table, EPSG:4326, no index. flatgeobuf's reader views coordinates as
 * Float64Arrays in place, so each feature must start 8-byte aligned in the file (feature tables
 * are multiples of 8 bytes); the title's length is chosen to make magic + header a multiple of 8.
 */
function headerBytes(header: HeaderMeta): Uint8Array {
  for (let pad = 0; ; pad++) {
    const b = new flatbuffers.Builder();
    const columns = Header.createColumnsVector(b, (header.columns ?? []).map((c) => {
      const name = b.createString(c.name);
      Column.startColumn(b);
      Column.addName(b, name);
      Column.addType(b, c.type);
      Column.addNullable(b, c.nullable);
      return Column.endColumn(b);
    }));
    const [name, title] = [b.createString('halocline'), b.createString(`halocline export${' '.repeat(pad)}`)];
    Crs.startCrs(b);
    Crs.addCode(b, 4326);
    const crs = Crs.endCrs(b);
    Header.startHeader(b);
    Header.addName(b, name);
    Header.addTitle(b, title);
    Header.addCrs(b, crs);
    Header.addFeaturesCount(b, 0n);
    Header.addGeometryType(b, header.geometryType);
    Header.addIndexNodeSize(b, 0);
    Header.addColumns(b, columns);
    b.finishSizePrefixed(Header.endHeader(b));
    const bytes = b.asUint8Array();
    if ((magicbytes.length + bytes.length) % 8 === 0) return bytes;
  }
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
