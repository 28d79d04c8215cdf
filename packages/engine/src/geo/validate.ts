// Insert validation of spatial columns: geometry must parse with valid coordinates, lat/lon in range.
import type { Data, Field, RecordBatch, Schema } from 'apache-arrow';
import { fieldInfo } from '../schema/metadata.js';
import { type DataContext, describeValue, invalidData } from '../data/fail.js';
import { isValid } from '../data/layout.js';
import { geometryInput, isWkb, spatialColumns } from './columns.js';
import { coordinateProblem, readGeometry } from './parse.js';

/**
 * Throws InvalidData with the 0-based input row and the column for the first invalid geometry
 * (bad WKT/WKB, a coordinate outside [-180, 180] × [-90, 90]) or out-of-range latitude/longitude.
 * @example
 * checkSpatial(schema, batches, { table: 'ctd' }) // row 3, column "geom": geometry is not valid WKT ...
 */
export function checkSpatial(schema: Schema, batches: readonly RecordBatch[], ctx: DataContext, firstRow = 0): void {
  const { geometries } = spatialColumns(schema);
  const ranged = schema.fields.filter((f) => /^(latitude|longitude)$/.test(String(f.metadata.get('class') ?? '')));
  if (geometries.length === 0 && ranged.length === 0) return;
  let first = firstRow;
  for (const batch of batches) {
    for (const name of geometries) checkGeometries(schema, batch, name, first, ctx);
    for (const field of ranged) checkRange(batch, field.name, field.metadata.get('class') === 'latitude', first, ctx);
    first += batch.numRows;
  }
}

/**
 * Why one value of `field` fails the spatial checks of an insert (a geometry column's value that is
 * not valid WKT/WKB with valid coordinates, a latitude or longitude out of range), or null when it
 * passes (nulls and columns of no spatial class always do). `value` is what the column stores.
 * @example
 * spatialProblem(latField, 91) // 'latitude 91 is not in [-90, 90]'
 */
export function spatialProblem(field: Field, value: unknown): string | null {
  if (value === null || value === undefined) return null;
  const klass = fieldInfo(field).class;
  if (klass === 'latitude') return coordinateProblem(0, Number(value));
  if (klass === 'longitude') return coordinateProblem(Number(value), 0);
  if (klass !== 'geometry') return null;
  try {
    readGeometry(value as string | Uint8Array);
    return null;
  } catch (e) {
    return geometryMessage(value as string | Uint8Array, e);
  }
}

function checkGeometries(schema: Schema, batch: RecordBatch, name: string, first: number, ctx: DataContext): void {
  const wkb = isWkb(schema.fields.find((f) => f.name === name)!);
  for (const data of batch.getChild(name)!.data) {
    const validity = data.nullCount > 0 ? data.nullBitmap : null;
    for (let i = 0; i < data.length; i++) {
      if (validity && !isValid(validity, i)) continue;
      if (wkb && wkbPointProblem(data, i) === null) continue;
      const value = geometryInput(data, i, wkb);
      try {
        readGeometry(value);
      } catch (e) {
        throw invalidData(ctx, geometryMessage(value, e), { row: first + i, column: name });
      }
    }
  }
}

/** The message for a geometry value that does not parse (`e`: the parser's error). */
export function geometryMessage(value: string | Uint8Array, e: unknown): string {
  const what = typeof value === 'string' ? `WKT ${describeValue(value)}` : `WKB of ${value.length} bytes`;
  return `geometry is not valid ${what}: ${(e as Error).message}`;
}

function checkRange(batch: RecordBatch, name: string, latitude: boolean, first: number, ctx: DataContext): void {
  for (const data of batch.getChild(name)!.data) {
    const values = data.values as Float64Array | Float32Array;
    const validity = data.nullCount > 0 ? data.nullBitmap : null;
    for (let i = 0; i < data.length; i++) {
      const v = values[i]!;
      if (latitude ? v >= -90 && v <= 90 : v >= -180 && v <= 180) continue;
      if (validity && !isValid(validity, i)) continue;
      const problem = latitude ? coordinateProblem(0, v) : coordinateProblem(v, 0);
      throw invalidData(ctx, problem!, { row: first + i, column: name, value: v });
    }
  }
}

// a 2D WKB point (21 bytes) checked in place: null when it is one with valid coordinates
function wkbPointProblem(data: Data, i: number): string | null | undefined {
  const offsets = data.valueOffsets as Int32Array | BigInt64Array;
  const start = Number(offsets[i]!);
  if (Number(offsets[i + 1]!) - start !== 21) return undefined;
  const bytes = data.values as Uint8Array;
  const view = new DataView(bytes.buffer, bytes.byteOffset + start, 21);
  const little = view.getUint8(0) === 1;
  if (view.getUint8(0) > 1 || view.getUint32(1, little) !== 1) return undefined;
  return coordinateProblem(view.getFloat64(5, little), view.getFloat64(13, little));
}
