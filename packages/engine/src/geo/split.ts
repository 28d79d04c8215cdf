// Per-row split keys of a geometry column, for dynamic k-d partitioning on `index` columns.
import type { Data, Field } from 'apache-arrow';
import { boxesOf } from './bbox.js';
import { isWkb } from './columns.js';

/**
 * The keys k-d partitioning splits a geometry column on: two dimensions, each row's bounding-box
 * centre x (longitude) and y (latitude), NaN for null or empty geometries. `write/split-key.ts`
 * uses it for indexed `class: geometry` columns, so a time-ordered append of positions still yields
 * spatially tight partitions; latitude/longitude float columns split like any number.
 * @example
 * const [x, y] = geometrySplitKeys(field)(chunk)
 */
export function geometrySplitKeys(field: Field): (data: Data) => Float64Array[] {
  const wkb = isWkb(field);
  return (data) => {
    const [xmin, ymin, xmax, ymax] = boxesOf(data, wkb);
    const x = new Float64Array(data.length);
    const y = new Float64Array(data.length);
    for (let r = 0; r < x.length; r++) {
      x[r] = (xmin![r]! + xmax![r]!) / 2;
      y[r] = (ymin![r]! + ymax![r]!) / 2;
    }
    return [x, y];
  };
}
