// Row conversion reads typed arrays directly; it must agree with Vector.get, nulls and slices included.
import { Bool, DateDay, Float16, Float32, Float64, Int32, Int64, Table, TimestampMicrosecond, TimestampMillisecond, TimestampNanosecond, TimestampSecond, Uint8, Utf8, makeData, makeVector, vectorFromArray } from 'apache-arrow';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { rowConverter } from './rows.js';

const MS = Date.UTC(2024, 4, 1, 12, 30, 15, 250);

describe('rowConverter', () => {
  it('converts every fixed-width type with nulls, at any slice offset', () => {
    fc.assert(
      fc.property(fc.array(fc.boolean(), { minLength: 1, maxLength: 40 }), fc.nat(39), (present, start) => {
        const n = present.length;
        const col = <T>(f: (i: number) => T) => Array.from({ length: n }, (_, i) => (present[i] ? f(i) : null));
        const table = new Table({
          f64: vectorFromArray(col((i) => i / 4 - 3), new Float64()),
          f32: vectorFromArray(col((i) => i / 2), new Float32()),
          i32: vectorFromArray(col((i) => i * 1000 - 7), new Int32()),
          u8: vectorFromArray(col((i) => i), new Uint8()),
          i64: vectorFromArray(col((i) => (i === 3 ? 2n ** 60n : BigInt(i) - 5n)), new Int64()),
          ts: vectorFromArray(col((i) => new Date(MS + i * 1000)), new TimestampMillisecond()),
          tus: vectorFromArray(col((i) => new Date(MS + i)), new TimestampMicrosecond()),
          day: vectorFromArray(col((i) => new Date(Date.UTC(2024, 0, 1 + i))), new DateDay()),
          ok: vectorFromArray(col((i) => i % 3 === 0), new Bool()),
          s: vectorFromArray(col((i) => `s${i}`), new Utf8()),
        });
        const batch = table.batches[0]!.slice(Math.min(start, n - 1));
        const rows = Array.from({ length: batch.numRows }, (_, i) => rowConverter(batch.schema)(batch)(i));
        rows.forEach((row, j) => {
          const i = j + Math.min(start, n - 1);
          if (!present[i]) return expect(Object.values(row).every((v) => v === null)).toBe(true);
          expect(row).toEqual({
            f64: i / 4 - 3,
            f32: i / 2,
            i32: i * 1000 - 7,
            u8: i,
            i64: i === 3 ? (2n ** 60n).toString() : i - 5,
            ts: new Date(MS + i * 1000).toISOString(),
            tus: new Date(MS + i).toISOString().replace('Z', '000Z'),
            day: new Date(Date.UTC(2024, 0, 1 + i)).toISOString().slice(0, 10),
            ok: i % 3 === 0,
            s: `s${i}`,
          });
        });
      }),
      { numRuns: 100 },
    );
  });

  it('writes timestamps[us] and [ns] with every digit of their unit, before 1970 too; [s] and [ms] as Date does', () => {
    const us = [1714564800123456n, -1n, 0n, -1_000_001n, 2n ** 60n];
    const ns = [1714564800123456789n, -1n, 1n, 2n ** 62n];
    const col = (type: TimestampMicrosecond | TimestampNanosecond | TimestampSecond, values: bigint[]) =>
      new Table({ t: makeVector(makeData({ type, length: values.length, data: BigInt64Array.from(values) })) }).batches[0]!;
    const read = (b: ReturnType<typeof col>) => Array.from({ length: b.numRows }, (_, i) => rowConverter(b.schema)(b)(i).t);
    expect(read(col(new TimestampMicrosecond('UTC'), us))).toEqual([
      '2024-05-01T12:00:00.123456Z',
      '1969-12-31T23:59:59.999999Z',
      '1970-01-01T00:00:00.000000Z',
      '1969-12-31T23:59:58.999999Z',
      '+038504-08-17T21:30:06.846976Z',
    ]);
    expect(read(col(new TimestampNanosecond('UTC'), ns))).toEqual(['2024-05-01T12:00:00.123456789Z', '1969-12-31T23:59:59.999999999Z', '1970-01-01T00:00:00.000000001Z', '2116-02-20T23:53:38.427387904Z']);
    expect(read(col(new TimestampSecond('UTC'), [1714564800n]))).toEqual(['2024-05-01T12:00:00.000Z']);
  });

  it('reads float16 as its value, not its bits', () => {
    const batch = new Table({ h: vectorFromArray([1.5, null, -2], new Float16()) }).batches[0]!;
    expect([0, 1, 2].map((i) => rowConverter(batch.schema)(batch)(i).h)).toEqual([1.5, null, -2]);
  });

  it('writes non-finite floats as strings', () => {
    const batch = new Table({ x: vectorFromArray([Number.NaN, Infinity, -Infinity], new Float64()) }).batches[0]!;
    const conv = rowConverter(batch.schema)(batch);
    expect([0, 1, 2].map((i) => conv(i).x)).toEqual(['NaN', 'Infinity', '-Infinity']);
  });
});
