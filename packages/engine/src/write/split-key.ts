// The split key of a row for dynamic partitioning: one number per row, produced by one function per column kind.
import { type Data, type Field, Type } from 'apache-arrow';
import { isValid } from '../data/layout.js';
import { geometrySplitKeys } from '../geo/split.js';
import { fieldInfo } from '../schema/metadata.js';

/**
 * The split keys of every row of a column chunk (offset 0): one Float64Array per dimension the
 * column contributes to the k-d split, NaN for a null or a value without a key. Numeric and temporal
 * columns give one dimension, their values (lat/lon are plain float columns). A new column kind
 * plugs in here as one more entry: a geometry column gives two, its bounding-box centre x and y.
 */
export type KeyFunction = (data: Data) => Float64Array[];

/** The key function of an indexed column, or null when its kind has none (strings, booleans, binary). */
export function keyFunction(field: Field): KeyFunction | null {
  if (fieldInfo(field).class === 'geometry') return geometrySplitKeys(field);
  switch (field.type.typeId) {
    case Type.Int:
    case Type.Float:
    case Type.Date:
    case Type.Timestamp:
    case Type.Time:
    case Type.Duration:
      return numericKeys;
    default:
      return null;
  }
}

/** The indexed columns of a schema that have a key function, in schema order. */
export function splitColumns(fields: readonly Field[]): { readonly name: string; readonly key: KeyFunction }[] {
  return fields.flatMap((f) => {
    const key = fieldInfo(f).index ? keyFunction(f) : null;
    return key ? [{ name: f.name, key }] : [];
  });
}

// int64/timestamps as bigints are converted to the nearest double: keys only order rows
function numericKeys(data: Data): Float64Array[] {
  const n = data.length;
  const out = new Float64Array(n);
  const values = data.values as ArrayLike<number | bigint>;
  const stride = (data.type as { stride?: number }).stride ?? 1;
  const validity = data.nullCount > 0 ? (data.nullBitmap ?? null) : null;
  for (let i = 0; i < n; i++) out[i] = validity && !isValid(validity, i) ? Number.NaN : Number(values[i * stride]!);
  return [out];
}
