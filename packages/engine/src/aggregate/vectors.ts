// Result columns of an aggregate built straight from JS values (one pass, no per-value builder calls).
import { Binary, Bool, type DataType, Float64, Utf8, type Vector, makeData, makeVector, vectorFromArray } from 'apache-arrow';
import { CELL_ID_LENGTH, writeCellId } from '../geo/h3.js';
import type { KeyValue } from './partial.js';

/** A Float64 column of `n` values `at(0..n)`; null where the value is null. */
export function float64Vector(n: number, at: (i: number) => number | null): Vector<Float64> {
  const data = new Float64Array(n);
  const validity = new Uint8Array((n + 7) >> 3);
  let nulls = 0;
  for (let i = 0; i < n; i++) {
    const v = at(i);
    if (v === null) nulls++;
    else (data[i] = Number(v)), (validity[i >> 3]! |= 1 << (i & 7));
  }
  return makeVector(makeData({ type: new Float64(), length: n, nullCount: nulls, nullBitmap: nulls > 0 ? validity : undefined, data }));
}

/** A Utf8 column: the strings joined and encoded once, offsets from their lengths. */
export function utf8Vector(values: readonly (string | null)[]): Vector<Utf8> {
  const n = values.length;
  const text = values.map((v) => v ?? '').join('');
  const bytes = new Uint8Array(Buffer.from(text, 'utf8'));
  // as many bytes as UTF-16 units: every string is ASCII, a string's byte length is its length
  const ascii = bytes.length === text.length;
  const offsets = new Int32Array(n + 1);
  const validity = new Uint8Array((n + 7) >> 3);
  let nulls = 0;
  for (let i = 0; i < n; i++) {
    const v = values[i]!;
    if (v === null) nulls++;
    else validity[i >> 3]! |= 1 << (i & 7);
    offsets[i + 1] = offsets[i]! + (v === null ? 0 : ascii ? v.length : Buffer.byteLength(v, 'utf8'));
  }
  return makeVector(makeData({ type: new Utf8(), length: n, nullCount: nulls, nullBitmap: nulls > 0 ? validity : undefined, valueOffsets: offsets, data: bytes }));
}

/** A key column of `type` from JS key values (storage domain: bigint for 64-bit and temporal types). */
export function keyVector(type: DataType, keys: readonly KeyValue[]): Vector {
  if (type instanceof Utf8) return utf8Vector(keys as (string | null)[]);
  if (type instanceof Float64) return float64Vector(keys.length, (i) => keys[i] as number | null);
  if (type instanceof Bool || type instanceof Binary) return vectorFromArray(keys as never[], type);
  const ArrayType = (type as unknown as { ArrayType: new (n: number) => ArrayLike<number | bigint> & { [i: number]: number | bigint } }).ArrayType;
  const values = new ArrayType(keys.length);
  const validity = new Uint8Array(Math.ceil(keys.length / 8));
  let nulls = 0;
  keys.forEach((k, i) => {
    if (k === null) return void nulls++;
    validity[i >> 3]! |= 1 << (i & 7);
    values[i] = values instanceof BigInt64Array || values instanceof BigUint64Array ? BigInt(k as bigint) : Number(k);
  });
  return makeVector(makeData({ type, length: keys.length, nullCount: nulls, nullBitmap: nulls > 0 ? validity : undefined, data: values } as never));
}

/** A Utf8 column of the h3 cell ids of `n` cell keys `at(0..n)` at `res` (`geo/h3.ts`; NaN is null), written as bytes. */
export function cellVector(n: number, at: (i: number) => number, res: number): Vector<Utf8> {
  const bytes = new Uint8Array(n * CELL_ID_LENGTH);
  const offsets = new Int32Array(n + 1);
  const validity = new Uint8Array((n + 7) >> 3);
  let nulls = 0;
  let end = 0;
  for (let i = 0; i < n; i++) {
    const k = at(i);
    if (k !== k) nulls++;
    else writeCellId(k, res, bytes, end), (end += CELL_ID_LENGTH), (validity[i >> 3]! |= 1 << (i & 7));
    offsets[i + 1] = end;
  }
  return makeVector(makeData({ type: new Utf8(), length: n, nullCount: nulls, nullBitmap: nulls > 0 ? validity : undefined, valueOffsets: offsets, data: bytes.subarray(0, end) }));
}
