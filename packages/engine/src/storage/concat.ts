// Concatenates Arrow chunks (possibly sliced, offset != 0) into one contiguous chunk with offset 0.
//
// arrow-js slicing (Data.slice) already narrows fixed-width values and value offsets to the slice,
// while bitmaps (validity, bool values) keep their buffer and are read at bit `offset + i`.
import { type Data, type DataType, Type, makeData } from 'apache-arrow';

/**
 * Where `concatData` puts its output buffers: at least `bytes` bytes (a pool's may be larger; its
 * contents may be stale: everything read is written first).
 */
export type Alloc = (bytes: number) => ArrayBufferLike;

/**
 * One contiguous chunk holding the rows of `chunks` in order. Reuses a lone offset-0 chunk as is.
 * Output buffers come from `alloc` when given (e.g. a pool, so a thread merging partitions over and
 * over reuses its memory), else are fresh.
 */
export function concatData(type: DataType, all: readonly Data[], alloc?: Alloc): Data {
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

type Typed = ArrayBufferView & { set(a: ArrayLike<unknown>, at?: number): void; fill(v: number | bigint): unknown };

// `n` elements of `ctor` (typed array class): fresh, or over a buffer from `alloc` (zeroed when `zero`)
function make(ctor: unknown, n: number, alloc: Alloc | undefined, zero = false): Typed {
  const C = ctor as { new (n: number): Typed; new (b: ArrayBufferLike, at: number, n: number): Typed; BYTES_PER_ELEMENT: number };
  if (!alloc) return new C(n);
  const out = new C(alloc(Math.max(n * C.BYTES_PER_ELEMENT, 8)), 0, n);
  if (zero) out.fill(C === (BigInt64Array as unknown) ? 0n : 0);
  return out;
}

function concatFixed(type: DataType, chunks: readonly Data[], length: number, alloc?: Alloc): ArrayBufferView {
  const stride = (type as { stride?: number }).stride ?? 1;
  const out = make(type.ArrayType, length * stride, alloc);
  let at = 0;
  for (const c of chunks) {
    const v = c.values as unknown as { subarray(a: number, b: number): ArrayLike<unknown> };
    out.set(v.subarray(0, c.length * stride), at * stride);
    at += c.length;
  }
  return out;
}

function concatBits(chunks: readonly Data[], length: number, bitsOf: (c: Data) => Uint8Array | null | undefined, missingIsSet: boolean, alloc?: Alloc): Uint8Array {
  const out = make(Uint8Array, ((length + 63) >> 6) << 3, alloc, true) as Uint8Array;
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

// the common case, a function of its own: int32 offsets shifted by a constant (a loop in the caller
// would be compiled alone, OSR, and deoptimise at the code after it on every call)
function shiftOffsets(to: Int32Array, row: number, from: Int32Array, length: number, shift: number): void {
  for (let i = 1; i <= length; i++) to[row + i] = from[i]! + shift;
}

function concatVariable(chunks: readonly Data[], length: number, large: boolean, alloc?: Alloc) {
  const offsets = make(large ? BigInt64Array : Int32Array, length + 1, alloc) as BigInt64Array | Int32Array;
  offsets[0] = large ? 0n : 0;
  let total = 0;
  for (const c of chunks) total += Number(c.valueOffsets[c.length]!) - Number(c.valueOffsets[0]!);
  const data = make(Uint8Array, total, alloc) as Uint8Array;
  let row = 0;
  let pos = 0;
  for (const c of chunks) {
    const base = Number(c.valueOffsets[0]!);
    const end = Number(c.valueOffsets[c.length]!);
    data.set((c.values as Uint8Array).subarray(base, end), pos);
    const from = c.valueOffsets;
    if (!large && from instanceof Int32Array) {
      shiftOffsets(offsets as Int32Array, row, from, c.length, pos - base);
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
