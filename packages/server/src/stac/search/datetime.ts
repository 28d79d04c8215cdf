// The `datetime` search parameter: one instant or an interval with open ends, as inclusive epoch-ms bounds.
import { invalid } from '../errors.js';
import { parseRfc3339, type Instant } from '../time.js';

/** Inclusive bounds in epoch ms; -Infinity / Infinity for an open end. */
export interface TimeRange {
  readonly start: number;
  readonly end: number;
}

/**
 * Parses `2020-01-01T00:00:00Z`, `a/b`, `../b`, `/b`, `a/..`, `a/`. Catalog times have millisecond
 * precision, so a start with sub-millisecond digits rounds up and an end rounds down: exact for them.
 * `../..`, `/`, an empty value and an end before the start are 400s.
 * @example
 * parseDatetime('2020-01-01T00:00:00Z/..') // { start: 1577836800000, end: Infinity }
 */
export function parseDatetime(value: unknown): TimeRange {
  if (typeof value !== 'string') throw invalid('datetime', `must be a string, got ${JSON.stringify(value)}`);
  if (value === '') throw invalid('datetime', 'is empty; give an instant or an interval like 2020-01-01T00:00:00Z/..');
  const parts = value.split('/');
  if (parts.length > 2) throw invalid('datetime', `'${value}' has more than one '/'`);
  if (parts.length === 1) {
    const t = instant(parts[0]!);
    return { start: ceil(t), end: t.ms };
  }
  const [a, b] = parts as [string, string];
  const openA = a === '' || a === '..';
  const openB = b === '' || b === '..';
  if (openA && openB) throw invalid('datetime', `'${value}' is open at both ends; give a start or an end`);
  const from = openA ? undefined : instant(a);
  const to = openB ? undefined : instant(b);
  if (from && to && (to.ms < from.ms || (to.ms === from.ms && to.nanos < from.nanos))) {
    throw invalid('datetime', `'${value}' ends before it starts`);
  }
  return { start: from ? ceil(from) : -Infinity, end: to ? to.ms : Infinity };
}

function instant(text: string): Instant {
  const t = parseRfc3339(text);
  if (typeof t === 'string') throw invalid('datetime', t);
  return t;
}

function ceil(t: Instant): number {
  return t.ms + (t.nanos > 0 ? 1 : 0);
}
