// Reads timestamp and date chunks as JS Dates (microseconds and nanoseconds truncated toward the past).
import { DateUnit, TimeUnit } from 'apache-arrow';
import { dateUnit, timeUnit } from '../../schema/types.js';
import { floorDivInt64, getInt64, wordsOf } from '../int64.js';
import { isValid } from '../layout.js';
import { type ColumnReader, nullsOf } from './reader.js';

/** timestamp (any unit) → Date of the millisecond containing the instant (floor, so exact for s and ms). */
export const readTimestamps: ColumnReader = (data, out) => {
  const words = wordsOf(data.values as BigInt64Array);
  const toMs = msOf(timeUnit(data.type));
  const nulls = nullsOf(data);
  for (let i = 0; i < data.length; i++) out[i] = nulls !== null && !isValid(nulls, i) ? null : new Date(toMs(words, i));
};

/** date32 (days) and date64 (milliseconds) → Date. */
export const readDates: ColumnReader = (data, out) => {
  const nulls = nullsOf(data);
  if (dateUnit(data.type) === DateUnit.DAY) {
    const days = data.values as Int32Array;
    for (let i = 0; i < data.length; i++) out[i] = nulls !== null && !isValid(nulls, i) ? null : new Date(days[i]! * 86_400_000);
  } else {
    const words = wordsOf(data.values as BigInt64Array);
    for (let i = 0; i < data.length; i++) out[i] = nulls !== null && !isValid(nulls, i) ? null : new Date(getInt64(words, i));
  }
};

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
