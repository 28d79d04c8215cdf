// Zone-map pruning examples: ranges, nulls, NaN, strings, temporal, three-valued combinations.
import { Bool, DateDay, Field, Float64, Int32, Int64, Schema, TimestampMillisecond, Utf8 } from 'apache-arrow';
import { describe, expect, it } from 'vitest';
import type { ZoneMaps, ZoneStats } from './kernel.js';
import { prepareFilter } from './prepare.js';
import { zonePredicate } from './prune.js';

const schema = new Schema([
  new Field('n', new Int32(), true),
  new Field('x', new Float64(), true),
  new Field('big', new Int64(), true),
  new Field('s', new Utf8(), true),
  new Field('ok', new Bool(), true),
  new Field('ts', new TimestampMillisecond(), true),
  new Field('day', new DateDay(), true),
]);

const zone = (min: ZoneStats['min'], max: ZoneStats['max'], nullCount = 0, rows = 10): ZoneStats => ({ min, max, nullCount, rows });

const zones: ZoneMaps = {
  n: zone(10, 20),
  x: zone(-1.5, 2.5, 3),
  big: zone(9007199254740993n, 9007199254740995n),
  s: zone('b', 'é'),
  ok: zone(false, false),
  ts: zone(1_577_836_800_000n, 1_577_836_800_999n),
  day: zone(18262, 18263),
};

const may = (query: string, z: ZoneMaps = zones): boolean => zonePredicate(prepareFilter(query, schema).typed)(z);

describe('zonePredicate', () => {
  it('prunes comparisons outside a column range', () => {
    expect([may('n > 20'), may('n >= 20'), may('n < 10'), may('n <= 10'), may('n = 21'), may('n = 15')]).toEqual([false, true, false, true, false, true]);
    expect([may('20 < n'), may('5 > n'), may('n != 15')]).toEqual([false, false, true]);
    expect(may('n != 15', { n: zone(15, 15) })).toBe(false);
    expect(may('n + 1 > 100')).toBe(true); // arithmetic is not bounded
  });

  it('compares mixed number and bigint bounds exactly', () => {
    expect(may('big = 9007199254740992')).toBe(false);
    expect(may('big > 9007199254740994.5')).toBe(true);
    expect(may('big > 9007199254740995')).toBe(false);
    expect(may('big < 9007199254740993.0')).toBe(false);
  });

  it('orders strings by UTF-8 bytes', () => {
    expect(may('s < "b"')).toBe(false);
    expect(may('s > "é"')).toBe(false);
    expect(may('s > "z"')).toBe(true); // 'z' < 'é' in code point order
    expect(may('s in ("a", "😀")')).toBe(false);
  });

  it('uses null counts for is null and all-null chunks', () => {
    expect(may('x is null')).toBe(true);
    expect(may('n is null')).toBe(false);
    expect(may('n is not null', { n: zone(null, null, 10) })).toBe(false);
    expect(may('n > 0 or n < 1', { n: zone(null, null, 10) })).toBe(false);
    expect(may('not (n > 0)', { n: zone(null, null, 10) })).toBe(false);
  });

  it('assumes float columns may hold NaN, which zone maps leave out', () => {
    expect(may('x > 3')).toBe(false);
    expect(may('not (x <= 3)')).toBe(true); // NaN <= 3 is false, so not(...) is true
    expect(may('x != 0', { x: zone(0, 0) })).toBe(true);
    expect(may('x = 1', { x: zone(null, null, 0) })).toBe(false); // only NaN values
    expect(may('x != 1', { x: zone(null, null, 0) })).toBe(true);
  });

  it('combines and, or, not and in with three-valued logic', () => {
    expect(may('n > 15 and n > 30')).toBe(false);
    expect(may('n > 30 or s = "c"')).toBe(true);
    expect(may('n > 30 or s = "a"')).toBe(false);
    expect(may('not (n >= 10)')).toBe(false);
    expect(may('not (n > 15)')).toBe(true);
    expect(may('n in (1, 2, 30)')).toBe(false);
    expect(may('n in (1, 12)')).toBe(true);
    expect(may('n not in (10)', { n: zone(10, 10) })).toBe(false);
    expect(may('ok')).toBe(false);
    expect(may('not ok')).toBe(true);
    expect(may('ok = false')).toBe(true);
  });

  it('prunes temporal columns against converted literals', () => {
    expect(may('ts >= "2020-01-01T00:00:01Z"')).toBe(false);
    expect(may('ts > "2020-01-01T00:00:00.9985Z"')).toBe(true);
    expect(may('ts > "2020-01-01T00:00:00.9995Z"')).toBe(false);
    expect(may('day > "2020-01-02T12:00Z"')).toBe(false);
    expect(may('day > "2020-01-02T11:00Z"')).toBe(false);
    expect(may('day >= "2020-01-02T00:00Z"')).toBe(true);
    expect(may('day < ts')).toBe(true);
  });

  it('answers maybe without stats, and folds constants', () => {
    expect(may('n > 100', {})).toBe(true);
    expect(may('n > 100', { n: { min: 'a', max: 'b', nullCount: 0, rows: 1 } })).toBe(true);
    expect(may('1 = 1', {})).toBe(true);
    expect(may('"fetch" == "schema"', {})).toBe(false);
  });
});
