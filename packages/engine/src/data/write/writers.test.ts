import * as arrow from 'apache-arrow';
import { type DataType, Field, Schema } from 'apache-arrow';
import { describe, expect, it } from 'vitest';
import { normalizeSchema } from '../../schema/validate.js';
import { toRecordBatches } from '../convert.js';
import { thrown } from '../../test-util/errors.js';

const schemaOf = (...fields: [string, DataType, boolean?][]) => normalizeSchema(new Schema(fields.map(([n, t, nl]) => new Field(n, t, nl ?? true))));
// the single chunk of column v after inserting { v } rows
const chunk = (type: DataType, values: unknown[], nullable = true) => toRecordBatches(schemaOf(['v', type, nullable]), values.map((v) => ({ v })))[0]!.data.children[0]!;
const stored = (type: DataType, values: unknown[]) => Array.from(chunk(type, values).values as ArrayLike<unknown>);

const invalid = (f: () => unknown) => thrown('InvalidData', f);
const rejects = (type: DataType, values: unknown[], nullable = true) => invalid(() => chunk(type, values, nullable));

describe('rows into integer columns', () => {
  it('stores integral numbers and bigints within the range', () => {
    expect(stored(new arrow.Int8(), [-128, 127, 5n])).toEqual([-128, 127, 5]);
    expect(stored(new arrow.Uint8(), [0, 255])).toEqual([0, 255]);
    expect(stored(new arrow.Int16(), [-32768, 32767])).toEqual([-32768, 32767]);
    expect(stored(new arrow.Uint16(), [65535])).toEqual([65535]);
    expect(stored(new arrow.Int32(), [-(2 ** 31), 2 ** 31 - 1, -0])).toEqual([-(2 ** 31), 2 ** 31 - 1, 0]);
    expect(stored(new arrow.Uint32(), [2 ** 32 - 1, 4294967295n])).toEqual([2 ** 32 - 1, 2 ** 32 - 1]);
  });
  it('stores int64/uint64 from bigints and from integral numbers of any size', () => {
    expect(stored(new arrow.Int64(), [-(2n ** 63n), 2n ** 63n - 1n, 2 ** 60, -(2 ** 53) - 2, -1, 0])).toEqual([
      -(2n ** 63n),
      2n ** 63n - 1n,
      2n ** 60n,
      -(2n ** 53n) - 2n,
      -1n,
      0n,
    ]);
    expect(stored(new arrow.Uint64(), [2n ** 64n - 1n, 2 ** 63, 7])).toEqual([2n ** 64n - 1n, 2n ** 63n, 7n]);
  });
  it('rejects lossy values with the row, the column and what is wrong', () => {
    expect(rejects(new arrow.Int32(), [1, 2, 1.5])).toMatchObject({ row: 2, column: 'v', value: 1.5, message: 'row 2, column "v": 1.5 is not an integer (int32)' });
    expect(rejects(new arrow.Int8(), [300]).message).toBe('row 0, column "v": 300 is out of range for int8 (-128 to 127)');
    expect(rejects(new arrow.Uint16(), [0, -1]).message).toBe('row 1, column "v": -1 is out of range for uint16 (0 to 65535)');
    expect(rejects(new arrow.Int32(), [NaN]).message).toBe('row 0, column "v": NaN is not an integer (int32)');
    expect(rejects(new arrow.Int32(), [Infinity]).message).toBe('row 0, column "v": Infinity is not an integer (int32)');
    expect(rejects(new arrow.Int16(), [40000n]).message).toBe('row 0, column "v": 40000 is out of range for int16 (-32768 to 32767)');
    expect(rejects(new arrow.Int64(), [2n ** 63n]).message).toBe(
      'row 0, column "v": 9223372036854775808 is out of range for int64 (-9223372036854775808 to 9223372036854775807)',
    );
    expect(rejects(new arrow.Int64(), [2 ** 63]).message).toContain('9223372036854776000 is out of range for int64');
    expect(rejects(new arrow.Uint64(), [-1n]).message).toContain('-1 is out of range for uint64');
    expect(rejects(new arrow.Int64(), [0.5]).message).toBe('row 0, column "v": 0.5 is not an integer (int64)');
    expect(rejects(new arrow.Int64(), [NaN]).message).toBe('row 0, column "v": NaN is not an integer (int64)');
  });
  it('rejects other types', () => {
    expect(rejects(new arrow.Int32(), ['12']).message).toBe('row 0, column "v": expected int32, got string "12"');
    expect(rejects(new arrow.Int64(), [true]).message).toBe('row 0, column "v": expected int64, got boolean true');
    expect(rejects(new arrow.Uint8(), [new Date(0)]).message).toBe('row 0, column "v": expected uint8, got Date 1970-01-01T00:00:00.000Z');
  });
});

describe('rows into float columns', () => {
  it('stores numbers, bigints exactly representable, and rounds into float32', () => {
    expect(stored(new arrow.Float64(), [1.5, NaN, -Infinity, -0, 2n ** 60n])).toEqual([1.5, NaN, -Infinity, -0, 2 ** 60]);
    expect(stored(new arrow.Float32(), [0.1, 3.4028235e38, Infinity, 16777217])).toEqual([Math.fround(0.1), Math.fround(3.4028235e38), Infinity, 16777216]);
  });
  it('rejects inexact bigints, float32 overflow and other types', () => {
    expect(rejects(new arrow.Float64(), [2n ** 53n + 1n]).message).toBe('row 0, column "v": 9007199254740993 cannot be represented exactly as float64');
    expect(rejects(new arrow.Float32(), [1e39]).message).toBe('row 0, column "v": 1e+39 is out of range for float32');
    expect(rejects(new arrow.Float64(), [1, 'abc'])).toMatchObject({ row: 1, message: 'row 1, column "v": expected float64, got string "abc"' });
  });
});

describe('rows into bool, utf8 and binary columns', () => {
  it('stores booleans only into bool', () => {
    expect(Array.from(new arrow.Vector([chunk(new arrow.Bool(), [true, false, null, true])]))).toEqual([true, false, null, true]);
    expect(rejects(new arrow.Bool(), [1]).message).toBe('row 0, column "v": expected bool, got number 1');
  });
  it('stores strings as UTF-8 with 32- or 64-bit offsets', () => {
    for (const type of [new arrow.Utf8(), new arrow.LargeUtf8()]) {
      const data = chunk(type, ['abc', '', null, 'é🌊x']);
      expect(Buffer.from(data.values as Uint8Array).toString('utf8')).toBe('abcé🌊x');
      expect(Array.from(data.valueOffsets as ArrayLike<unknown>).map(Number)).toEqual([0, 3, 3, 3, 10]);
    }
    const long = ['POINT (12.345678 -45.678901)', `${'é'.repeat(20)}🌊`, 'x'.repeat(17)];
    expect(Buffer.from(chunk(new arrow.Utf8(), long).values as Uint8Array).toString('utf8')).toBe(long.join(''));
    expect(rejects(new arrow.Utf8(), [`${'a'.repeat(20)}\udc00`]).message).toBe('row 0, column "v": string has an unpaired surrogate, which UTF-8 cannot hold');
    expect(rejects(new arrow.Utf8(), [5]).message).toBe('row 0, column "v": expected utf8, got number 5');
    expect(rejects(new arrow.LargeUtf8(), ['a', 'x\ud800y'])).toMatchObject({ row: 1, message: 'row 1, column "v": string has an unpaired surrogate, which UTF-8 cannot hold' });
  });
  it('stores Uint8Arrays and Buffers into binary, copying them', () => {
    for (const type of [new arrow.Binary(), new arrow.LargeBinary()]) {
      const src = new Uint8Array([1, 2, 3]);
      const data = chunk(type, [src, Buffer.from([9]), null]);
      src[0] = 7;
      expect(Array.from(data.values as Uint8Array)).toEqual([1, 2, 3, 9]);
    }
    expect(rejects(new arrow.Binary(), ['abc']).message).toBe('row 0, column "v": expected binary (a Uint8Array or Buffer), got string "abc"');
    expect(rejects(new arrow.Binary(), [new Uint16Array(2)]).message).toContain('got Uint16Array of 4 bytes');
  });
});

describe('rows into timestamp and date columns', () => {
  const t0 = Date.UTC(2024, 4, 1, 12, 0, 0);
  it('converts Dates, ISO strings and epoch milliseconds exactly into every unit', () => {
    const values = [new Date(t0), '2024-05-01T12:00:00Z', t0, '2024-05-01T14:00:00+02:00'];
    expect(stored(new arrow.TimestampSecond(), values)).toEqual(Array(4).fill(BigInt(t0 / 1000)));
    expect(stored(new arrow.TimestampMillisecond('UTC'), values)).toEqual(Array(4).fill(BigInt(t0)));
    expect(stored(new arrow.TimestampMicrosecond(), values)).toEqual(Array(4).fill(BigInt(t0) * 1000n));
    expect(stored(new arrow.TimestampNanosecond(), values)).toEqual(Array(4).fill(BigInt(t0) * 1_000_000n));
    expect(stored(new arrow.TimestampNanosecond(), ['2024-05-01T12:00:00.123456789Z', t0 + 0.5, -1.5])).toEqual([
      BigInt(t0) * 1_000_000n + 123_456_789n,
      BigInt(t0) * 1_000_000n + 500_000n,
      -1_500_000n,
    ]);
    expect(stored(new arrow.TimestampMicrosecond(), ['1969-12-31T23:59:59.999999Z'])).toEqual([-1n]);
  });
  it('rejects values finer than the unit, out of range or invalid', () => {
    expect(rejects(new arrow.TimestampSecond(), [new Date(1500)]).message).toBe(
      'row 0, column "v": Date 1970-01-01T00:00:01.500Z has sub-second precision for timestamp[s]',
    );
    expect(rejects(new arrow.TimestampMillisecond(), ['2024-05-01T00:00:00.0001Z']).message).toBe(
      'row 0, column "v": string "2024-05-01T00:00:00.0001Z" has sub-millisecond precision for timestamp[ms]',
    );
    expect(rejects(new arrow.TimestampMicrosecond(), [1.0001]).message).toBe('row 0, column "v": number 1.0001 has sub-microsecond precision for timestamp[us]');
    // a number's fraction is rounded to the nanosecond: doubles cannot hold most decimal fractions
    expect(stored(new arrow.TimestampMicrosecond(), [1.001, 1.0000000001])).toEqual([1001n, 1000n]);
    expect(rejects(new arrow.TimestampNanosecond(), [new Date('2300-01-01')]).message).toContain('is out of range for timestamp[ns]');
    expect(rejects(new arrow.TimestampMillisecond(), [1e20]).message).toBe('row 0, column "v": number 100000000000000000000 is out of range for timestamp[ms]');
    expect(rejects(new arrow.TimestampMillisecond(), [new Date(NaN)]).message).toBe('row 0, column "v": invalid Date for timestamp[ms]');
    expect(rejects(new arrow.TimestampMillisecond(), ['2024-02-30']).message).toBe(
      'row 0, column "v": string "2024-02-30" is not an ISO-8601 date or date-time such as 2024-05-01 or 2024-05-01T12:00:00Z',
    );
    expect(rejects(new arrow.TimestampMillisecond(), [NaN]).message).toBe('row 0, column "v": NaN is not a valid time for timestamp[ms]');
    expect(rejects(new arrow.TimestampMillisecond(), [5n]).message).toBe(
      'row 0, column "v": expected timestamp[ms] (a Date, an ISO-8601 string or epoch milliseconds), got bigint 5n',
    );
  });
  it('stores whole UTC days into date32 and date64 and rejects a time of day', () => {
    const day = Date.UTC(2024, 4, 1);
    expect(stored(new arrow.DateDay(), [new Date(day), '2024-05-01', day, '1969-12-31'])).toEqual([19844, 19844, 19844, -1]);
    expect(stored(new arrow.DateMillisecond(), [new Date(day), '2024-05-01T00:00:00Z'])).toEqual([BigInt(day), BigInt(day)]);
    expect(rejects(new arrow.DateDay(), [new Date(day + 1)]).message).toBe(
      'row 0, column "v": Date 2024-05-01T00:00:00.001Z has a time of day; date32 holds whole days (UTC midnight)',
    );
    expect(rejects(new arrow.DateMillisecond(), ['2024-05-01T00:00:00+01:00']).message).toContain('has a time of day; date64 holds whole days');
    expect(rejects(new arrow.DateDay(), [true]).message).toContain('expected date32 (a Date, an ISO-8601 string or epoch milliseconds), got boolean true');
  });
});
