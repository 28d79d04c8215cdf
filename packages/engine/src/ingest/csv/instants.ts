// ISO-8601 date-times read straight from CSV field bytes in the common UTC form; every other form is
// left to the text parser (data/iso8601.ts), which gives the same instant for this one.
import { daysFromCivil, daysInMonth } from '../../data/iso8601.js';

/**
 * The epoch milliseconds of `b[s, e)` when it is `YYYY-MM-DD(T|t| )HH:MM:SS[.mmm](Z|z)` and a valid
 * date and time, else NaN (then parse the text: other forms, or invalid values and their message).
 */
export function isoMillis(b: Uint8Array, s: number, e: number): number {
  const n = e - s;
  if (n !== 20 && n !== 24) return Number.NaN;
  const z = b[e - 1];
  if (z !== 0x5a && z !== 0x7a) return Number.NaN;
  if (b[s + 4] !== 0x2d || b[s + 7] !== 0x2d || b[s + 13] !== 0x3a || b[s + 16] !== 0x3a) return Number.NaN;
  const t = b[s + 10];
  if (t !== 0x54 && t !== 0x74 && t !== 0x20) return Number.NaN;
  const year = digits(b, s, 4);
  const month = digits(b, s + 5, 2);
  const day = digits(b, s + 8, 2);
  const hour = digits(b, s + 11, 2);
  const minute = digits(b, s + 14, 2);
  const second = digits(b, s + 17, 2);
  let ms = 0;
  if (n === 24) {
    if (b[s + 19] !== 0x2e) return Number.NaN;
    ms = digits(b, s + 20, 3);
  }
  if (year < 0 || ms < 0 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return Number.NaN;
  if (hour < 0 || hour > 23 || minute < 0 || minute > 59 || second < 0 || second > 59) return Number.NaN;
  return daysFromCivil(year, month, day) * 86_400_000 + ((hour * 60 + minute) * 60 + second) * 1000 + ms;
}

// the number written by `count` decimal digits at `p`, or -1
function digits(b: Uint8Array, p: number, count: number): number {
  let v = 0;
  for (let i = p; i < p + count; i++) {
    const d = b[i]! - 48;
    if (d < 0 || d > 9) return -1;
    v = v * 10 + d;
  }
  return v;
}
