// Timestamps: strict RFC 3339 for request parameters, lenient ISO 8601 for catalog values; all as epoch ms.

/** An RFC 3339 instant: `ms` is the epoch milliseconds rounded down; `nanos` the nanoseconds beyond them (0-999999). */
export interface Instant {
  readonly ms: number;
  readonly nanos: number;
}

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?([Zz]|[+-]\d{2}:\d{2})$/;

/**
 * Parses an RFC 3339 date-time (up to 9 fractional digits, `Z` or a numeric offset); returns why it is
 * not one as a string.
 * @example
 * parseRfc3339('2020-02-29T12:00:00.123456789+01:00') // { ms: 1582974000123, nanos: 456789 }
 */
export function parseRfc3339(text: string): Instant | string {
  const m = RFC3339.exec(text);
  if (!m) return `'${text}' is not an RFC 3339 date-time (like 2020-01-31T12:00:00Z, up to 9 fractional digits, Z or ±hh:mm)`;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  if (month < 1 || month > 12) return `'${text}' has month ${month}`;
  if (day < 1 || day > daysIn(year, month)) return `'${text}' has day ${day}, ${year}-${pad(month)} has ${daysIn(year, month)} days`;
  if (hour > 23 || minute > 59) return `'${text}' has time ${pad(hour)}:${pad(minute)}`;
  if (second > 59) return `'${text}' has second ${second} (leap seconds are not supported)`;
  const offset = zoneOffsetMinutes(m[8]!);
  if (offset === undefined) return `'${text}' has an invalid zone offset ${m[8]}`;
  const fraction = (m[7] ?? '').padEnd(9, '0');
  const ms = utc(year, month, day, hour, minute, second, Number(fraction.slice(0, 3))) - offset * 60_000;
  return { ms, nanos: Number(fraction.slice(3)) };
}

/**
 * Epoch ms of a catalog timestamp: RFC 3339, or ISO 8601 without a zone (read as UTC, like the spec's
 * `published_date`), or a date alone; undefined when it is none of these.
 */
export function parseCatalogTime(value: unknown): number | undefined {
  if (typeof value !== 'string') return undefined;
  const strict = parseRfc3339(value);
  if (typeof strict !== 'string') return strict.ms;
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?)?$/.exec(value);
  if (!m) return undefined;
  const zoned = `${m[1]}-${m[2]}-${m[3]}T${m[4] ?? '00'}:${m[5] ?? '00'}:${m[6] ?? '00'}${m[7] ? `.${m[7]}` : ''}Z`;
  const parsed = parseRfc3339(zoned);
  return typeof parsed === 'string' ? undefined : parsed.ms;
}

/** RFC 3339 text (UTC, millisecond precision) of epoch ms. */
export function formatTime(ms: number): string {
  return new Date(ms).toISOString();
}

function utc(year: number, month: number, day: number, hour: number, minute: number, second: number, ms: number): number {
  const d = new Date(0);
  d.setUTCFullYear(year, month - 1, day);
  d.setUTCHours(hour, minute, second, ms);
  return d.getTime();
}

function zoneOffsetMinutes(zone: string): number | undefined {
  if (zone === 'Z' || zone === 'z') return 0;
  const h = Number(zone.slice(1, 3));
  const m = Number(zone.slice(4, 6));
  if (h > 23 || m > 59) return undefined;
  return (zone[0] === '-' ? -1 : 1) * (h * 60 + m);
}

function daysIn(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

function pad(n: number): string {
  return String(n).padStart(2, '0');
}
