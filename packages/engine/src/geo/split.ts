// Per-row split keys of a spatial column, for dynamic k-d partitioning on `index` columns.
import type { Data, Schema } from 'apache-arrow';
import { boxesOf } from './bbox.js';
import { isWkb } from './columns.js';

/**
 * The keys that k-d partitioning splits a geometry column on: each row's bounding-box centre
 * (x = longitude, y = latitude), NaN for null or empty geometries (put them on one side). A
 * partitioner with `index` on a geometry column splits on x and y alternately, as on two number
 * columns; latitude/longitude float columns need nothing special (they split like any number).
 * Plugs in where the partitioner reads an index column's values (transactions issue, k-d split).
 * @example
 * const { x, y } = spatialSplitKeys(schema, columns, 'geom'); // median of x splits first
 */
export function spatialSplitKeys(schema: Schema, columns: readonly Data[], column: string): { x: Float64Array; y: Float64Array } {
  const i = schema.fields.findIndex((f) => f.name === column);
  if (i < 0) throw new Error(`spatialSplitKeys: no column "${column}"`);
  const [xmin, ymin, xmax, ymax] = boxesOf(columns[i]!, isWkb(schema.fields[i]!));
  const x = new Float64Array(xmin!.length);
  const y = new Float64Array(xmin!.length);
  for (let r = 0; r < x.length; r++) {
    x[r] = (xmin![r]! + xmax![r]!) / 2;
    y[r] = (ymin![r]! + ymax![r]!) / 2;
  }
  return { x, y };
}
