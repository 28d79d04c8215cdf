// Zone maps: per-column min, max and null count of one partition, used to skip partitions.
import { type Data, Type } from 'apache-arrow';
import { isValid } from '../data/layout.js';
import type { ZoneStats } from '../expr/kernel.js';

/** Computes the zone map of one column chunk (offset 0). NaN is left out of min/max and counted for float columns. */
export function zoneStats(data: Data): ZoneStats {
  const rows = data.length;
  const nullCount = data.nullCount;
  const validity = nullCount > 0 ? (data.nullBitmap ?? null) : null;
  const type = data.type;
  let range: [ZoneStats['min'], ZoneStats['max']] = [null, null];
  // half floats are stored as integers: their NaNs are not counted, so they get no count
  const float = data.values instanceof Float64Array || data.values instanceof Float32Array;
  let nanCount = 0;
  if (nullCount < rows) {
    switch (type.typeId) {
      case Type.Bool:
        range = boolRange(data.values as Uint8Array, validity, rows);
        break;
      case Type.Utf8:
      case Type.LargeUtf8:
        range = stringRange(data.values as Uint8Array, data.valueOffsets as Int32Array | BigInt64Array, validity, rows);
        break;
      case Type.Binary:
      case Type.LargeBinary:
        break; // binary values carry no useful order for pruning
      default:
        if (validity === null && data.values instanceof Float64Array) {
          // the common case in one pass over a monomorphic array
          const r = denseFloat64(data.values, rows);
          nanCount = r.nanCount;
          range = [r.min, r.max];
          break;
        }
        if (float) nanCount = countNaN(data.values as Float64Array | Float32Array, validity, rows);
        range = numericRange(data.values as ArrayLike<number | bigint>, validity, rows);
    }
  }
  return float ? { min: range[0], max: range[1], nullCount, rows, nanCount } : { min: range[0], max: range[1], nullCount, rows };
}

// min, max (NaN skipped; the first of equal values, so -0 or 0 as it comes first) and NaN count
// of rows without nulls
function denseFloat64(values: Float64Array, rows: number): { min: number | null; max: number | null; nanCount: number } {
  let min = Infinity;
  let max = -Infinity;
  let nanCount = 0;
  for (let i = 0; i < rows; i++) {
    const v = values[i]!;
    if (v < min) min = v;
    if (v > max) max = v;
    if (v !== v) nanCount++;
  }
  return nanCount === rows ? { min: null, max: null, nanCount } : { min, max, nanCount };
}

// NaN among the valid values (a null slot may hold any bits)
function countNaN(values: ArrayLike<number>, validity: Uint8Array | null, rows: number): number {
  let n = 0;
  for (let i = 0; i < rows; i++) {
    const v = values[i]!;
    if (v !== v && (validity === null || ((validity[i >> 3]! >> (i & 7)) & 1) === 1)) n++;
  }
  return n;
}

function numericRange(values: ArrayLike<number | bigint>, validity: Uint8Array | null, rows: number): [number | bigint | null, number | bigint | null] {
  const wide = values instanceof BigInt64Array || values instanceof BigUint64Array;
  const [lo, hi] = wide ? wideRange(values, validity, rows) : narrowRange(values as ArrayLike<number>, validity, rows);
  return lo < 0 ? [null, null] : [values[lo]!, values[hi]!];
}

// indices of the min and max number, NaN skipped; -1 when there is none
function narrowRange(values: ArrayLike<number>, validity: Uint8Array | null, rows: number): [number, number] {
  let lo = -1;
  let hi = -1;
  let min = Infinity;
  let max = -Infinity;
  for (let i = 0; i < rows; i++) {
    if (validity !== null && ((validity[i >> 3]! >> (i & 7)) & 1) === 0) continue;
    const v = values[i]!;
    if (v < min || lo < 0) {
      if (v !== v) continue;
      min = v;
      lo = i;
    }
    if (v > max || hi < 0) {
      if (v !== v) continue;
      max = v;
      hi = i;
    }
  }
  return [lo, hi];
}

// 64-bit integers compared as (high word, unsigned low word) pairs: no BigInt allocation per value
function wideRange(values: BigInt64Array | BigUint64Array, validity: Uint8Array | null, rows: number): [number, number] {
  const words = new Int32Array(values.buffer, values.byteOffset, rows * 2);
  if (validity === null && values instanceof BigInt64Array) return denseInt64(words, rows);
  const signed = values instanceof BigInt64Array;
  const high = (i: number) => (signed ? words[2 * i + 1]! : words[2 * i + 1]! >>> 0);
  let lo = -1;
  let hi = -1;
  for (let i = 0; i < rows; i++) {
    if (validity !== null && ((validity[i >> 3]! >> (i & 7)) & 1) === 0) continue;
    if (lo < 0) {
      lo = hi = i;
      continue;
    }
    const h = high(i);
    const l = words[2 * i]! >>> 0;
    const hl = high(lo);
    if (h < hl || (h === hl && l < words[2 * lo]! >>> 0)) lo = i;
    const hh = high(hi);
    if (h > hh || (h === hh && l > words[2 * hi]! >>> 0)) hi = i;
  }
  return [lo, hi];
}

// wideRange of signed values without nulls, the words held in locals (one pass, no closures)
function denseInt64(words: Int32Array, rows: number): [number, number] {
  if (rows === 0) return [-1, -1];
  let lo = 0;
  let hi = 0;
  let loHigh = words[1]!;
  let loLow = words[0]! >>> 0;
  let hiHigh = loHigh;
  let hiLow = loLow;
  for (let i = 1; i < rows; i++) {
    const h = words[2 * i + 1]!;
    const l = words[2 * i]! >>> 0;
    if (h < loHigh || (h === loHigh && l < loLow)) {
      lo = i;
      loHigh = h;
      loLow = l;
    }
    if (h > hiHigh || (h === hiHigh && l > hiLow)) {
      hi = i;
      hiHigh = h;
      hiLow = l;
    }
  }
  return [lo, hi];
}

function boolRange(bits: Uint8Array, validity: Uint8Array | null, rows: number): [boolean | null, boolean | null] {
  let seenTrue = false;
  let seenFalse = false;
  for (let i = 0; i < rows && !(seenTrue && seenFalse); i++) {
    if (validity !== null && !isValid(validity, i)) continue;
    if (isValid(bits, i)) seenTrue = true;
    else seenFalse = true;
  }
  return [seenFalse ? false : seenTrue ? true : null, seenTrue ? true : seenFalse ? false : null];
}

function stringRange(bytes: Uint8Array, offsets: Int32Array | BigInt64Array, validity: Uint8Array | null, rows: number): [string | null, string | null] {
  const at = offsets instanceof Int32Array ? offsets : Int32Array.from(offsets, (o) => Number(o));
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let min = -1;
  let max = -1;
  // the current min and max as byte ranges, and the keys of their first 8 bytes (zero-padded,
  // big-endian words): a key strictly below or above another orders the strings, so most rows
  // are settled without a byte loop; equal keys fall back to comparing the bytes
  let min0 = 0, min1 = 0, max0 = 0, max1 = 0, minHi = 0, minLo = 0, maxHi = 0, maxLo = 0;
  for (let i = 0; i < rows; i++) {
    if (validity !== null && ((validity[i >> 3]! >> (i & 7)) & 1) === 0) continue;
    const s = at[i]!;
    const e = at[i + 1]!;
    let hi: number;
    let lo: number;
    if (e - s >= 8) {
      hi = view.getUint32(s);
      lo = view.getUint32(s + 4);
    } else {
      hi = word(bytes, s, e);
      lo = word(bytes, s + 4, e);
    }
    if (min < 0) {
      min = max = i;
      min0 = max0 = s;
      min1 = max1 = e;
      minHi = maxHi = hi;
      minLo = maxLo = lo;
      continue;
    }
    if (hi < minHi || (hi === minHi && (lo < minLo || (lo === minLo && compareBytes(bytes, s, e, min0, min1) < 0)))) {
      min = i;
      min0 = s;
      min1 = e;
      minHi = hi;
      minLo = lo;
    } else if (hi > maxHi || (hi === maxHi && (lo > maxLo || (lo === maxLo && compareBytes(bytes, s, e, max0, max1) > 0)))) {
      max = i;
      max0 = s;
      max1 = e;
      maxHi = hi;
      maxLo = lo;
    }
  }
  const text = (i: number): string | null => (i < 0 ? null : Buffer.from(bytes.buffer, bytes.byteOffset + at[i]!, at[i + 1]! - at[i]!).toString('utf8'));
  return [text(min), text(max)];
}

// bytes [from, from + 4) of a string ending at `end` as a big-endian word, zero past the end
function word(bytes: Uint8Array, from: number, end: number): number {
  let w = 0;
  for (let k = 0; k < 4; k++) w = w * 256 + (from + k < end ? bytes[from + k]! : 0);
  return w;
}

/** Lexicographic byte comparison of bytes[a0, a1) and bytes[b0, b1) (UTF-8 order is code point order). */
function compareBytes(bytes: Uint8Array, a0: number, a1: number, b0: number, b1: number): number {
  const n = Math.min(a1 - a0, b1 - b0);
  for (let k = 0; k < n; k++) {
    const d = bytes[a0 + k]! - bytes[b0 + k]!;
    if (d !== 0) return d;
  }
  return a1 - a0 - (b1 - b0);
}

/**
 * Short runs of the long loops at load, twice (see expr/compile.ts `prime`): they record type
 * feedback for the code after each loop, so a partition's first long run, compiled on stack, does
 * not deoptimise at its end on every later call. Rows not a multiple of 8, strings of 0–11 bytes
 * with repeats, so every branch but the all-NaN one runs.
 */
function primeLoops(): void {
  const n = 287;
  const floats = Float64Array.from({ length: n }, (_, i) => (i * 37) % 101);
  const words = Int32Array.from({ length: 2 * n }, (_, i) => (i * 37) % 101);
  const offsets = new Int32Array(n + 1);
  for (let i = 0; i < n; i++) offsets[i + 1] = offsets[i]! + (i % 12);
  const bytes = Uint8Array.from({ length: offsets[n]! }, (_, i) => 97 + ((i * 7) % 3));
  for (let k = 0; k < 2; k++) {
    denseFloat64(floats, n);
    denseInt64(words, n);
    stringRange(bytes, offsets, null, n);
  }
}
primeLoops();
