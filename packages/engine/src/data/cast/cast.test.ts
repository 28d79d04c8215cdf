import * as arrow from 'apache-arrow';
import { type Data, type DataType, Field, RecordBatch, Schema, makeData, vectorFromArray } from 'apache-arrow';
import { describe, expect, it } from 'vitest';
import { normalizeSchema } from '../../schema/validate.js';
import { toRecordBatches } from '../convert.js';
import { batchToRows } from '../rows.js';
import { thrown } from '../../test-util/errors.js';

const schemaOf = (...fields: [string, DataType, boolean?][]) => normalizeSchema(new Schema(fields.map(([n, t, nl]) => new Field(n, t, nl ?? true))));
const vec = (values: unknown[], type: DataType) => vectorFromArray(values as never[], type as never).data[0]! as Data;
const ints64 = (type: DataType, values: bigint[]) => makeData({ type: type as arrow.Int64, data: BigInt64Array.from(values) }) as Data;
const batch = (cols: Record<string, Data>) => new RecordBatch(cols);
const convert = (to: DataType, data: Data, nullable = true) => toRecordBatches(schemaOf(['v', to, nullable]), batch({ v: data }))[0]!.data.children[0]!;
const values = (data: Data) => batchToRows(new RecordBatch({ v: data })).map((r) => r.v);

const invalid = (f: () => unknown) => thrown('InvalidData', f);

describe('batch columns of another type', () => {
  it('widen integers and floats', () => {
    expect(values(convert(new arrow.Int64(), vec([-1, 2, null], new arrow.Int32())))).toEqual([-1n, 2n, null]);
    expect(values(convert(new arrow.Uint64(), vec([4294967295], new arrow.Uint32())))).toEqual([4294967295n]);
    expect(values(convert(new arrow.Int32(), vec([-5, 200], new arrow.Int16())))).toEqual([-5, 200]);
    expect(values(convert(new arrow.Float64(), vec([0.1, null], new arrow.Float32())))).toEqual([Math.fround(0.1), null]);
    expect(values(convert(new arrow.Float64(), vec([-7], new arrow.Int8())))).toEqual([-7]);
    expect(values(convert(new arrow.Float32(), vec([0.1, null], new arrow.Float64())))).toEqual([Math.fround(0.1), null]);
    expect(values(convert(new arrow.Float32(), vec([16777217], new arrow.Int32())))).toEqual([16777216]);
  });
  it('narrow numbers when every value fits, else name the row', () => {
    expect(values(convert(new arrow.Int32(), vec([1n, -(2n ** 31n), null], new arrow.Int64())))).toEqual([1, -(2 ** 31), null]);
    expect(values(convert(new arrow.Int16(), vec([3, 4.0], new arrow.Float64())))).toEqual([3, 4]);
    expect(values(convert(new arrow.Int64(), vec([5n], new arrow.Uint64())))).toEqual([5n]);
    expect(invalid(() => convert(new arrow.Int32(), vec([1n, 2n ** 40n], new arrow.Int64())))).toMatchObject({
      row: 1,
      column: 'v',
      message: 'row 1, column "v": 1099511627776 is out of range for int32 (-2147483648 to 2147483647)',
    });
    expect(invalid(() => convert(new arrow.Int32(), vec([1.5], new arrow.Float64()))).message).toBe('row 0, column "v": 1.5 is not an integer (int32)');
    expect(invalid(() => convert(new arrow.Uint8(), vec([-1], new arrow.Int8()))).message).toContain('-1 is out of range for uint8');
    expect(invalid(() => convert(new arrow.Int64(), vec([2n ** 64n - 1n], new arrow.Uint64()))).message).toContain('out of range for int64');
    expect(invalid(() => convert(new arrow.Float32(), vec([1e300], new arrow.Float64()))).message).toBe('row 0, column "v": 1e+300 is out of range for float32');
  });
  it('switch between 32- and 64-bit offsets, sharing the bytes', () => {
    const small = vec(['ab', null, 'é'], new arrow.Utf8());
    const large = convert(new arrow.LargeUtf8(), small);
    expect(large.values).toBe(small.values);
    expect(values(large)).toEqual(['ab', null, 'é']);
    expect(values(convert(new arrow.Utf8(), large))).toEqual(['ab', null, 'é']);
    const bin = vec([new Uint8Array([1, 2])], new arrow.Binary());
    expect(values(convert(new arrow.LargeBinary(), bin))).toEqual([new Uint8Array([1, 2])]);
  });
  it('rescale timestamps and dates when no precision is lost', () => {
    const ms = Date.UTC(2024, 4, 1, 12);
    const day = Date.UTC(2024, 4, 1);
    expect(values(convert(new arrow.TimestampMillisecond(), ints64(new arrow.TimestampSecond(), [BigInt(ms / 1000)])))).toEqual([new Date(ms)]);
    expect(Array.from(convert(new arrow.TimestampNanosecond(), ints64(new arrow.TimestampMillisecond(), [BigInt(ms)])).values as BigInt64Array)).toEqual([
      BigInt(ms) * 1_000_000n,
    ]);
    expect(values(convert(new arrow.TimestampMillisecond(), ints64(new arrow.TimestampNanosecond(), [BigInt(ms) * 1_000_000n])))).toEqual([new Date(ms)]);
    expect(values(convert(new arrow.DateDay(), ints64(new arrow.TimestampMillisecond(), [BigInt(day)])))).toEqual([new Date(day)]);
    expect(values(convert(new arrow.TimestampMicrosecond(), makeData({ type: new arrow.DateDay(), data: new Int32Array([19844]) }) as Data))).toEqual([
      new Date(day),
    ]);
    expect(values(convert(new arrow.DateDay(), ints64(new arrow.DateMillisecond(), [BigInt(day)])))).toEqual([new Date(day)]);
  });
  it('share the buffer when only the timezone differs, or timestamp[ms] becomes date64', () => {
    const t = ints64(new arrow.TimestampMillisecond(), [0n, 86_400_000n]);
    const tz = convert(new arrow.TimestampMillisecond('UTC'), t);
    expect(tz.values).toBe(t.values);
    expect(String(tz.type)).toBe('Timestamp<MILLISECOND, UTC>');
    expect(convert(new arrow.DateMillisecond(), t).values).toBe(t.values);
  });
  it('reject a loss of temporal precision at its row', () => {
    const t = ints64(new arrow.TimestampNanosecond(), [1_000_000n, 1_000_001n]);
    expect(invalid(() => convert(new arrow.TimestampMillisecond(), t))).toMatchObject({
      row: 1,
      message: 'row 1, column "v": value 1000001 of timestamp[ns] has a finer precision for timestamp[ms]',
    });
    expect(invalid(() => convert(new arrow.DateDay(), ints64(new arrow.TimestampMillisecond(), [1n]))).message).toBe(
      'row 0, column "v": value 1 of timestamp[ms] has a time of day for date32',
    );
    expect(invalid(() => convert(new arrow.DateMillisecond(), ints64(new arrow.TimestampMillisecond(), [1n]))).message).toContain('has a time of day for date64');
    expect(invalid(() => convert(new arrow.TimestampNanosecond(), ints64(new arrow.TimestampSecond(), [10n ** 12n]))).message).toContain(
      'is out of range for timestamp[ns]',
    );
  });
  it('take a date64 column of whole days as it is, and refuse one with a time of day at its row, as a row object is', () => {
    const days = ints64(new arrow.DateMillisecond(), [0n, 86_400_000n, -86_400_000n * 30n]);
    expect(convert(new arrow.DateMillisecond(), days).values).toBe(days.values);
    expect(invalid(() => convert(new arrow.DateMillisecond(), ints64(new arrow.DateMillisecond(), [86_400_000n, 5n]))).message).toBe(
      'row 1, column "v": value 5 of date64 has a time of day; date64 holds whole days (UTC midnight)',
    );
    expect(invalid(() => convert(new arrow.DateMillisecond(), ints64(new arrow.DateMillisecond(), [2n ** 62n + 1n]))).row).toBe(0);
    // a null slot's value is not looked at
    const withNull = makeData({ type: new arrow.DateMillisecond(), data: BigInt64Array.from([7n, 0n]), nullBitmap: Uint8Array.of(0b10), nullCount: 1 }) as Data;
    expect(values(convert(new arrow.DateMillisecond(), withNull))).toEqual([null, new Date(0)]);
  });
  it('reject types that do not convert, naming the column', () => {
    const cases: [DataType, Data][] = [
      [new arrow.Float64(), vec(['1.5'], new arrow.Utf8())],
      [new arrow.Int32(), vec([true], new arrow.Bool())],
      [new arrow.Bool(), vec([1], new arrow.Int32())],
      [new arrow.Utf8(), vec([new Uint8Array(1)], new arrow.Binary())],
      [new arrow.TimestampMillisecond(), vec([1n], new arrow.Int64())],
      [new arrow.Int64(), ints64(new arrow.TimestampMillisecond(), [1n])],
    ];
    for (const [to, data] of cases) {
      const e = invalid(() => convert(to, data));
      expect(e.column).toBe('v');
      expect(e.row).toBeUndefined();
      expect(e.message).toMatch(/^column "v": expected .+, got a .+ column, which does not convert$/);
    }
  });
  it('decode dictionary columns', () => {
    const dict = vectorFromArray(['a', 'b', null, 'a'], new arrow.Dictionary(new arrow.Utf8(), new arrow.Int32())).data[0]! as Data;
    expect(values(convert(new arrow.Utf8(), dict))).toEqual(['a', 'b', null, 'a']);
    expect(values(convert(new arrow.LargeUtf8(), dict))).toEqual(['a', 'b', null, 'a']);
    const nums = vectorFromArray([5n, 7n, 5n], new arrow.Dictionary(new arrow.Int64(), new arrow.Int8())).data[0]! as Data;
    expect(values(convert(new arrow.Int64(), nums))).toEqual([5n, 7n, 5n]);
    expect(invalid(() => convert(new arrow.Utf8(), dict, false))).toMatchObject({ row: 2 });
    const type = new arrow.Dictionary(new arrow.Utf8(), new arrow.Int8());
    const bad = makeData({ type, data: new Int8Array([0, -1]), dictionary: vectorFromArray(['a'], new arrow.Utf8()) }) as Data;
    expect(invalid(() => convert(new arrow.Utf8(), bad)).message).toBe('row 1, column "v": dictionary index -1 is out of range (1 values)');
  });
});
