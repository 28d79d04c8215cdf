// ISO 8601 parsing and exact unit conversion.
import { describe, expect, it } from 'vitest';
import { parseDatetime, parseTime, rescaleFactor, toUnit } from './temporal.js';

const NS_PER_DAY = 86_400_000_000_000n;

describe('parseDatetime', () => {
  it('reads dates and date-times as UTC nanoseconds, with zones and fractions', () => {
    expect(parseDatetime('1970-01-01')).toBe(0n);
    expect(parseDatetime('1970-01-02T00:00:00Z')).toBe(NS_PER_DAY);
    expect(parseDatetime('2020-01-01T00:00:00.123456789Z')).toBe(1_577_836_800_123_456_789n);
    expect(parseDatetime('2020-01-01 00:00:00.5')).toBe(1_577_836_800_500_000_000n);
    expect(parseDatetime('2020-01-01T02:30+02:30')).toBe(1_577_836_800_000_000_000n);
    expect(parseDatetime('2019-12-31T22:00:00-0200')).toBe(1_577_836_800_000_000_000n);
    expect(parseDatetime('1969-12-31T23:59:59.999Z')).toBe(-1_000_000n);
    expect(parseDatetime('2000-02-29')).toBe(BigInt(Date.UTC(2000, 1, 29)) * 1_000_000n);
    expect(parseDatetime('0001-01-01')).toBe(-719_162n * NS_PER_DAY);
  });

  it('agrees with Date.parse on millisecond instants', () => {
    for (const text of ['2024-02-29T12:34:56.789Z', '1999-12-31T23:59:59Z', '2038-01-19T03:14:07.001+05:45']) {
      expect(parseDatetime(text)).toBe(BigInt(Date.parse(text)) * 1_000_000n);
    }
  });

  it('rejects malformed or impossible values', () => {
    for (const text of ['2020-13-01', '2019-02-29', '2020-01-32', '2020-01-01T24:00', '2020-01-01T00:60', '20200101', 'yesterday', '2020-01-01T00:00:00.1234567891Z', '2020-01-01Z', '']) {
      expect(parseDatetime(text), text).toBeNull();
    }
  });
});

describe('parseTime', () => {
  it('reads times of day as nanoseconds since midnight', () => {
    expect(parseTime('00:00')).toBe(0n);
    expect(parseTime('23:59:59.999999999')).toBe(NS_PER_DAY - 1n);
    expect(parseTime('25:00')).toBeNull();
  });
});

describe('toUnit', () => {
  it('converts exactly on unit boundaries (bigint, or a number of days for date32)', () => {
    expect(toUnit(1_500_000_000n, 'timestamp[ms]')).toBe(1500n);
    expect(toUnit(-2_000_000_000n, 'timestamp[s]')).toBe(-2n);
    expect(toUnit(7n, 'timestamp[ns]')).toBe(7n);
    expect(toUnit(3n * NS_PER_DAY, 'date32')).toBe(3);
    expect(toUnit(3n * NS_PER_DAY, 'date64')).toBe(259_200_000n);
  });

  it('gives k + 0.5 between units k and k + 1 (floor towards minus infinity)', () => {
    expect(toUnit(1_500_000_001n, 'timestamp[ms]')).toBe(1500.5);
    expect(toUnit(-1n, 'timestamp[us]')).toBe(-0.5);
    expect(toUnit(NS_PER_DAY / 2n, 'date32')).toBe(0.5);
    expect(toUnit(-NS_PER_DAY / 2n, 'date32')).toBe(-0.5);
  });

  it('gives factors to rescale coarser units into finer ones', () => {
    expect(rescaleFactor('date32', 'timestamp[ms]')).toBe(86_400_000n);
    expect(rescaleFactor('timestamp[s]', 'timestamp[us]')).toBe(1_000_000n);
    expect(rescaleFactor('date64', 'timestamp[ms]')).toBe(1n);
  });
});
