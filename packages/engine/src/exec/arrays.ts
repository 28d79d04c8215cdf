// Views an Arrow Data chunk as the plain typed arrays that kernels take.
import type { Data } from 'apache-arrow';
import type { ColumnArrays } from '../expr/kernel.js';

/**
 * The kernel view of one Arrow chunk. Requires `data.offset === 0` (chunks read from partition
 * files and produced by the scan always are); the validity bitmap is dropped when there are no nulls.
 */
export function columnArrays(data: Data): ColumnArrays {
  if (data.offset !== 0) throw new Error(`columnArrays: chunk offset ${data.offset} is not 0`);
  return {
    values: data.values as ColumnArrays['values'],
    validity: data.nullCount > 0 ? (data.nullBitmap ?? null) : null,
    offsets: (data.valueOffsets as Int32Array | BigInt64Array | undefined) ?? null,
  };
}
