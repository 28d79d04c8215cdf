// Views an Arrow Data chunk as the plain typed arrays that kernels and scans take.
import { type Data, type DataType, Type, makeData } from 'apache-arrow';
import type { ColumnArrays } from '../expr/kernel.js';
import type { ResultColumn, TaskColumn } from './task.js';
import { sharedBuffer } from './shared-memory.js';

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

/** The scan view of one Arrow chunk: its kernel arrays plus what gather needs. */
export function taskColumn(data: Data): TaskColumn {
  return { ...columnArrays(data), nullCount: data.nullCount, width: valueWidth(data.type) };
}

/** Byte width of a fixed-width type, 0 for bit-packed bool, -1 for variable-length types. */
export function valueWidth(type: DataType): number {
  switch (type.typeId) {
    case Type.Bool:
      return 0;
    case Type.Utf8:
    case Type.LargeUtf8:
    case Type.Binary:
    case Type.LargeBinary:
      return -1;
    default:
      return (type.ArrayType as { BYTES_PER_ELEMENT: number }).BYTES_PER_ELEMENT * ((type as { stride?: number }).stride ?? 1);
  }
}

/**
 * A copy of `a` (same element type) in a SharedArrayBuffer, so another thread can read it in place;
 * `alloc` gives the buffer (at least the bytes asked for; a pool's may be larger), else a fresh one.
 */
export function sharedCopy<T extends ArrayBufferView>(a: T, alloc: (bytes: number) => SharedArrayBuffer = sharedBuffer): T {
  const Ctor = a.constructor as new (b: SharedArrayBuffer, at: number, length: number) => T & { set(v: ArrayLike<unknown>): void };
  const out = new Ctor(alloc(a.byteLength), 0, (a as unknown as { length: number }).length);
  out.set(a as unknown as ArrayLike<unknown>);
  return out;
}

/** A scan's result column (gathered rows) as an Arrow chunk of `type` and `length` rows. */
export function resultData(type: DataType, length: number, c: ResultColumn): Data {
  return makeData({
    type,
    length,
    nullCount: c.nullCount,
    nullBitmap: c.validity ?? undefined,
    data: c.values,
    valueOffsets: c.offsets ?? undefined,
  } as never);
}
