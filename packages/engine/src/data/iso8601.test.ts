import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { daysFromCivil, parseIso } from './iso8601.js';

function parse(s: string): [number, number] | string {
  const out = new Float64Array(2);
  const wrong = parseIso(s, out);
  return wrong ?? [out[0]!, out[1]!];
}

describe('parseIso', () => {
  it('reads dates and date-times as UTC unless an offset is given', () => {
    expect(parse('2024-05-01')).toEqual([Date.UTC(2024, 4, 1), 0]);
    expect(parse('2024-05-01T12:30')).toEqual([Date.UTC(2024, 4, 1, 12, 30), 0]);
    expect(parse('2024-05-01 12:30:15')).toEqual([Date.UTC(2024, 4, 1, 12, 30, 15), 0]);
    expect(parse('2024-05-01t12:30:15z')).toEqual([Date.UTC(2024, 4, 1, 12, 30, 15), 0]);
    expect(parse('2024-05-01T12:30:15+02:00')).toEqual([Date.UTC(2024, 4, 1, 10, 30, 15), 0]);
    expect(parse('2024-05-01T12:30:15-0330')).toEqual([Date.UTC(2024, 4, 1, 16, 0, 15), 0]);
    expect(parse('2024-05-01T00:00:00+05')).toEqual([Date.UTC(2024, 3, 30, 19), 0]);
  });
  it('keeps fractions exactly, to the nanosecond', () => {
    expect(parse('2024-05-01T00:00:00.5Z')).toEqual([Date.UTC(2024, 4, 1) + 500, 0]);
    expect(parse('2024-05-01T00:00:00,123Z')).toEqual([Date.UTC(2024, 4, 1) + 123, 0]);
    expect(parse('2024-05-01T00:00:00.1234Z')).toEqual([Date.UTC(2024, 4, 1) + 123, 400_000]);
    expect(parse('2024-05-01T00:00:00.123456789Z')).toEqual([Date.UTC(2024, 4, 1) + 123, 456_789]);
    expect(parse('2024-05-01T00:00:00.123456789000Z')).toEqual([Date.UTC(2024, 4, 1) + 123, 456_789]);
    expect(parse('2024-05-01T00:00:00.1234567891Z')).toBe('has digits finer than nanoseconds');
  });
  it('handles years before 1970, before year 100 and extended years', () => {
    expect(parse('1969-12-31T23:59:59.999Z')).toEqual([-1, 0]);
    expect(parse('0001-01-01')).toEqual([-62135596800000, 0]);
    expect(parse('+275760-09-13')).toEqual([8.64e15, 0]);
    expect(parse('-000001-01-01')).toEqual([new Date('-000001-01-01T00:00:00Z').getTime(), 0]);
  });
  it('rejects what is not a valid ISO-8601 date or date-time', () => {
    for (const s of ['', '2024', '2024-5-01', '2024-13-01', '2024-02-30', '2023-02-29', '2024-00-10', '2024-05-01T24:00', '2024-05-01T12:60',
      '2024-05-01T12:00:60', '2024-05-01T12', '2024-05-01T12:00:00.', '2024-05-01T12:00:00Zx', '2024-05-01T12:00+25:00', '2024-05-01T12:00+05:',
      '2024-05-01T12:00+05:7', '-000000-01-01', ' 2024-05-01', 'yesterday', '2024-05-01X12:00']) {
      expect(parse(s), s).toMatch(/^is not an ISO-8601 date or date-time/);
    }
  });
  it('agrees with Date for every millisecond Date can print', () => {
    fc.assert(
      fc.property(fc.integer({ min: -8.64e15, max: 8.64e15 }), (ms) => {
        expect(parse(new Date(ms).toISOString())).toEqual([ms, 0]);
      }),
    );
  });
});

describe('daysFromCivil', () => {
  it('counts days from 1970-01-01 in the proleptic Gregorian calendar', () => {
    expect(daysFromCivil(1970, 1, 1)).toBe(0);
    expect(daysFromCivil(2000, 3, 1)).toBe(11017);
    expect(daysFromCivil(1969, 12, 31)).toBe(-1);
  });
});
