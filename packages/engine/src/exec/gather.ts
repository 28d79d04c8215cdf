// Gathers selected rows of a column into new SharedArrayBuffer-backed arrays.
import type { ResultColumn, TaskColumn } from './task.js';
import { sharedBuffer } from './shared-memory.js';

/** The rows `sel[0..count)` of `col`, as a new column. */
export function gather(col: TaskColumn, sel: Int32Array, count: number): ResultColumn {
  const validity = col.validity ? gatherBits(col.validity, sel, count) : null;
  const nullCount = validity ? count - countSet(validity, count) : 0;
  if (col.width === -1) {
    const { values, offsets } = gatherVariable(col.values as Uint8Array, col.offsets!, sel, count);
    return { values, offsets, validity: nullCount > 0 ? validity : null, nullCount };
  }
  const values = col.width === 0 ? gatherBits(col.values as Uint8Array, sel, count) : gatherFixed(col.values as unknown as ArrayBufferView, col.width, sel, count);
  return { values, offsets: null, validity: nullCount > 0 ? validity : null, nullCount };
}

type TypedCtor = new (buffer: ArrayBufferLike, byteOffset?: number, length?: number) => ArrayBufferView & ArrayLike<number | bigint>;

/**
 * Rows [first, first + count) of a column the scan does not own, as views of its buffers (no copy;
 * variable-width offsets rebased from 0), or null when they cannot be (bit-packed values, a
 * validity bitmap, 64-bit offsets, or a chunk the scan owns and may overwrite).
 */
export function runOf(col: TaskColumn, first: number, count: number): ResultColumn | null {
  if (col.owned || col.validity !== null || col.width === 0) return null;
  if (col.width === -1) {
    const from = col.offsets;
    if (!(from instanceof Int32Array)) return null;
    const base = from[first]!;
    const offsets = new Int32Array(sharedBuffer((count + 1) * 4));
    for (let j = 1; j <= count; j++) offsets[j] = from[first + j]! - base;
    const values = (col.values as Uint8Array).subarray(base, base + offsets[count]!);
    return { values, offsets, validity: null, nullCount: 0 };
  }
  const v = col.values as Uint8Array;
  const stride = col.width / v.BYTES_PER_ELEMENT;
  return { values: v.subarray(first * stride, (first + count) * stride) as ResultColumn['values'], offsets: null, validity: null, nullCount: 0 };
}

// copied through a Float64Array view for 8-byte values: bit-exact (V8 copies typed-array doubles
// as raw bits, NaN payloads included; gather.test.ts checks int64 bit patterns that are NaNs), no
// BigInt boxing, and about 1.8x faster than two int32 halves where every row is a cache miss; four
// rows per step keep several misses in flight
function gatherFixed(values: ArrayBufferView, width: number, sel: Int32Array, count: number): ResultColumn['values'] {
  const ctor = values.constructor as TypedCtor;
  const out = new ctor(sharedBuffer(Math.max(count * width, 8)), 0, count);
  if (width === 8 && values.byteOffset % 8 === 0) {
    gather64(new Float64Array(values.buffer as ArrayBuffer, values.byteOffset, values.byteLength >> 3), new Float64Array(out.buffer as ArrayBuffer, 0, count), sel, count);
  } else if (width === 8) {
    // (a 4-byte aligned view, e.g. int32 pairs) two int32 halves
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

function gather64(src: Float64Array, dst: Float64Array, sel: Int32Array, count: number): void {
  let j = 0;
  for (; j + 4 <= count; j += 4) {
    const a = src[sel[j]!]!;
    const b = src[sel[j + 1]!]!;
    const c = src[sel[j + 2]!]!;
    const d = src[sel[j + 3]!]!;
    dst[j] = a;
    dst[j + 1] = b;
    dst[j + 2] = c;
    dst[j + 3] = d;
  }
  for (; j < count; j++) dst[j] = src[sel[j]!]!;
}

function gatherBits(bits: Uint8Array, sel: Int32Array, count: number): Uint8Array {
  const out = new Uint8Array(sharedBuffer(Math.max(8, ((count + 63) >> 6) << 3)));
  for (let j = 0; j < count; j++) {
    const i = sel[j]!;
    if ((bits[i >> 3]! >> (i & 7)) & 1) out[j >> 3]! |= 1 << (j & 7);
  }
  return out;
}

// two passes: the first reads each row's offsets once (a cache miss per row where rows are far
// apart), keeping its start and the output offsets; the second copies the bytes reading those sequentially
function gatherVariable(data: Uint8Array, offsets: Int32Array | BigInt64Array, sel: Int32Array, count: number) {
  if (offsets instanceof BigInt64Array) return gatherVariable64(data, offsets, sel, count);
  const outOffsets = new Int32Array(sharedBuffer((count + 1) * 4));
  const starts = startsScratch(count);
  const total = readOffsets(offsets, sel, count, starts, outOffsets);
  const out = new Uint8Array(sharedBuffer(Math.max(total, 8)), 0, total);
  copyValues(out, data, starts, outOffsets, count);
  return { values: out, offsets: outOffsets };
}

// Each pass is a function of its own: a loop in the calling function is compiled on its own (OSR)
// before the code after it has ever run, and that code then deoptimised on every call (~20 ms of a
// replace's gathers in the interpreter).

// the first pass: each row's start, and the output offsets; returns the bytes to copy
function readOffsets(offsets: Int32Array, sel: Int32Array, count: number, starts: Int32Array, outOffsets: Int32Array): number {
  let total = 0;
  for (let j = 0; j < count; j++) {
    const i = sel[j]!;
    const start = offsets[i]!;
    starts[j] = start;
    total += offsets[i + 1]! - start;
    outOffsets[j + 1] = total;
  }
  return total;
}

// the second pass: values up to 64 bytes (names, WKB points) four bytes at a time through DataViews
// (optimised code makes each an unaligned load or store), the last 0-3 bytes one by one; longer
// ones with one copy. Byte by byte, a 9-byte name cost as much as a float64 column's gather
function copyValues(out: Uint8Array, data: Uint8Array, starts: Int32Array, outOffsets: Int32Array, count: number): void {
  const src = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const dst = new DataView(out.buffer, out.byteOffset, out.byteLength);
  for (let j = 0; j < count; j++) {
    const start = starts[j]!;
    const at = outOffsets[j]!;
    const length = outOffsets[j + 1]! - at;
    if (length > 64) {
      out.set(data.subarray(start, start + length), at);
      continue;
    }
    let k = 0;
    for (; k + 4 <= length; k += 4) dst.setInt32(at + k, src.getInt32(start + k, true), true);
    for (; k < length; k++) out[at + k] = data[start + k]!;
  }
}

// one scratch array of row starts per thread, grown as needed (gather is synchronous: no two users overlap)
let starts = new Int32Array(0);

function startsScratch(count: number): Int32Array {
  if (starts.length < count) starts = new Int32Array(Math.max(count, 2 * starts.length));
  return starts;
}

function gatherVariable64(data: Uint8Array, offsets: BigInt64Array, sel: Int32Array, count: number) {
  const outOffsets = new BigInt64Array(sharedBuffer((count + 1) * 8));
  const pieces: Uint8Array[] = [];
  let pos = 0;
  for (let j = 0; j < count; j++) {
    const i = sel[j]!;
    const piece = data.subarray(Number(offsets[i]!), Number(offsets[i + 1]!));
    pieces.push(piece);
    pos += piece.length;
    outOffsets[j + 1] = BigInt(pos);
  }
  const out = new Uint8Array(sharedBuffer(Math.max(pos, 8)), 0, pos);
  let at = 0;
  for (const p of pieces) {
    out.set(p, at);
    at += p.length;
  }
  return { values: out, offsets: outOffsets };
}

/**
 * How many of the first `count` bits of an LSB-first bitmap are set (valid rows of a validity
 * bitmap, deleted rows of a deletion bitmap); 32 bits per step where the view is word-aligned.
 */
export function countSet(bits: Uint8Array, count: number): number {
  const whole = bits.byteOffset % 4 === 0 ? Math.min(count >> 5, bits.length >> 2) : 0;
  const words = new Uint32Array(bits.buffer, whole > 0 ? bits.byteOffset : 0, whole);
  let n = 0;
  for (let w = 0; w < whole; w++) {
    let v = words[w]!;
    v -= (v >>> 1) & 0x55555555;
    v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
    n += Math.imul((v + (v >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24;
  }
  for (let i = whole << 5; i < count; i++) n += (bits[i >> 3]! >> (i & 7)) & 1;
  return n;
}

/**
 * The rows `sel[0..count)` of a column the scan owns (a private read-through chunk), moved to its
 * front in place: no copy. Safe because `sel` ascends, so row `sel[j] >= j` is read before
 * position `j` is written (for offsets too: position `j + 1` is rewritten before it is read only
 * when no row before it was dropped, with its own value). Returns views of the same buffers.
 */
export function compactInPlace(col: TaskColumn, sel: Int32Array, count: number): ResultColumn {
  const validity = col.validity ? compactBits(col.validity, sel, count) : null;
  const nullCount = validity ? count - countSet(validity, count) : 0;
  const keep = nullCount > 0 ? validity : null;
  if (col.width === -1) {
    const data = col.values as Uint8Array;
    const offsets = col.offsets!;
    const bytes = offsets instanceof BigInt64Array ? moveVariable64(data, offsets, sel, count) : moveVariable(data, offsets, sel, count);
    return { values: data.subarray(0, bytes), offsets: offsets.subarray(0, count + 1), validity: keep, nullCount };
  }
  if (col.width === 0) return { values: compactBits(col.values as Uint8Array, sel, count), offsets: null, validity: keep, nullCount };
  const values = col.values as unknown as ArrayBufferView & { readonly BYTES_PER_ELEMENT: number };
  moveFixed(new Uint8Array(values.buffer as ArrayBuffer, values.byteOffset, values.byteLength), col.width, sel, count);
  const ctor = values.constructor as TypedCtor;
  const length = (count * col.width) / values.BYTES_PER_ELEMENT;
  return { values: new ctor(values.buffer, values.byteOffset, length) as unknown as ResultColumn['values'], offsets: null, validity: keep, nullCount };
}

// the bytes of row sel[j] to follow those of row j - 1, offsets rewritten; returns the bytes kept
function moveVariable(data: Uint8Array, offsets: Int32Array, sel: Int32Array, count: number): number {
  let pos = 0;
  for (let j = 0; j < count; j++) {
    const i = sel[j]!;
    const start = offsets[i]!;
    const end = offsets[i + 1]!;
    if (start === pos) pos = end;
    else if (end - start < 16) for (let k = start; k < end; k++) data[pos++] = data[k]!;
    else {
      data.copyWithin(pos, start, end);
      pos += end - start;
    }
    offsets[j + 1] = pos;
  }
  offsets[0] = 0;
  return pos;
}

function moveVariable64(data: Uint8Array, offsets: BigInt64Array, sel: Int32Array, count: number): number {
  let pos = 0;
  for (let j = 0; j < count; j++) {
    const i = sel[j]!;
    const start = Number(offsets[i]!);
    const end = Number(offsets[i + 1]!);
    data.copyWithin(pos, start, end);
    pos += end - start;
    offsets[j + 1] = BigInt(pos);
  }
  offsets[0] = 0n;
  return pos;
}

// fixed-width values of row sel[j] to slot j, through an integer view of the width where there is one
function moveFixed(bytes: Uint8Array, width: number, sel: Int32Array, count: number): void {
  const aligned = bytes.byteOffset % 4 === 0;
  if ((width === 8 || width === 4) && aligned) {
    const lanes = width >> 2;
    const words = new Int32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength >> 2);
    if (lanes === 2) {
      for (let j = 0; j < count; j++) {
        const i = sel[j]! << 1;
        words[j << 1] = words[i]!;
        words[(j << 1) + 1] = words[i + 1]!;
      }
    } else for (let j = 0; j < count; j++) words[j] = words[sel[j]!]!;
  } else if (width === 1) {
    for (let j = 0; j < count; j++) bytes[j] = bytes[sel[j]!]!;
  } else {
    for (let j = 0; j < count; j++) if (sel[j] !== j) bytes.copyWithin(j * width, sel[j]! * width, (sel[j]! + 1) * width);
  }
}

// bit sel[j] moves to bit j; bits past `count` are cleared in the last byte
function compactBits(bits: Uint8Array, sel: Int32Array, count: number): Uint8Array {
  for (let j = 0; j < count; j++) {
    const i = sel[j]!;
    if ((bits[i >> 3]! >> (i & 7)) & 1) bits[j >> 3]! |= 1 << (j & 7);
    else bits[j >> 3]! &= ~(1 << (j & 7));
  }
  if (count & 7) bits[count >> 3]! &= (1 << (count & 7)) - 1;
  return bits.subarray(0, (count + 7) >> 3);
}
