// Gathers selected rows of a column into new SharedArrayBuffer-backed arrays.
import type { ResultColumn, TaskColumn } from './task.js';

/** The rows `sel[0..count)` of `col`, as a new column. */
export function gather(col: TaskColumn, sel: Int32Array, count: number): ResultColumn {
  const validity = col.validity ? gatherBits(col.validity, sel, count) : null;
  const nullCount = validity ? count - popcount(validity, count) : 0;
  if (col.width === -1) {
    const { values, offsets } = gatherVariable(col.values as Uint8Array, col.offsets!, sel, count);
    return { values, offsets, validity: nullCount > 0 ? validity : null, nullCount };
  }
  const values = col.width === 0 ? gatherBits(col.values as Uint8Array, sel, count) : gatherFixed(col.values as unknown as ArrayBufferView, col.width, sel, count);
  return { values, offsets: null, validity: nullCount > 0 ? validity : null, nullCount };
}

type TypedCtor = new (buffer: ArrayBufferLike, byteOffset?: number, length?: number) => ArrayBufferView & ArrayLike<number | bigint>;

// copy through an integer view of the same width: bit-exact (NaN payloads kept) and no BigInt boxing
function gatherFixed(values: ArrayBufferView, width: number, sel: Int32Array, count: number): ResultColumn['values'] {
  const ctor = values.constructor as TypedCtor;
  const out = new ctor(new SharedArrayBuffer(Math.max(count * width, 8)), 0, count);
  if (width === 8) {
    const src = new Int32Array(values.buffer as ArrayBuffer, values.byteOffset, values.byteLength >> 2);
    const dst = new Int32Array(out.buffer as ArrayBuffer, 0, count * 2);
    for (let j = 0; j < count; j++) {
      const i = sel[j]! << 1;
      dst[j << 1] = src[i]!;
      dst[(j << 1) + 1] = src[i + 1]!;
    }
  } else {
    const view = width === 4 ? Int32Array : width === 2 ? Int16Array : Int8Array;
    const src = new view(values.buffer as ArrayBuffer, values.byteOffset, values.byteLength / width);
    const dst = new view(out.buffer as ArrayBuffer, 0, count);
    for (let j = 0; j < count; j++) dst[j] = src[sel[j]!]!;
  }
  return out as unknown as ResultColumn['values'];
}

function gatherBits(bits: Uint8Array, sel: Int32Array, count: number): Uint8Array {
  const out = new Uint8Array(new SharedArrayBuffer(Math.max(8, ((count + 63) >> 6) << 3)));
  for (let j = 0; j < count; j++) {
    const i = sel[j]!;
    if ((bits[i >> 3]! >> (i & 7)) & 1) out[j >> 3]! |= 1 << (j & 7);
  }
  return out;
}

function gatherVariable(data: Uint8Array, offsets: Int32Array | BigInt64Array, sel: Int32Array, count: number) {
  if (offsets instanceof BigInt64Array) return gatherVariable64(data, offsets, sel, count);
  let total = 0;
  for (let j = 0; j < count; j++) total += offsets[sel[j]! + 1]! - offsets[sel[j]!]!;
  const outOffsets = new Int32Array(new SharedArrayBuffer((count + 1) * 4));
  const out = new Uint8Array(new SharedArrayBuffer(Math.max(total, 8)), 0, total);
  let pos = 0;
  for (let j = 0; j < count; j++) {
    const i = sel[j]!;
    const start = offsets[i]!;
    const end = offsets[i + 1]!;
    if (end - start < 16) for (let k = start; k < end; k++) out[pos++] = data[k]!;
    else {
      out.set(data.subarray(start, end), pos);
      pos += end - start;
    }
    outOffsets[j + 1] = pos;
  }
  return { values: out, offsets: outOffsets };
}

function gatherVariable64(data: Uint8Array, offsets: BigInt64Array, sel: Int32Array, count: number) {
  const outOffsets = new BigInt64Array(new SharedArrayBuffer((count + 1) * 8));
  const pieces: Uint8Array[] = [];
  let pos = 0;
  for (let j = 0; j < count; j++) {
    const i = sel[j]!;
    const piece = data.subarray(Number(offsets[i]!), Number(offsets[i + 1]!));
    pieces.push(piece);
    pos += piece.length;
    outOffsets[j + 1] = BigInt(pos);
  }
  const out = new Uint8Array(new SharedArrayBuffer(Math.max(pos, 8)), 0, pos);
  let at = 0;
  for (const p of pieces) {
    out.set(p, at);
    at += p.length;
  }
  return { values: out, offsets: outOffsets };
}

function popcount(bits: Uint8Array, count: number): number {
  let n = 0;
  for (let i = 0; i < count; i++) n += (bits[i >> 3]! >> (i & 7)) & 1;
  return n;
}
