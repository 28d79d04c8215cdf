// ISO-8601 dates and date-times parsed exactly (to the nanosecond), without Date.parse's local-time rules.

/**
 * Parses `YYYY-MM-DD` or `YYYY-MM-DDTHH:MM[:SS[.fraction]][Z|±HH[:MM]]` (`T` may be a space, the
 * year may be `±YYYYYY`); a string without an offset is UTC. On success writes the epoch
 * milliseconds (integral) to `out[0]` and the nanoseconds within that millisecond to `out[1]`, and
 * returns null; otherwise returns what is wrong, to follow the quoted value in a message.
 * @example
 * parseIso('2024-05-01T12:00:00.000000123Z', out) // null; out = [1714564800000, 123]
 */
export function parseIso(s: string, out: Float64Array): string | null {
  const n = s.length;
  // date: [±YYYYYY | YYYY]-MM-DD
  const sign = s.charCodeAt(0);
  const extended = sign === PLUS || sign === MINUS;
  let p = extended ? 7 : 4;
  let year = extended ? digits(s, 1, 6) : digits(s, 0, 4);
  if (year === -1 || (sign === MINUS && year === 0)) return INVALID;
  if (sign === MINUS) year = -year;
  if (s.charCodeAt(p) !== MINUS || s.charCodeAt(p + 3) !== MINUS) return INVALID;
  const month = digits(s, p + 1, 2);
  const day = digits(s, p + 4, 2);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return INVALID;
  p += 6;
  const dayMs = daysFromCivil(year, month, day) * 86_400_000;
  out[1] = 0;
  if (p === n) {
    out[0] = dayMs;
    return null;
  }
  // time: [T| ]HH:MM[:SS[.fraction]]
  const t = s.charCodeAt(p);
  if (t !== 84 && t !== 116 && t !== 32) return INVALID;
  const hour = digits(s, p + 1, 2);
  const minute = s.charCodeAt(p + 3) === COLON ? digits(s, p + 4, 2) : -1;
  if (hour < 0 || hour > 23 || minute < 0 || minute > 59) return INVALID;
  p += 6;
  let second = 0;
  let ms = 0;
  let ns = 0;
  let finer = false;
  if (s.charCodeAt(p) === COLON) {
    second = digits(s, p + 1, 2);
    if (second < 0 || second > 59) return INVALID;
    p += 3;
    const dot = s.charCodeAt(p);
    if (dot === 46 || dot === 44) {
      const start = ++p;
      for (let c = s.charCodeAt(p); c >= 48 && c <= 57; c = s.charCodeAt(++p)) {
        const k = p - start;
        if (k < 3) ms = ms * 10 + (c - 48);
        else if (k < 9) ns = ns * 10 + (c - 48);
        else if (c !== 48) finer = true;
      }
      const count = p - start;
      if (count === 0) return INVALID;
      if (count < 3) ms *= 10 ** (3 - count);
      if (count < 9) ns *= 10 ** (6 - Math.max(0, count - 3));
    }
  }
  // offset: Z | ±HH[[:]MM]
  let offset = 0;
  if (p < n) {
    const z = s.charCodeAt(p);
    if (z === 90 || z === 122) p++;
    else if (z === PLUS || z === MINUS) {
      const oh = digits(s, p + 1, 2);
      p += 3;
      let om = 0;
      if (p < n) {
        if (s.charCodeAt(p) === COLON) p++;
        om = digits(s, p, 2);
        p += 2;
      }
      if (oh < 0 || oh > 23 || om < 0 || om > 59) return INVALID;
      offset = (oh * 60 + om) * (z === MINUS ? -1 : 1);
    } else return INVALID;
  }
  if (p !== n) return INVALID;
  if (finer) return 'has digits finer than nanoseconds';
  out[0] = dayMs + ((hour * 60 + minute - offset) * 60 + second) * 1000 + ms;
  out[1] = ns;
  return null;
}

/** Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant, "chrono-Compatible Low-Level Date Algorithms"). */
export function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (month > 2 ? month - 3 : month + 9) + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

const INVALID = 'is not an ISO-8601 date or date-time such as 2024-05-01 or 2024-05-01T12:00:00Z';
const PLUS = 43;
const MINUS = 45;
const COLON = 58;

// The number written by `count` decimal digits at `pos`, or -1.
function digits(s: string, pos: number, count: number): number {
  let v = 0;
  for (let i = pos; i < pos + count; i++) {
    const c = s.charCodeAt(i);
    if (!(c >= 48 && c <= 57)) return -1;
    v = v * 10 + (c - 48);
  }
  return v;
}

/** Days in a month (1–12) of a proleptic Gregorian year. */
export function daysInMonth(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}
