// Reads timestamp and date chunks as JS Dates (microseconds and nanoseconds truncated toward the past).
import { type Data, DateUnit, TimeUnit, Type } from 'apache-arrow';
import { dateUnit, timeUnit } from '../../schema/types.js';
import { floorDivInt64, getInt64, wordsOf } from '../int64.js';
import { isValid } from '../layout.js';
import { type ColumnReader, nullsOf } from './reader.js';

/** timestamp (any unit) → Date of the millisecond containing the instant (floor, so exact for s and ms). */
export const readTimestamps: ColumnReader = (data, out) => datesOf(data, out);

/** date32 (days) and date64 (milliseconds) → Date. */
export const readDates: ColumnReader = (data, out) => datesOf(data, out);

/**
 * The millisecond of each value of an offset-0 timestamp or date chunk (the Date's time, as
 * `readTimestamps`/`readDates` make it; null rows hold 0): a typed array from which a row's Date is
 * made when the row is, so no array of Dates lives on (see `rowSource`).
 */
export function instantsOf(data: Data): Float64Array {
  const n = data.length;
  const ms = new Float64Array(n);
  if (data.typeId === Type.Date && dateUnit(data.type) === DateUnit.DAY) {
    const days = data.values as Int32Array;
    for (let i = 0; i < n; i++) ms[i] = days[i]! * 86_400_000;
    return ms;
  }
  const words = wordsOf(data.values as BigInt64Array);
  const toMs = data.typeId === Type.Date ? getInt64 : msOf(timeUnit(data.type));
  for (let i = 0; i < n; i++) ms[i] = toMs(words, i);
  return ms;
}

function datesOf(data: Data, out: unknown[]): void {
  const ms = instantsOf(data);
  const nulls = nullsOf(data);
  for (let i = 0; i < ms.length; i++) out[i] = nulls !== null && !isValid(nulls, i) ? null : new Date(ms[i]!);
}

function msOf(unit: TimeUnit): (words: Int32Array, i: number) => number {
  switch (unit) {
    case TimeUnit.SECOND:
      return (w, i) => getInt64(w, i) * 1000;
    case TimeUnit.MILLISECOND:
      return getInt64;
    case TimeUnit.MICROSECOND:
      return (w, i) => floorDivInt64(w, i, 1000);
    case TimeUnit.NANOSECOND:
      return (w, i) => floorDivInt64(w, i, 1_000_000);
  }
}
