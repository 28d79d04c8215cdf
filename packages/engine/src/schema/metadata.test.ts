import { Binary, type DataType, Field, Float32, Float64, Int32, LargeBinary, LargeUtf8, Utf8 } from 'apache-arrow';
import { describe, expect, it } from 'vitest';
import { fieldInfo, normalizeMetadata } from './metadata.js';
import { thrown } from '../test-util/errors.js';

const field = (md: Record<string, string>, type: DataType = new Float64()) => new Field('c', type, true, new Map(Object.entries(md)));
const norm = (md: Record<string, string>, type: DataType = new Float64()) => Object.fromEntries(normalizeMetadata(field(md, type), { table: 't' }));

const invalid = (f: () => unknown) => thrown('InvalidSchema', f);

describe('normalizeMetadata', () => {
  it('normalises the index marker and rejects other values', () => {
    for (const v of ['true', 'TRUE', '1', 'yes', 'Yes', '', ' true ']) expect(norm({ index: v })).toEqual({ index: 'true' });
    for (const v of ['false', 'no', '0', 'maybe']) {
      const e = invalid(() => norm({ index: v }));
      expect(e.message).toBe(`column "c": index must be "true" (or "1", "yes", ""), got "${v}"; remove the key to leave the column unindexed`);
      expect(e).toMatchObject({ table: 't', column: 'c', value: v });
    }
  });
  it('accepts the five aggregations, mean as avg, any case', () => {
    for (const a of ['sum', 'count', 'avg', 'min', 'max']) expect(norm({ aggr: a })).toEqual({ aggr: a });
    expect(norm({ aggr: 'mean' })).toEqual({ aggr: 'avg' });
    expect(norm({ aggr: 'SUM' })).toEqual({ aggr: 'sum' });
    expect(invalid(() => norm({ aggr: 'median' })).message).toContain('aggr must be one of sum, count, avg, min, max, got "median"');
  });
  it('checks the type a class requires', () => {
    for (const t of [new Utf8(), new LargeUtf8(), new Binary(), new LargeBinary()]) expect(norm({ class: 'geometry' }, t)).toEqual({ class: 'geometry' });
    expect(norm({ class: 'Latitude' }, new Float32())).toEqual({ class: 'latitude' });
    expect(norm({ class: 'longitude' })).toEqual({ class: 'longitude' });
    expect(invalid(() => norm({ class: 'geometry' }, new Int32())).message).toBe(
      'column "c": class geometry requires utf8/largeutf8 (WKT) or binary/largebinary (WKB), got int32',
    );
    expect(invalid(() => norm({ class: 'latitude' }, new Utf8())).message).toContain('class latitude requires float32 or float64, got utf8');
    expect(invalid(() => norm({ class: '' })).message).toContain('class must not be empty');
  });
  it('keeps experimental classes as given', () => {
    expect(norm({ class: 'DepthBelowSea' }, new Int32())).toEqual({ class: 'DepthBelowSea' });
    expect(norm({ class: 'constructor', constructor: 'x' }, new Int32())).toEqual({ class: 'constructor', constructor: 'x' });
    expect(invalid(() => norm({ aggr: 'toString' })).message).toContain('aggr must be one of');
  });
  it('maps obsolete keys to their successors', () => {
    expect(norm({ isGeometry: 'true' }, new Utf8())).toEqual({ class: 'geometry' });
    expect(norm({ isLat: '1' })).toEqual({ class: 'latitude' });
    expect(norm({ isLon: 'yes', unit: 'deg' })).toEqual({ class: 'longitude', unit: 'deg' });
    expect(norm({ isLat: 'false', big: 'true' })).toEqual({});
    expect(norm({ class: 'latitude', isLat: 'true' })).toEqual({ class: 'latitude' });
    expect(invalid(() => norm({ isLat: 'true' }, new Int32())).message).toContain('class latitude requires float32 or float64');
    expect(invalid(() => norm({ isLat: 'true', isLon: 'true' })).message).toContain('obsolete isLon implies class longitude');
    expect(invalid(() => norm({ class: 'geometry', isLat: 'true' }, new Utf8())).message).toContain('conflicts with class "geometry"');
    expect(invalid(() => norm({ isGeometry: 'sure' }, new Utf8())).message).toContain('isGeometry must be "true" or "false", got "sure"');
  });
  it('validates unit and names, keeps description and unknown keys untouched', () => {
    expect(norm({ unit: 'Cel', description: ' Sea temp ', ingest_name: 'TEMP', prev_name: 't', 'x-custom': ' ' })).toEqual({
      unit: 'Cel',
      description: ' Sea temp ',
      ingest_name: 'TEMP',
      prev_name: 't',
      'x-custom': ' ',
    });
    expect(invalid(() => norm({ unit: ' ' })).message).toContain('unit must be a non-empty UCUM unit');
    expect(invalid(() => norm({ prev_name: '' })).message).toContain('prev_name must be a non-empty column name');
    expect(invalid(() => norm({ ingest_name: '' })).message).toContain('ingest_name must be a non-empty column name');
  });
  it('keeps the key order and leaves the input field alone', () => {
    const f = field({ z: '1', isLat: 'true', index: 'yes', a: '2' });
    expect([...normalizeMetadata(f)]).toEqual([
      ['z', '1'],
      ['class', 'latitude'],
      ['index', 'true'],
      ['a', '2'],
    ]);
    expect(Object.fromEntries(f.metadata)).toEqual({ z: '1', isLat: 'true', index: 'yes', a: '2' });
  });
  it('rejects values that are not strings', () => {
    const f = new Field('c', new Float64(), true, new Map<string, string>([['index', true as unknown as string]]));
    expect(invalid(() => normalizeMetadata(f)).message).toContain('metadata keys and values must be strings');
  });
});

describe('fieldInfo', () => {
  it('is the typed view of the normalised metadata', () => {
    const f = field({ index: '', aggr: 'mean', isLat: 'true', unit: 'deg', description: 'd', ingest_name: 'LAT', prev_name: 'y' });
    expect(fieldInfo(f)).toEqual({ index: true, aggr: 'avg', class: 'latitude', unit: 'deg', description: 'd', ingestName: 'LAT', prevName: 'y' });
    expect(fieldInfo(f)).toBe(fieldInfo(f));
    expect(fieldInfo(field({}))).toEqual({ index: false });
  });
  it('throws InvalidSchema for invalid metadata', () => {
    expect(invalid(() => fieldInfo(field({ aggr: 'x' }), { table: 't' }))).toMatchObject({ table: 't', column: 'c' });
  });
});
