// The contract between compiled filters and the scan: plain typed arrays in, a selection out.

/**
 * One column of one partition as plain typed arrays, exactly Arrow's physical layout with offset 0:
 * - fixed-width types: `values` is the typed array (Float64Array, Int32Array, BigInt64Array, ...);
 *   timestamps and date64 are BigInt64Array in the column's unit, date32 is Int32Array of days;
 * - bool: `values` is the LSB-first bit-packed Uint8Array;
 * - utf8/binary: `values` is the data bytes, `offsets` the Int32Array (BigInt64Array for large types);
 * - `validity` is the LSB-first validity bitmap, or null when the chunk has no nulls.
 * Buffers may live in a SharedArrayBuffer; kernels never write to them.
 */
export interface ColumnArrays {
  readonly values: ArrayLike<unknown> & { readonly length: number };
  readonly validity: Uint8Array | null;
  readonly offsets: Int32Array | BigInt64Array | null;
}

/**
 * A compiled filter over `length` rows. `cols[i]` holds the column named `columns[i]` of the
 * CompiledFilter. With `out`, writes the indices of the rows where the predicate is TRUE (not
 * false, not null) in ascending order and returns how many; with `out === null`, only counts.
 */
export type FilterKernel = (cols: readonly ColumnArrays[], length: number, out: Int32Array | null) => number;

/** Zone map of one column in one partition. `min`/`max` are null when every value is null. */
export interface ZoneStats {
  readonly min: number | bigint | string | boolean | null;
  readonly max: number | bigint | string | boolean | null;
  readonly nullCount: number;
  readonly rows: number;
  /** Float columns: how many values are NaN (absent in older partitions: NaN may occur). */
  readonly nanCount?: number;
}

/** Zone maps of a partition, by column name. */
export type ZoneMaps = Readonly<Record<string, ZoneStats>>;
