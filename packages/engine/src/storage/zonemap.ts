// Zone maps: per-column min, max and null count of one partition, used to skip partitions.
import { type Data, Type } from 'apache-arrow';
import type { ZoneStats } from '../expr/kernel.js';

/** Computes the zone map of one column chunk (offset 0). NaN is ignored for min/max. */
export function zoneStats(data: Data): ZoneStats {
  const rows = data.length;
  const nullCount = data.nullCount;
  const validity = nullCount > 0 ? (data.nullBitmap ?? null) : null;
  const type = data.type;
  let range: [ZoneStats['min'], ZoneStats['max']] = [null, null];
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
        range = numericRange(data.values as ArrayLike<number | bigint>, validity, rows);
    }
  }
  return { min: range[0], max: range[1], nullCount, rows };
}

function isValid(validity: Uint8Array | null, i: number): boolean {
  return validity === null || ((validity[i >> 3]! >> (i & 7)) & 1) === 1;
}

function numericRange(values: ArrayLike<number | bigint>, validity: Uint8Array | null, rows: number): [number | bigint | null, number | bigint | null] {
  let min: number | bigint | null = null;
  let max: number | bigint | null = null;
  for (let i = 0; i < rows; i++) {
    if (!isValid(validity, i)) continue;
    const v = values[i]!;
    if (v !== v) continue; // NaN
    if (min === null || v < min) min = v;
    if (max === null || v > max) max = v;
  }
  return [min, max];
}

function boolRange(bits: Uint8Array, validity: Uint8Array | null, rows: number): [boolean | null, boolean | null] {
  let seenTrue = false;
  let seenFalse = false;
  for (let i = 0; i < rows && !(seenTrue && seenFalse); i++) {
    if (!isValid(validity, i)) continue;
    if ((bits[i >> 3]! >> (i & 7)) & 1) seenTrue = true;
    else seenFalse = true;
  }
  return [seenFalse ? false : seenTrue ? true : null, seenTrue ? true : seenFalse ? false : null];
}

function stringRange(bytes: Uint8Array, offsets: Int32Array | BigInt64Array, validity: Uint8Array | null, rows: number): [string | null, string | null] {
  let min = -1;
  let max = -1;
  const at = (i: number): number => Number(offsets[i]!);
  for (let i = 0; i < rows; i++) {
    if (!isValid(validity, i)) continue;
    if (min < 0 || compareBytes(bytes, at(i), at(i + 1), at(min), at(min + 1)) < 0) min = i;
    if (max < 0 || compareBytes(bytes, at(i), at(i + 1), at(max), at(max + 1)) > 0) max = i;
  }
  const text = (i: number): string | null => (i < 0 ? null : Buffer.from(bytes.buffer, bytes.byteOffset + at(i), at(i + 1) - at(i)).toString('utf8'));
  return [text(min), text(max)];
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
