// Arrow Data chunks built and normalised to offset 0, sharing buffers wherever the layout allows.
// apache-arrow's convention: a chunk's `values` (fixed width) and `valueOffsets` (variable width)
// already start at the chunk's first row; only the validity bitmap and bool values use `offset`.
import { Data, type DataType, Field, Int32, RecordBatch, Schema, Struct, Type } from 'apache-arrow';
import { keepShape } from '../shapes.js';
import { getInt64, putInt64, wordsOf } from './int64.js';

type Offsets = Int32Array | BigInt64Array;

/** A record batch of `schema` over offset-0 children of `length` rows. */
export function makeBatch(schema: Schema, children: Data[], length: number): RecordBatch {
  return new RecordBatch(schema, new Data(new Struct(schema.fields), 0, length, 0, undefined, children));
}

/** A fixed-width (or bool) chunk at offset 0; no bitmap when `nullCount` is 0. */
export function fixedData(type: DataType, length: number, values: ArrayBufferView, nullBitmap: Uint8Array | undefined, nullCount: number): Data {
  return new Data(type, 0, length, nullCount, [undefined, values, nullCount > 0 ? nullBitmap : undefined] as never);
}

/** A utf8/binary chunk (32- or 64-bit offsets) at offset 0. */
export function varData(
  type: DataType,
  length: number,
  offsets: Offsets,
  bytes: Uint8Array,
  nullBitmap: Uint8Array | undefined,
  nullCount: number,
): Data {
  return new Data(type, 0, length, nullCount, [offsets, bytes, nullCount > 0 ? nullBitmap : undefined] as never);
}

/** A chunk of `length` nulls of any supported type. */
export function nullData(type: DataType, length: number): Data {
  const bitmap = new Uint8Array(bitmapBytes(length));
  if (isVarWidth(type)) {
    const offsets = type.typeId === Type.LargeUtf8 || type.typeId === Type.LargeBinary ? new BigInt64Array(length + 1) : new Int32Array(length + 1);
    return new Data(type, 0, length, length, [offsets, new Uint8Array(0), bitmap] as never);
  }
  const values = type.typeId === Type.Bool ? new Uint8Array(bitmapBytes(length)) : new (type.ArrayType as Int32ArrayConstructor)(length);
  return new Data(type, 0, length, length, [undefined, values, bitmap] as never);
}

/**
 * The same values at offset 0 (offsets rebased to start at 0), typed as `type`. Fixed-width values
 * and variable-width bytes are shared; only bitmaps, bool bits and rebased offsets are copied.
 */
export function zeroOffset(data: Data, type: DataType = data.type): Data {
  const { offset, length } = data;
  const same = () => (type === data.type ? data : data.clone(type));
  const nulls = () => (data.nullCount > 0 && data.nullBitmap ? shiftBits(data.nullBitmap, offset, length) : undefined);
  if (isVarWidth(type)) {
    const { offsets, bytes } = rebase(data.valueOffsets as unknown as Offsets, data.values as Uint8Array, length);
    return offset === 0 && offsets === data.valueOffsets ? same() : varData(type, length, offsets, bytes, nulls(), data.nullCount);
  }
  if (offset === 0) return same();
  const values = type.typeId === Type.Bool ? shiftBits(data.values as Uint8Array, offset, length) : (data.values as ArrayBufferView);
  return fixedData(type, length, values, nulls(), data.nullCount);
}

/** Index of the first null row of the chunk, or -1. */
export function firstNull(data: Data): number {
  if (data.nullCount === 0) return -1;
  const bits = data.nullBitmap;
  if (!bits || bits.length === 0) return data.typeId === Type.Null ? 0 : -1;
  for (let i = 0; i < data.length; i++) if (!isValid(bits, data.offset + i)) return i;
  return -1;
}

/** True when bit `i` of an LSB-first bitmap is set. */
export function isValid(bits: Uint8Array, i: number): boolean {
  return (bits[i >> 3]! & (1 << (i & 7))) !== 0;
}

/** Bytes of a bitmap for `length` bits. */
export function bitmapBytes(length: number): number {
  return (length + 7) >> 3;
}

/** True for utf8, largeutf8, binary and largebinary. */
export function isVarWidth(type: DataType): boolean {
  const id = type.typeId;
  return id === Type.Utf8 || id === Type.LargeUtf8 || id === Type.Binary || id === Type.LargeBinary;
}

// `length` bits starting at bit `from`, as a new bitmap starting at bit 0 (shared when byte-aligned).
function shiftBits(src: Uint8Array, from: number, length: number): Uint8Array {
  const start = from >> 3;
  const shift = from & 7;
  const n = bitmapBytes(length);
  if (shift === 0) return src.subarray(start, start + n);
  const out = new Uint8Array(n);
  for (let j = 0; j < n; j++) out[j] = ((src[start + j]! >> shift) | ((src[start + j + 1] ?? 0) << (8 - shift))) & 0xff;
  return out;
}

// Offsets starting at 0 and the bytes they cover; the inputs themselves when they already do.
function rebase(offsets: Offsets, bytes: Uint8Array, length: number): { offsets: Offsets; bytes: Uint8Array } {
  if (offsets instanceof Int32Array) {
    const first = offsets[0]!;
    if (first === 0) return { offsets, bytes };
    const out = new Int32Array(length + 1);
    for (let i = 0; i <= length; i++) out[i] = offsets[i]! - first;
    return { offsets: out, bytes: bytes.subarray(first, offsets[length]) };
  }
  const words = wordsOf(offsets);
  const first = getInt64(words, 0);
  if (first === 0) return { offsets, bytes };
  const out = new BigInt64Array(length + 1);
  const outWords = wordsOf(out);
  for (let i = 0; i <= length; i++) putInt64(outWords, i, getInt64(words, i) - first);
  return { offsets: out, bytes: bytes.subarray(first, getInt64(words, length)) };
}

/**
 * One exemplar of each hidden class of apache-arrow's per-batch objects, kept for the life of the
 * process (see `keepShape`). A batch's objects are made afresh for every batch (its chunks, its
 * Struct type, the Schema its constructor assigns) and are all garbage between two transactions,
 * so a full GC found no instance of their maps: the maps died, and with them the optimised code of
 * every function that had made or read such objects (the row stage's lanes, `instantsOf`, and
 * apache-arrow's own Data constructor, `clone` and `RecordBatch.numRows`), which TurboFan then
 * compiled again during the next transaction. Data's constructor sets only the buffers it is given
 * (in order: offsets, values, validity, type ids), so each combination of them is a map of its own;
 * a clone sets all of them.
 */
function keepArrowShapes(): void {
  const type = new Int32();
  for (let present = 0; present < 16; present++) {
    const buffers = [0, 1, 2, 3].map((k) => (present & (1 << k) ? new Int32Array(0) : undefined));
    const data = new Data(type, 0, 0, 0, buffers as never);
    keepShape(data);
    keepShape(data.clone());
  }
  keepShape(makeBatch(new Schema([new Field('x', type, true)]), [fixedData(type, 0, new Int32Array(0), undefined, 0)], 0));
}

keepArrowShapes();
