// Casts between timestamp units and timezones and date32/date64, rejecting any loss of precision.
import { type Data, type DataType, DateUnit, Type } from 'apache-arrow';
import { columnKind, dateUnit, timeUnit, typeName } from '../../schema/types.js';
import { RowError } from '../fail.js';
import { fixedData, isValid } from '../layout.js';
import { getInt64, putInt64, wordsOf } from '../int64.js';
import type { Cast } from './cast.js';

/**
 * timestamp/date → timestamp/date, exactly: to a coarser unit only when the value divides, to a
 * date only at UTC midnight, within the int64 (int32 for date32) range. A change of timezone
 * alone (values are UTC) and timestamp[ms] → date64 keep the buffer.
 */
export const castTemporal: Cast = (data, to) => {
  const from = columnKind(data.type);
  if (from !== 'timestamp' && from !== 'date') return null;
  const [fromNs, toNs] = [nsPerUnit(data.type), nsPerUnit(to)];
  const toDays = toNs === NS_PER_DAY;
  const wholeDays = columnKind(to) === 'date';
  const n = data.length;
  const nulls = data.nullCount > 0 ? (data.nullBitmap ?? null) : null;
  const src = data.values as Int32Array | BigInt64Array;
  const fail = (i: number, v: bigint, what: string) => new RowError(i, `value ${v} of ${typeName(data.type)} ${what} for ${typeName(to)}`, v);
  const out = fromNs === toNs ? null : toDays ? new Int32Array(n) : new BigInt64Array(n);
  // a timezone change, or date64 → timestamp[ms], needs no look at the values
  const check = out !== null || (wholeDays && !toDays);
  // int64 → coarser int64 (e.g. Parquet's µs → ms): exact in doubles while values stay safe integers
  let done = 0;
  if (out instanceof BigInt64Array && src instanceof BigInt64Array && fromNs < toNs && !wholeDays) {
    done = divideSafe(src, out, Number(toNs / fromNs), nulls, n);
  }
  for (let i = done; check && i < n; i++) {
    if (nulls !== null && !isValid(nulls, i)) continue;
    const v = BigInt(src[i]!);
    let r = v;
    if (fromNs > toNs) r = v * (fromNs / toNs);
    else if (fromNs < toNs) {
      if (v % (toNs / fromNs) !== 0n) throw fail(i, v, toDays ? 'has a time of day' : 'has a finer precision');
      r = v / (toNs / fromNs);
    }
    if (wholeDays && !toDays && r % MS_PER_DAY !== 0n) throw fail(i, v, 'has a time of day');
    if (toDays ? r !== BigInt.asIntN(32, r) : r !== BigInt.asIntN(64, r)) throw fail(i, v, 'is out of range');
    if (out) out[i] = (toDays ? Number(r) : r) as never;
  }
  return fixedData(to, n, out ?? src, data.nullBitmap, data.nullCount);
};

/**
 * `data`, a date64 chunk, when every value is a whole day (UTC midnight), as Arrow's format requires
 * and every date64 the engine makes is; else RowError for the first that is not. An Arrow date64 from
 * elsewhere can hold any milliseconds, which no date query would then match.
 */
export function wholeDays(data: Data): Data {
  const src = data.values as BigInt64Array;
  const words = wordsOf(src);
  const nulls = data.nullCount > 0 ? (data.nullBitmap ?? null) : null;
  for (let i = 0; i < data.length; i++) {
    const v = getInt64(words, i);
    // exact below 2^53; beyond it (far outside any calendar) the BigInt test decides
    if (Math.abs(v) < 2 ** 53 ? v % 86_400_000 === 0 : src[i]! % MS_PER_DAY === 0n) continue;
    if (nulls !== null && !isValid(nulls, i)) continue;
    throw new RowError(i, `value ${src[i]} of ${typeName(data.type)} has a time of day; date64 holds whole days (UTC midnight)`, src[i]);
  }
  return data;
}

/**
 * out[i] = src[i] / divisor for the rows from 0 while every value is a safe integer that the
 * divisor divides (null slots are zeroed); returns the first row it did not do, which the exact
 * BigInt loop then checks and reports (so errors and edge values are that loop's).
 */
function divideSafe(src: BigInt64Array, out: BigInt64Array, divisor: number, nulls: Uint8Array | null, n: number): number {
  const a = wordsOf(src);
  const b = wordsOf(out);
  for (let i = 0; i < n; i++) {
    if (nulls !== null && !isValid(nulls, i)) continue;
    const v = getInt64(a, i);
    if (v >= SAFE || v < -SAFE) return i;
    const r = Math.round(v / divisor);
    if (r * divisor !== v) return i; // exact products: both below 2^53
    putInt64(b, i, r);
  }
  return n;
}

// |v| < 2^52 keeps v / divisor and its product exact
const SAFE = 2 ** 52;

const NS_PER_DAY = 86_400_000_000_000n;
const MS_PER_DAY = 86_400_000n;

function nsPerUnit(type: DataType): bigint {
  if (type.typeId === Type.Date) return dateUnit(type) === DateUnit.DAY ? NS_PER_DAY : 1_000_000n;
  return [1_000_000_000n, 1_000_000n, 1_000n, 1n][timeUnit(type)]!;
}
