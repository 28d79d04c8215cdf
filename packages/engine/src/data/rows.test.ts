import * as arrow from 'apache-arrow';
import { type Data, type DataType, RecordBatch, makeData, vectorFromArray } from 'apache-arrow';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readColumn } from './read/column.js';
import { batchToRows, rowSource } from './rows.js';

const vec = (values: unknown[], type: DataType) => vectorFromArray(values as never[], type as never).data[0]! as Data;
const ints64 = (type: DataType, values: bigint[]) => makeData({ type: type as arrow.Int64, data: BigInt64Array.from(values) }) as Data;
const read = (data: Data) => batchToRows(new RecordBatch({ v: data })).map((r) => r.v);

describe('batchToRows', () => {
  it('gives plain objects with the schema keys in order', () => {
    const rows = batchToRows(new RecordBatch({ b: vec([1, 2], new arrow.Int32()), a: vec(['x', null], new arrow.Utf8()) }));
    expect(rows).toEqual([
      { b: 1, a: 'x' },
      { b: 2, a: null },
    ]);
    expect(Object.keys(rows[1]!)).toEqual(['b', 'a']);
    expect(Object.getPrototypeOf(rows[0])).toBe(Object.prototype);
  });
  it('reads numbers, bigints for 64-bit integers and booleans', () => {
    expect(read(vec([-128, null, 127], new arrow.Int8()))).toEqual([-128, null, 127]);
    expect(read(vec([4294967295], new arrow.Uint32()))).toEqual([4294967295]);
    expect(read(vec([-(2n ** 63n), null], new arrow.Int64()))).toEqual([-(2n ** 63n), null]);
    expect(read(vec([2n ** 64n - 1n], new arrow.Uint64()))).toEqual([2n ** 64n - 1n]);
    expect(read(vec([0.5, NaN, null], new arrow.Float64()))).toEqual([0.5, NaN, null]);
    expect(read(vec([0.1], new arrow.Float32()))).toEqual([Math.fround(0.1)]);
    expect(read(vec([true, null, false, true, true, false, false, false, true], new arrow.Bool()))).toEqual([true, null, false, true, true, false, false, false, true]);
  });
  it('decodes ASCII, non-ASCII and invalid UTF-8, with 32- or 64-bit offsets', () => {
    expect(read(vec(['abc', '', null, 'd'], new arrow.Utf8()))).toEqual(['abc', '', null, 'd']);
    expect(read(vec(['é', 'x🌊y', null, 'plain', '日本'], new arrow.Utf8()))).toEqual(['é', 'x🌊y', null, 'plain', '日本']);
    expect(read(vec(['é', 'x🌊y', 'abc'], new arrow.LargeUtf8()))).toEqual(['é', 'x🌊y', 'abc']);
    const bad = makeData({ type: new arrow.Utf8(), valueOffsets: new Int32Array([0, 1, 3]), data: new Uint8Array([0x61, 0xff, 0x62]) }) as Data;
    expect(read(bad)).toEqual(['a', '\ufffdb']);
  });
  it('copies binary values', () => {
    const data = vec([new Uint8Array([1, 2]), null], new arrow.LargeBinary());
    const [first] = read(data) as Uint8Array[];
    expect(first).toEqual(new Uint8Array([1, 2]));
    first![0] = 9;
    expect((data.values as Uint8Array)[0]).toBe(1);
  });
  it('reads timestamps and dates as Dates, truncating below the millisecond toward the past', () => {
    expect(read(ints64(new arrow.TimestampSecond(), [1n, -1n]))).toEqual([new Date(1000), new Date(-1000)]);
    expect(read(ints64(new arrow.TimestampMillisecond('UTC'), [1714564800123n]))).toEqual([new Date(1714564800123)]);
    expect(read(ints64(new arrow.TimestampMicrosecond(), [1999n, -1n]))).toEqual([new Date(1), new Date(-1)]);
    expect(read(ints64(new arrow.TimestampNanosecond(), [1714564800123999999n, -1n]))).toEqual([new Date(1714564800123), new Date(-1)]);
    expect(read(makeData({ type: new arrow.DateDay(), data: new Int32Array([19844, -1]) }) as Data)).toEqual([new Date(Date.UTC(2024, 4, 1)), new Date(-86400000)]);
    expect(read(ints64(new arrow.DateMillisecond(), [86400000n]))).toEqual([new Date(86400000)]);
    expect(read(vec([new Date(5), null], new arrow.TimestampMillisecond()))).toEqual([new Date(5), null]);
  });
  it('reads sliced batches and all-null columns', () => {
    const data = vec([1, null, 3, 4, null, 6, 7, 8, 9, 10], new arrow.Int32()).slice(3, 5);
    expect(read(data)).toEqual([4, null, 6, 7, 8]);
    expect(read(vec(['a', 'b', 'c', 'd'], new arrow.Utf8()).slice(1, 2))).toEqual(['b', 'c']);
    expect(read(makeData({ type: new arrow.Null(), length: 2 }) as Data)).toEqual([null, null]);
    // numeric columns without nulls are read straight from their typed arrays
    expect(read(vec([1, 2, 3, 4, 5], new arrow.Int32()).slice(1, 3))).toEqual([2, 3, 4]);
    expect(read(vec([0.5, -0, NaN, 2], new arrow.Float64()).slice(1, 3))).toEqual([-0, NaN, 2]);
    expect(read(vec([1n, 2n, 3n], new arrow.Int64()).slice(2, 1))).toEqual([3n]);
  });
  it('makes rows one at a time, equal to the batch rows, keys named like Object.prototype members own', () => {
    const batch = new RecordBatch(Object.fromEntries([['__proto__', vec([1, 2, 3], new arrow.Int32())], ['constructor', vec(['a', null, 'c'], new arrow.Utf8())]]));
    const { make: m, sources } = rowSource(batch.slice(1, 3));
    const make = (i: number) => m(sources, i);
    expect([make(0), make(1)]).toEqual(batchToRows(batch).slice(1));
    expect(Object.hasOwn(make(0), '__proto__')).toBe(true);
    expect(Object.getPrototypeOf(make(0))).toBe(Object.prototype);
    expect(make(1)).not.toBe(make(1));
  });
  it('makes each value with the row (Dates, strings, numbers) exactly as readColumn reads it, for any slice', () => {
    const types: [DataType, fc.Arbitrary<unknown>][] = [
      [new arrow.TimestampMillisecond(), fc.integer({ min: -8.64e15, max: 8.64e15 }).map((ms) => new Date(ms))],
      [new arrow.TimestampSecond(), fc.integer({ min: -8.64e12, max: 8.64e12 }).map((s) => new Date(s * 1000))],
      [new arrow.DateDay(), fc.integer({ min: -1e6, max: 1e6 }).map((d) => new Date(d * 86_400_000))],
      [new arrow.Utf8(), fc.string({ unit: 'grapheme' })],
      [new arrow.LargeUtf8(), fc.string({ unit: 'grapheme' })],
      [new arrow.Float64(), fc.double()],
      [new arrow.Int64(), fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n })],
    ];
    for (const [type, value] of types) {
      fc.assert(
        fc.property(fc.array(value, { minLength: 1, maxLength: 30 }), fc.nat(), fc.nat(), (values, a, b) => {
          const lo = a % values.length;
          const hi = lo + (b % (values.length - lo + 1));
          const data = vec(values, type).slice(lo, hi - lo);
          const { make, sources } = rowSource(new RecordBatch({ v: data }));
          const made = Array.from({ length: hi - lo }, (_, i) => make(sources, i).v);
          expect(made).toEqual(readColumn(data));
          expect(made).toEqual(values.slice(lo, hi));
        }),
        { numRuns: 60 },
      );
    }
  });
});
