import * as arrow from 'apache-arrow';
import { Field, Schema } from 'apache-arrow';
import { describe, expect, it } from 'vitest';
import { isSchema, normalizeSchema } from './validate.js';
import { thrown } from '../test-util/errors.js';

const supported: [string, arrow.DataType][] = [
  ['int8', new arrow.Int8()],
  ['int16', new arrow.Int16()],
  ['int32', new arrow.Int32()],
  ['int64', new arrow.Int64()],
  ['uint8', new arrow.Uint8()],
  ['uint16', new arrow.Uint16()],
  ['uint32', new arrow.Uint32()],
  ['uint64', new arrow.Uint64()],
  ['float32', new arrow.Float32()],
  ['float64', new arrow.Float64()],
  ['bool', new arrow.Bool()],
  ['utf8', new arrow.Utf8()],
  ['largeutf8', new arrow.LargeUtf8()],
  ['binary', new arrow.Binary()],
  ['largebinary', new arrow.LargeBinary()],
  ['date32', new arrow.DateDay()],
  ['date64', new arrow.DateMillisecond()],
  ['timestamp[s]', new arrow.TimestampSecond()],
  ['timestamp[ms, tz=UTC]', new arrow.TimestampMillisecond('UTC')],
  ['timestamp[us]', new arrow.TimestampMicrosecond()],
  ['timestamp[ns, tz=Europe/Paris]', new arrow.TimestampNanosecond('Europe/Paris')],
];

const unsupported: [string, arrow.DataType][] = [
  ['List<Int32>', new arrow.List(new Field('item', new arrow.Int32()))],
  ['Struct<{a:Int32}>', new arrow.Struct([new Field('a', new arrow.Int32())])],
  ['Dictionary<Int32, Utf8>', new arrow.Dictionary(new arrow.Utf8(), new arrow.Int32())],
  ['Decimal[10e+2]', new arrow.Decimal(2, 10, 128)],
  ['float16', new arrow.Float16()],
  ['Time32<MILLISECOND>', new arrow.TimeMillisecond()],
  ['Interval<DAY_TIME>', new arrow.IntervalDayTime()],
  ['Null', new arrow.Null()],
  ['Duration<SECOND>', new arrow.DurationSecond()],
  ['FixedSizeBinary[4]', new arrow.FixedSizeBinary(4)],
];

const invalid = (f: () => unknown) => thrown('InvalidSchema', f);

describe('normalizeSchema', () => {
  it('accepts every supported type, keeping types and nullability', () => {
    const schema = new Schema(supported.map(([n, t], i) => new Field(n, t, i % 2 === 0)), new Map([['owner', 'x']]));
    const out = normalizeSchema(schema);
    expect(out).not.toBe(schema);
    expect(out.fields.map((f) => [f.name, f.type, f.nullable])).toEqual(schema.fields.map((f) => [f.name, f.type, f.nullable]));
    expect(Object.fromEntries(out.metadata)).toEqual({ owner: 'x' });
  });
  it('rejects every other type naming the column and the type', () => {
    for (const [name, type] of unsupported) {
      const e = invalid(() => normalizeSchema(new Schema([new Field('ok', new arrow.Int32()), new Field('bad', type)]), { table: 't' }));
      expect(e.message).toContain(`column "bad": type ${name} is not supported; use one of int8`);
      expect(e).toMatchObject({ table: 't', column: 'bad' });
    }
  });
  it('normalises metadata into a new schema without touching the input', () => {
    const input = new Schema([new Field('lat', new arrow.Float64(), false, new Map([['isLat', 'yes'], ['index', '1']]))]);
    const out = normalizeSchema(input);
    expect(Object.fromEntries(out.fields[0]!.metadata)).toEqual({ class: 'latitude', index: 'true' });
    expect(Object.fromEntries(input.fields[0]!.metadata)).toEqual({ isLat: 'yes', index: '1' });
  });
  it('refuses an aggr other than count on a column that is not numeric, which every default aggregate would fail on', () => {
    const with_ = (type: arrow.DataType, aggr: string) => new Schema([new Field('x', type, true, new Map([['aggr', aggr]]))]);
    for (const [type, aggr] of [[new arrow.Utf8(), 'sum'], [new arrow.Bool(), 'avg'], [new arrow.TimestampMillisecond(), 'max'], [new arrow.Binary(), 'mean']] as const) {
      const e = thrown('InvalidSchema', () => normalizeSchema(with_(type, aggr), { table: 't' }));
      expect(e).toMatchObject({ column: 'x', table: 't' });
      expect(e.message).toMatch(/^column "x": aggr (sum|avg|max) needs a numeric column, got \S+; count works on any column$/);
    }
    expect(() => normalizeSchema(with_(new arrow.Utf8(), 'count'))).not.toThrow();
    expect(() => normalizeSchema(with_(new arrow.Int64(), 'sum'))).not.toThrow();
    expect(() => normalizeSchema(with_(new arrow.Float32(), 'MEAN'))).not.toThrow();
  });

  it('requires at least one field, non-empty and unique names', () => {
    expect(invalid(() => normalizeSchema(new Schema([]))).message).toBe('a schema needs at least one field');
    expect(invalid(() => normalizeSchema(new Schema([new Field('', new arrow.Int32())]))).message).toContain('field 0 has an empty name');
    const dup = invalid(() => normalizeSchema(new Schema([new Field('a', new arrow.Int32()), new Field('a', new arrow.Utf8())])));
    expect(dup).toMatchObject({ message: 'duplicate column name "a"', column: 'a' });
    // NUL names the engine's derived columns (a geometry's box: `g\0xmin` …): no column may take one
    expect(invalid(() => normalizeSchema(new Schema([new Field('g\0xmin', new arrow.Float64())])))).toMatchObject({
      message: 'column "g\\u0000xmin": a name cannot hold the NUL character (\\u0000)',
      column: 'g\0xmin',
    });
  });
  it('says so when the argument is not a schema', () => {
    expect(invalid(() => normalizeSchema({ fields: [] } as unknown as Schema)).message).toBe('expected an Arrow Schema, got Object');
    expect(invalid(() => normalizeSchema(null as unknown as Schema)).message).toBe('expected an Arrow Schema, got null');
    const odd = Object.assign(Object.create(Schema.prototype) as Schema, { fields: [{ name: 'x' }], metadata: new Map() });
    expect(invalid(() => normalizeSchema(odd)).message).toBe('field 0 is not an Arrow Field, got Object');
  });
});

describe('isSchema', () => {
  it('recognises arrow schemas only', () => {
    expect(isSchema(new Schema([]))).toBe(true);
    expect(isSchema({ fields: [] })).toBe(false);
    expect(isSchema(undefined)).toBe(false);
  });
});
