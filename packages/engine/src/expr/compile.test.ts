// Kernel examples per physical kind and semantics corner (NaN, %, Kleene, UTF-8, temporal, in-sets).
import {
  Binary, Bool, type Data, type DataType, DateDay, DateMillisecond, Field, Float32, Float64, Int16, Int32, Int64, Int8, LargeBinary, LargeUtf8,
  makeData, Schema, TimestampMicrosecond, TimestampMillisecond, TimestampNanosecond, TimestampSecond, Uint16, Uint32, Uint64, Uint8, Utf8, vectorFromArray,
} from 'apache-arrow';
import { describe, expect, it } from 'vitest';
import { columnArrays } from '../exec/arrays.js';
import { isHaloclineError } from '../errors.js';
import type { Vars } from './bind.js';
import { PRIME_ROWS, compileFilter, kernelSource } from './compile.js';
import { prepareFilter } from './prepare.js';

type Columns = Record<string, readonly [DataType, readonly unknown[]]>;

// temporal values are given in storage units (bigint/number), not as builder input
function chunk(type: DataType, values: readonly unknown[]): Data {
  const temporal = type instanceof TimestampSecond || type instanceof TimestampMillisecond || type instanceof TimestampMicrosecond || type instanceof TimestampNanosecond || type instanceof DateMillisecond;
  if (!temporal) return vectorFromArray(values as unknown[], type).data[0]!;
  const raw = vectorFromArray(values as unknown[], new Int64()).data[0]!;
  return makeData({ type, length: raw.length, nullCount: raw.nullCount, nullBitmap: raw.nullBitmap, data: raw.values } as never);
}

/** Rows selected by `query` over the given columns; checks that count and select agree. */
function select(query: string, columns: Columns, vars?: Vars): number[] {
  const schema = new Schema(Object.entries(columns).map(([name, [type]]) => new Field(name, type, true)));
  const length = Object.values(columns)[0]![1].length;
  const compiled = compileFilter(prepareFilter(query, schema, vars).typed);
  const cols = compiled.columns.map((name) => columnArrays(chunk(columns[name]![0], columns[name]![1])));
  const out = new Int32Array(length);
  const k = compiled.kernel(cols, length, out);
  expect(compiled.kernel(cols, length, null)).toBe(k);
  return [...out.subarray(0, k)];
}

const one = (type: DataType, values: readonly unknown[]): Columns => ({ x: [type, values] });

describe('compiled kernels', () => {
  it('handle every integer and float width', () => {
    for (const type of [new Int8(), new Int16(), new Int32(), new Uint8(), new Uint16(), new Uint32(), new Float32(), new Float64()]) {
      expect(select('x > 1', one(type, [0, 1, 2, null, 3])), String(type)).toEqual([2, 4]);
    }
    expect(select('x > 2147483647', one(new Uint32(), [4294967295, 1, 2147483648]))).toEqual([0, 2]);
    expect(select('x = 0.1', one(new Float32(), [0.1, Math.fround(0.1)]))).toEqual([]);
    expect(select('x = 0.5 or x < -1e30', one(new Float32(), [0.5, -3.4e38, 1]))).toEqual([0, 1]);
  });

  it('compare 64-bit integers exactly', () => {
    expect(select('x = 9007199254740993', one(new Int64(), [9007199254740992n, 9007199254740993n, null]))).toEqual([1]);
    expect(select('x > 9007199254740992.0', one(new Int64(), [9007199254740992n, 9007199254740993n]))).toEqual([1]);
    expect(select('x > 9223372036854775807', one(new Uint64(), [18446744073709551615n, 9223372036854775807n]))).toEqual([0]);
    expect(select('x * 2 = 18446744073709551614', one(new Int64(), [9223372036854775807n, 1n]))).toEqual([0]);
    expect(select('x + y > 4 and x - y < 0', { x: [new Int64(), [1n, 3n, 2n]], y: [new Int32(), [5, 2, 3]] })).toEqual([0, 2]);
  });

  it('follow IEEE for NaN and division', () => {
    const x = one(new Float64(), [NaN, 1, 2, null]);
    expect(select('x != 1', x)).toEqual([0, 2]);
    expect(select('x < 2 or x >= 2', x)).toEqual([1, 2]);
    expect(select('not (x < 2)', x)).toEqual([0, 2]);
    expect(select('x / 0 > 1e308', x)).toEqual([1, 2]);
    expect(select('a / b = 2.5 and a % b = 1', { a: [new Int32(), [5, 5, -5]], b: [new Int32(), [2, 0, 2]] })).toEqual([0]);
    expect(select('a % b = -1', { a: [new Int32(), [5, -5, -5]], b: [new Int32(), [2, 2, -2]] })).toEqual([1, 2]);
  });

  it('treat integer % 0 as null', () => {
    const cols: Columns = { a: [new Int32(), [7, 7, 7]], b: [new Int32(), [0, 2, 3]], c: [new Int64(), [7n, 7n, 0n]] };
    expect(select('(a % b) is null', cols)).toEqual([0]);
    expect(select('not (a % b = 0)', cols)).toEqual([1, 2]);
    expect(select('(c % b) is null or (a % c) is null', cols)).toEqual([0, 2]);
  });

  it('apply Kleene logic to nulls; only TRUE rows are selected', () => {
    const cols: Columns = { a: [new Int32(), [1, null, 1, null, 5]], b: [new Bool(), [null, true, false, null, true]] };
    expect(select('a = 1 or b', cols)).toEqual([0, 1, 2, 4]);
    expect(select('not (a = 1 and b)', cols)).toEqual([2, 4]);
    expect(select('a is null', cols)).toEqual([1, 3]);
    expect(select('b is not null and a is null', cols)).toEqual([1]);
    expect(select('not (a in (1, null))', cols)).toEqual([]);
    expect(select('a not in (5, 7)', cols)).toEqual([0, 2]);
    expect(select('(a > 0) = b', cols)).toEqual([4]);
  });

  it('read bit-packed booleans across byte boundaries', () => {
    const bits = Array.from({ length: 70 }, (_, i) => (i % 5 === 0 ? null : i % 3 === 0));
    const expected = bits.flatMap((b, i) => (b === true ? [i] : []));
    expect(select('x', one(new Bool(), bits))).toEqual(expected);
    expect(select('x = true', one(new Bool(), bits))).toEqual(expected);
    expect(select('x < true', one(new Bool(), bits))).toEqual(bits.flatMap((b, i) => (b === false ? [i] : [])));
  });

  it('compare strings by UTF-8 bytes, in utf8, large utf8 and binary columns', () => {
    const words = ['b', 'a', '\uFFFF', '😀', null, 'ab', ''];
    for (const type of [new Utf8(), new LargeUtf8()]) {
      expect(select('x > "\uFFFF"', one(type, words))).toEqual([3]);
      expect(select("x < 'ab'", one(type, words))).toEqual([1, 6]);
      expect(select('x = "ab" or x = ""', one(type, words))).toEqual([5, 6]);
      expect(select('x in ("a", "😀")', one(type, words))).toEqual([1, 3]);
      expect(select('x = y', { x: [type, ['a', 'b', null]], y: [new Utf8(), ['a', 'c', null]] })).toEqual([0]);
    }
    const bytes = [new Uint8Array([97]), new Uint8Array([0xff]), null];
    for (const type of [new Binary(), new LargeBinary()]) {
      expect(select('x = "a"', one(type, bytes))).toEqual([0]);
      expect(select('x > "a"', one(type, bytes))).toEqual([1]);
    }
  });

  it('compare timestamps of every unit and dates with ISO strings and variables', () => {
    const ms = 1_577_836_800_000n; // 2020-01-01
    expect(select('x >= "2020-01-01T00:00:01Z"', one(new TimestampSecond(), [ms / 1000n, ms / 1000n + 1n]))).toEqual([1]);
    expect(select('x > "2020-01-01T00:00:00.0005Z"', one(new TimestampMillisecond(), [ms, ms + 1n, null]))).toEqual([1]);
    expect(select('x = $t', one(new TimestampMicrosecond(), [ms * 1000n, ms * 1000n + 1n]), { t: { type: 'datetime', value: '2020-01-01T00:00:00.000001Z' } })).toEqual([1]);
    expect(select('x < ?', one(new TimestampNanosecond(), [ms * 1_000_000n, ms * 1_000_000n + 1n]), [{ type: 'datetime', value: '2020-01-01T00:00:00.000000001Z' }])).toEqual([0]);
    expect(select('x >= "2020-01-02" and x <= $d', one(new DateDay(), [18262 * 86_400_000, 18263 * 86_400_000, 18264 * 86_400_000]), { d: new Date(Date.UTC(2020, 0, 2, 12)) })).toEqual([1]);
    expect(select('x > "2020-01-01T12:00"', one(new DateMillisecond(), [ms, ms + 86_400_000n]))).toEqual([1]);
    expect(select('d < t', { d: [new DateDay(), [18262 * 86_400_000, 18263 * 86_400_000]], t: [new TimestampMillisecond(), [ms + 1n, ms + 1n]] })).toEqual([0]);
  });

  it('look up large literal in-lists in a set, converting numbers to the column representation', () => {
    const list = '(1, 2, 3, 4, 5, 6, 7, 8, 9.5, 10, 9007199254740993)';
    expect(select(`x in ${list}`, one(new Int64(), [9007199254740993n, 9n, 10n, null, 0n]))).toEqual([0, 2]);
    expect(select(`x not in ${list}`, one(new Float64(), [9.5, 9, NaN, -0, null]))).toEqual([1, 2, 3]);
    expect(select(`x in (null, ${list.slice(1)}`, one(new Int32(), [1, 0]))).toEqual([0]);
    expect(select(`not (x in (null, ${list.slice(1)})`, one(new Int32(), [1, 0]))).toEqual([]);
  });

  it('look up large string in-lists in a hashed set of bytes: the kernel stays small whatever the list', () => {
    const words = ['b', 'a', '\uFFFF', '😀', null, 'ab', '', 'é'];
    const list = (n: number) => ['"a"', '"😀"', '""', 'null', ...Array.from({ length: n }, (_, i) => `"w${i}"`)].join(', ');
    for (const type of [new Utf8(), new LargeUtf8()]) {
      expect(select(`x in (${list(20)})`, one(type, words))).toEqual([1, 3, 6]);
      expect(select(`x in (${list(20).replace(', null', '')})`, one(type, words))).toEqual([1, 3, 6]);
      expect(select(`x not in (${list(20).replace(', null', '')})`, one(type, words))).toEqual([0, 2, 5, 7]);
      expect(select(`not (x in (${list(20)}))`, one(type, words))).toEqual([]); // null in the list: never FALSE
    }
    expect(select(`x in (${list(20)})`, one(new Binary(), [new Uint8Array([97]), new Uint8Array([0xff]), null]))).toEqual([0]);
    // 50k items: one set, not 50k comparisons in the generated loop (seconds to compile and run)
    const huge = prepareFilter(`x in (${list(50_000)})`, new Schema([new Field('x', new Utf8(), true)])).typed;
    expect(kernelSource(huge, true).length).toBeLessThan(5000);
    expect(select(`x in (${list(50_000)})`, one(new Utf8(), ['w49999', 'w50000', 'a']))).toEqual([0, 2]);
  });

  it('match a plain JS filter over many 8-row groups and 32-row blocks, with and without nulls', () => {
    for (const length of [0, 1, 7, 8, 31, 32, 33, 100, 1000]) {
      const values = Array.from({ length }, (_, i) => ((i * 7919) % 101) - 50);
      const nullable = values.map((v, i) => (i % 11 === 3 ? null : v));
      expect(select('x > 0 and x % 3 != 1', one(new Int32(), values))).toEqual(values.flatMap((v, i) => (v > 0 && v % 3 !== 1 ? [i] : [])));
      expect(select('x > 0 and x % 3 != 1', one(new Int32(), nullable))).toEqual(nullable.flatMap((v, i) => (v !== null && v > 0 && v % 3 !== 1 ? [i] : [])));
    }
  });

  it('compile constant filters to trivial kernels', () => {
    expect(select('1 = 1', one(new Int32(), [5, 6, 7]))).toEqual([0, 1, 2]);
    expect(select('"fetch" == "schema"', one(new Int32(), [5, 6]))).toEqual([]);
    expect(select('x = null', one(new Int32(), [5, null]))).toEqual([]);
  });

  it('reject selection buffers shorter than the chunk and missing columns', () => {
    const schema = new Schema([new Field('x', new Int32(), true)]);
    const { kernel } = compileFilter(prepareFilter('x > 0', schema).typed);
    const cols = [columnArrays(chunk(new Int32(), [1, 2, 3]))];
    expect(() => kernel(cols, 3, new Int32Array(2))).toThrow(/selection buffer holds 2 rows, needs 3/);
    try {
      kernel([], 3, null);
      expect.unreachable();
    } catch (e) {
      expect(isHaloclineError(e, 'InvalidArgument')).toBe(true);
    }
  });

  it('generate tight loops: number literals as parameters, no null checks in the no-null variant', () => {
    const schema = new Schema([new Field('depth', new Float64(), true), new Field('big', new Int64(), true), new Field('s', new Utf8(), true)]);
    const clean = kernelSource(prepareFilter('depth > 5500', schema).typed, false);
    expect(clean).toContain('const P0 = P[0];');
    expect(clean).toContain('c0 += +(v0[i] > P0) + +(v0[i + 4] > P0);');
    expect(clean).not.toMatch(/validity|m0/);
    const nullable = kernelSource(prepareFilter('depth > 5500', schema).typed, true);
    expect(nullable).toContain('const m0b = m0[i >>> 3];');
    expect(kernelSource(prepareFilter('big = -12', schema).typed, false)).toContain('(v0[i] === (-12n))');
    const strings = kernelSource(prepareFilter('s = "abc"', schema).typed, false);
    expect(strings).toContain('EQ(v0, o0[i], o0[i + 1], K0, 0, 3)');
    expect(strings).not.toContain('abc');
    // the loops are functions of the columns' arrays: they read no column object (a loop reading
    // cols[c].values was deoptimised by other queries' column objects and ran ~1.4x slower after)
    for (const source of [clean, nullable, strings]) {
      const loops = source.slice(0, source.indexOf('return {'));
      expect(loops).toMatch(/function countRows\(n, P, v0[,)]/);
      expect(loops).toMatch(/function selectRows\(n, out, P, v0[,)]/);
      expect(loops).not.toContain('cols');
    }
    expect(nullable).toContain('function countRows(n, P, v0, m0)');
    expect(strings).toContain('function countRows(n, P, v0, o0)');
  });

  it('answer exactly on chunks long enough to be primed first, with and without nulls, select after count and the other way round', () => {
    for (const length of [PRIME_ROWS, PRIME_ROWS + 1, 1000, 4096]) {
      const values = Array.from({ length }, (_, i) => (i % 11 === 0 ? null : (i * 7919) % 1000));
      const want = values.flatMap((v, i) => (v !== null && v > 300 && v <= 700 ? [i] : []));
      for (const [query, vals] of [
        ['x > 300 and x <= 700', values],
        ['x > 300 and x <= 700 and x >= 0', values.map((v) => v ?? -1)], // a new shape, no nulls
      ] as const) {
        // select first: its priming runs write into the selection buffer before the real run
        expect(select(query, one(new Float64(), vals)), `${query} ${length}`).toEqual(want);
      }
      const schema = new Schema([new Field('x', new Int32(), true)]);
      const { kernel } = compileFilter(prepareFilter('x > 300 and x <= 700 or x == 5', schema).typed);
      const cols = [columnArrays(chunk(new Int32(), values))];
      const fives = values.flatMap((v, i) => (v === 5 ? [i] : []));
      expect(kernel(cols, length, null)).toBe(want.length + fives.length); // count first
      const out = new Int32Array(length).fill(-7);
      const k = kernel(cols, length, out);
      expect([...out.subarray(0, k)]).toEqual([...want, ...fives].sort((a, b) => a - b));
    }
  });
});

