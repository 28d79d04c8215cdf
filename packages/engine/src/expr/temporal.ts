// ISO 8601 parsing to epoch nanoseconds, and exact conversion to a column's temporal unit.
import { parseIso } from '../data/iso8601.js';
import type { TemporalType } from './typed.js';

type Unit = 's' | 'ms' | 'us' | 'ns' | 'day';

const NS_PER: Readonly<Record<Unit, bigint>> = { ns: 1n, us: 1_000n, ms: 1_000_000n, s: 1_000_000_000n, day: 86_400_000_000_000n };

const UNIT_OF: Readonly<Record<TemporalType, Unit>> = {
  'timestamp[s]': 's',
  'timestamp[ms]': 'ms',
  'timestamp[us]': 'us',
  'timestamp[ns]': 'ns',
  date32: 'day',
  date64: 'ms',
};

const ISO_TIME = /^(\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?$/;

/**
 * Parses an ISO 8601 date or date-time to nanoseconds since the epoch, or null when invalid; the
 * same parser ingest uses (data/iso8601.ts), so a string means the same instant in data and filters.
 * No zone means UTC; a date alone means its midnight UTC.
 * @example
 * parseDatetime('1970-01-01T00:00:01.5Z') // 1_500_000_000n
 */
export function parseDatetime(text: string): bigint | null {
  const out = new Float64Array(2);
  if (parseIso(text.trim(), out) !== null) return null;
  return BigInt(out[0]!) * NS_PER.ms + BigInt(out[1]!);
}

/** Parses `HH:MM[:SS[.fraction]]` to nanoseconds since midnight, or null when invalid. */
export function parseTime(text: string): bigint | null {
  const m = ISO_TIME.exec(text.trim());
  return m === null ? null : timeOfDay(m[1]!, m[2]!, m[3], m[4]);
}

/**
 * Converts epoch nanoseconds to `type`'s unit: the exact count (bigint; a number of days for
 * date32) when `ns` falls on a unit boundary, else `k + 0.5` with k = floor(ns / unit), which
 * compares with every integer exactly as `ns` does.
 * @throws RangeError when `k + 0.5` is not exactly representable.
 */
export function toUnit(ns: bigint, type: TemporalType): number | bigint {
  const per = NS_PER[UNIT_OF[type]];
  let k = ns / per;
  if (k * per > ns) k -= 1n;
  if (k * per === ns) return type === 'date32' ? Number(k) : k;
  if (k > 2n ** 52n || k < -(2n ** 52n)) throw new RangeError('instant out of range');
  return Number(k) + 0.5;
}

/** The factor that converts values of `from` into the finer unit of `to` (1n when equal). */
export function rescaleFactor(from: TemporalType, to: TemporalType): bigint {
  return NS_PER[UNIT_OF[from]] / NS_PER[UNIT_OF[to]];
}

/** Whether `a`'s unit is at least as fine as `b`'s. */
export function finerOrEqual(a: TemporalType, b: TemporalType): boolean {
  return NS_PER[UNIT_OF[a]] <= NS_PER[UNIT_OF[b]];
}

/** Epoch nanoseconds of a JS Date (millisecond precision). */
export function dateToNs(date: Date): bigint | null {
  const ms = date.getTime();
  return Number.isFinite(ms) ? BigInt(ms) * NS_PER.ms : null;
}

function timeOfDay(h: string, m: string, s: string | undefined, fraction: string | undefined): bigint | null {
  const [hour, minute, second] = [Number(h), Number(m), Number(s ?? 0)];
  if (hour > 23 || minute > 59 || second > 59) return null;
  const nanos = BigInt((fraction ?? '').padEnd(9, '0'));
  return (BigInt(hour * 3600 + minute * 60 + second)) * NS_PER.s + nanos;
}
