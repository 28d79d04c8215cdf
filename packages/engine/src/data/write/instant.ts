// Reads the JS forms of a point in time (Date, ISO-8601 string, epoch milliseconds) and scales it exactly.
import { TimeUnit } from 'apache-arrow';
import { RowError, describeValue, expected } from '../fail.js';
import { putInt64, putScaled } from '../int64.js';
import { parseIso } from '../iso8601.js';

/** What timestamp and date columns accept, for messages. */
export const ACCEPTS = 'a Date, an ISO-8601 string or epoch milliseconds';

/**
 * Reads `v` into `out`: `out[0]` integral epoch milliseconds, `out[1]` nanoseconds within that
 * millisecond. A number is epoch milliseconds, its fraction rounded to the nanosecond.
 * Throws RowError for any other value, an invalid Date or string, or a non-finite number.
 */
export function readInstant(row: number, v: unknown, type: string, out: Float64Array): void {
  if (v instanceof Date) {
    out[0] = v.getTime();
    out[1] = 0;
    if (Number.isNaN(out[0])) throw new RowError(row, `invalid Date for ${type}`, v);
  } else if (typeof v === 'string') {
    const wrong = parseIso(v, out);
    if (wrong !== null) throw new RowError(row, `${describeValue(v)} ${wrong}`, v);
  } else if (typeof v === 'number') {
    if (!Number.isFinite(v)) throw new RowError(row, `${v} is not a valid time for ${type}`, v);
    const ms = Math.floor(v);
    const ns = Math.round((v - ms) * 1e6);
    out[0] = ns === 1e6 ? ms + 1 : ms;
    out[1] = ns === 1e6 ? 0 : ns;
  } else throw expected(row, type, v, ACCEPTS);
}

/**
 * Writes the instant (ms, ns) into int64 slot `i` in `unit`; returns why it cannot (a finer
 * precision than the unit, or beyond the int64 range), or null when written.
 */
export function putTime(words: Int32Array, out: BigInt64Array, i: number, unit: TimeUnit, ms: number, ns: number): string | null {
  if (!(Math.abs(ms) < 2 ** 63)) return 'is out of range';
  const safe = Math.abs(ms) <= Number.MAX_SAFE_INTEGER;
  switch (unit) {
    case TimeUnit.SECOND:
      if (ns !== 0 || ms % 1000 !== 0) return 'has sub-second precision';
      if (safe) putInt64(words, i, ms / 1000);
      else out[i] = BigInt(ms) / 1000n;
      return null;
    case TimeUnit.MILLISECOND:
      if (ns !== 0) return 'has sub-millisecond precision';
      putInt64(words, i, ms);
      return null;
    case TimeUnit.MICROSECOND:
      if (ns % 1000 !== 0) return 'has sub-microsecond precision';
      return safe && putScaled(words, i, ms, 1000, ns / 1000) ? null : 'is out of range';
    case TimeUnit.NANOSECOND:
      return safe && putScaled(words, i, ms, 1e6, ns) ? null : 'is out of range';
  }
}
