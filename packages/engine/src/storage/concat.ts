// Concatenates Arrow chunks (possibly sliced, offset != 0) into one contiguous chunk with offset 0.
//
// arrow-js slicing (Data.slice) already narrows fixed-width values and value offsets to the slice,
// while bitmaps (validity, bool values) keep their buffer and are read at bit `offset + i`.
import { type Data, type DataType, Type, makeData } from 'apache-arrow';

/** Where a concatenation's buffers come from: `bytes` zeroed bytes (an ArrayBuffer unless told otherwise). */
export type Alloc = (bytes: number) => ArrayBufferLike;

const plain: Alloc = (bytes) => new ArrayBuffer(bytes);

/**
 * One contiguous chunk holding the rows of `chunks` in order. Reuses a lone offset-0 chunk as is;
 * otherwise its buffers are new, from `alloc` (e.g. SharedArrayBuffers another thread reads in place).
 */
export function concatData(type: DataType, all: readonly Data[], alloc: Alloc = plain): Data {
  const chunks = all.filter((c) => c.length > 0);
  if (chunks.length === 1 && chunks[0]!.offset === 0) return chunks[0]!;
  const length = chunks.reduce((n, c) => n + c.length, 0);
  const nullCount = chunks.reduce((n, c) => n + c.nullCount, 0);
  const nullBitmap = nullCount > 0 ? concatBits(chunks, length, (c) => (c.nullCount > 0 ? c.nullBitmap : null), true, alloc) : undefined;
  switch (type.typeId) {
    case Type.Bool:
      return makeData({ type, length, nullCount, nullBitmap, data: concatBits(chunks, length, (c) => c.values as Uint8Array, false, alloc) } as never);
    case Type.Utf8:
    case Type.LargeUtf8:
    case Type.Binary:
    case Type.LargeBinary:
      return makeData({ type, length, nullCount, nullBitmap, ...concatVariable(chunks, length, type.typeId === Type.LargeUtf8 || type.typeId === Type.LargeBinary, alloc) } as never);
    default:
      return makeData({ type, length, nullCount, nullBitmap, data: concatFixed(type, chunks, length, alloc) } as never);
  }
}

function concatFixed(type: DataType, chunks: readonly Data[], length: number, alloc: Alloc): ArrayBufferView {
  const ctor = type.ArrayType as (new (b: ArrayBufferLike, at: number, n: number) => ArrayBufferView & { set(a: ArrayLike<unknown>, at: number): void }) & { BYTES_PER_ELEMENT: number };
  const stride = (type as { stride?: number }).stride ?? 1;
  const out = new ctor(alloc(length * stride * ctor.BYTES_PER_ELEMENT), 0, length * stride);
  let at = 0;
  for (const c of chunks) {
    const v = c.values as unknown as { subarray(a: number, b: number): ArrayLike<unknown> };
    out.set(v.subarray(0, c.length * stride), at * stride);
    at += c.length;
  }
  return out;
}

function concatBits(chunks: readonly Data[], length: number, bitsOf: (c: Data) => Uint8Array | null | undefined, missingIsSet: boolean, alloc: Alloc): Uint8Array {
  const out = new Uint8Array(alloc(((length + 63) >> 6) << 3));
  let at = 0;
  for (const c of chunks) {
    const bits = bitsOf(c);
    for (let i = 0; i < c.length; i++, at++) {
      const j = c.offset + i;
      const set = bits ? (bits[j >> 3]! >> (j & 7)) & 1 : missingIsSet ? 1 : 0;
      if (set) out[at >> 3]! |= 1 << (at & 7);
    }
  }
  return out;
}

function concatVariable(chunks: readonly Data[], length: number, large: boolean, alloc: Alloc) {
  const offsets = large ? new BigInt64Array(alloc((length + 1) * 8)) : new Int32Array(alloc((length + 1) * 4));
  let total = 0;
  for (const c of chunks) total += Number(c.valueOffsets[c.length]!) - Number(c.valueOffsets[0]!);
  const data = new Uint8Array(alloc(total));
  let row = 0;
  let pos = 0;
  for (const c of chunks) {
    const base = Number(c.valueOffsets[0]!);
    const end = Number(c.valueOffsets[c.length]!);
    data.set((c.values as Uint8Array).subarray(base, end), pos);
    const from = c.valueOffsets;
    if (!large && from instanceof Int32Array) {
      // the common case in its own monomorphic loop: int32 offsets shifted by a constant
      const to = offsets as Int32Array;
      const shift = pos - base;
      for (let i = 1; i <= c.length; i++) to[row + i] = from[i]! + shift;
    } else {
      for (let i = 1; i <= c.length; i++) {
        const o = pos + Number(from[i]!) - base;
        if (large) (offsets as BigInt64Array)[row + i] = BigInt(o);
        else (offsets as Int32Array)[row + i] = o;
      }
    }
    row += c.length;
    pos += end - base;
  }
  return { valueOffsets: offsets, data };
}
