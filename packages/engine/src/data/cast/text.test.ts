import * as arrow from 'apache-arrow';
import { type Data, type DataType, RecordBatch, makeData, vectorFromArray } from 'apache-arrow';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RowError } from '../fail.js';
import { batchToRows } from '../rows.js';
import { castText } from './text.js';

const vec = (values: unknown[], type: DataType) => vectorFromArray(values as never[], type as never).data[0]! as Data;
const ints64 = (type: DataType, values: bigint[]) => makeData({ type: type as arrow.Int64, data: BigInt64Array.from(values) }) as Data;
const values = (data: Data | null) => batchToRows(new RecordBatch({ v: data! })).map((r) => r.v);
const text = (data: Data | null) => values(data) as (string | null)[];
const utf8 = new arrow.Utf8();

function rowError(f: () => unknown): RowError {
  try {
    f();
  } catch (e) {
    if (e instanceof RowError) return e;
    throw e;
  }
  throw new Error('expected a RowError');
}

describe('alter casts between text and other kinds', () => {
  it('parse strings into numbers, booleans, timestamps and dates', () => {
    expect(values(castText(vec(['1', ' -2 ', null, '9223372036854775807', '+7'], utf8), new arrow.Int64()))).toEqual([1n, -2n, null, 2n ** 63n - 1n, 7n]);
    expect(values(castText(vec(['12', '-3'], new arrow.LargeUtf8()), new arrow.Int16()))).toEqual([12, -3]);
    expect(values(castText(vec(['1.5', '1e3', '-.5', '2.', 'NaN', '-inf', 'Infinity', null], utf8), new arrow.Float64()))).toEqual([
      1.5,
      1000,
      -0.5,
      2,
      Number.NaN,
      -Infinity,
      Infinity,
      null,
    ]);
    expect(values(castText(vec(['true', 'FALSE', null, 'True'], utf8), new arrow.Bool()))).toEqual([true, false, null, true]);
    const ts = castText(vec(['2020-01-01T00:00:00.123456Z', '2020-01-02', null], utf8), new arrow.TimestampMicrosecond());
    expect(Array.from(ts!.values as BigInt64Array).slice(0, 2)).toEqual([1577836800123456n, 1577923200000000n]);
    expect(values(castText(vec(['2020-01-02', null], utf8), new arrow.DateDay()))).toEqual([new Date('2020-01-02'), null]);
  });

  it('format numbers, booleans, timestamps and dates as strings that parse back to the same values', () => {
    expect(text(castText(vec([1, -2, null], new arrow.Int32()), utf8))).toEqual(['1', '-2', null]);
    expect(text(castText(ints64(new arrow.Int64(), [2n ** 63n - 1n, -(2n ** 63n)]), new arrow.LargeUtf8()))).toEqual(['9223372036854775807', '-9223372036854775808']);
    expect(text(castText(vec([1.5, Number.NaN, -Infinity, 1e21, 0.1], new arrow.Float64()), utf8))).toEqual(['1.5', 'NaN', '-Infinity', '1e+21', '0.1']);
    expect(text(castText(vec([true, false, null], new arrow.Bool()), utf8))).toEqual(['true', 'false', null]);
    expect(text(castText(ints64(new arrow.TimestampNanosecond(), [1n, -1n]), utf8))).toEqual(['1970-01-01T00:00:00.000000001Z', '1969-12-31T23:59:59.999999999Z']);
    expect(text(castText(ints64(new arrow.TimestampSecond(), [1n]), utf8))).toEqual(['1970-01-01T00:00:01Z']);
    expect(text(castText(ints64(new arrow.TimestampMillisecond(), [1500n]), utf8))).toEqual(['1970-01-01T00:00:01.500Z']);
    expect(text(castText(ints64(new arrow.TimestampMillisecond(), [7n, 1500n]).slice(1, 1), utf8))).toEqual(['1970-01-01T00:00:01.500Z']);
    expect(text(castText(vec([new Date('2020-01-02')], new arrow.DateDay()), utf8))).toEqual(['2020-01-02']);
  });

  it('round-trips every int64, float64 and timestamp[ns] value through a string', () => {
    fc.assert(
      fc.property(fc.array(fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n })), (vs) => {
        const back = castText(castText(ints64(new arrow.Int64(), vs), utf8)!, new arrow.Int64());
        expect(Array.from(back!.values as BigInt64Array)).toEqual(vs);
        const ns = castText(castText(ints64(new arrow.TimestampNanosecond(), vs), utf8)!, new arrow.TimestampNanosecond());
        expect(Array.from(ns!.values as BigInt64Array)).toEqual(vs);
      }),
    );
    fc.assert(
      fc.property(fc.array(fc.double()), (vs) => {
        const back = castText(castText(vec(vs, new arrow.Float64()), utf8)!, new arrow.Float64());
        // -0 formats as "0"
        expect(Array.from(back!.values as Float64Array)).toEqual(vs.map((v) => (Object.is(v, -0) ? 0 : v)));
      }),
    );
  });

  it('name the row of a string that does not parse', () => {
    expect(rowError(() => castText(vec(['1', '1.5x'], utf8), new arrow.Float64()))).toMatchObject({ row: 1, message: 'string "1.5x" is not a number (float64)' });
    expect(rowError(() => castText(vec(['', null], utf8), new arrow.Float64()))).toMatchObject({ row: 0 });
    expect(rowError(() => castText(vec(['0x10'], utf8), new arrow.Float64()))).toMatchObject({ row: 0 });
    expect(rowError(() => castText(vec([null, '1.0'], utf8), new arrow.Int32()))).toMatchObject({ row: 1, message: 'string "1.0" is not an integer (int32)' });
    expect(rowError(() => castText(vec(['300'], utf8), new arrow.Uint8()))).toMatchObject({ row: 0, message: '300 is out of range for uint8 (0 to 255)' });
    expect(rowError(() => castText(vec(['9223372036854775808'], utf8), new arrow.Int64()))).toMatchObject({ row: 0 });
    expect(rowError(() => castText(vec(['yes'], utf8), new arrow.Bool()))).toMatchObject({ row: 0, message: 'string "yes" is not a boolean (true or false)' });
    expect(rowError(() => castText(vec(['2020-01-01', 'yesterday'], utf8), new arrow.TimestampMillisecond()))).toMatchObject({ row: 1 });
    expect(rowError(() => castText(ints64(new arrow.TimestampSecond(), [2n ** 62n]), utf8))).toMatchObject({ row: 0 });
  });

  it('leave other pairs to the other casts', () => {
    expect(castText(vec(['a'], utf8), new arrow.LargeUtf8())).toBeNull();
    expect(castText(vec([1], new arrow.Int32()), new arrow.Float64())).toBeNull();
    expect(castText(vec(['a'], utf8), new arrow.Binary())).toBeNull();
    expect(castText(vec([new Uint8Array(1)], new arrow.Binary()), utf8)).toBeNull();
  });
});
