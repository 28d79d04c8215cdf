// Scans of sorted partitions read only the rows a filter can match, and answer exactly what a whole scan does.
import { Field, Float64, Int32, Int64, Schema, TimestampMillisecond, Utf8, Vector, makeData, vectorFromArray } from 'apache-arrow';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { aggregateTask } from '../aggregate/spec.js';
import { prepareFilter } from '../expr/index.js';
import { emptyBits, positions, setDeleted } from '../mvcc/deletes.js';
import { taskColumn } from './arrays.js';
import { ascending, intervals, probedRange, sortedRange } from './narrow.js';
import { runScan } from './scan.js';
import type { ResultColumn, ScanTask } from './task.js';

const schema = new Schema([new Field('x', new Float64(), true), new Field('y', new Int32(), true), new Field('s', new Utf8(), true)]);
const cell = fc.oneof(fc.integer({ min: -6, max: 6 }), fc.constantFrom(-0, 0, 0.5, -0.5, Number.NaN, null));
const bound = fc.oneof(fc.integer({ min: -7, max: 7 }), fc.constantFrom('-0', '0.5', '-0.5'));
const compare = fc.tuple(fc.constantFrom('x', 'y'), fc.constantFrom('<', '<=', '>', '>=', '==', '!='), bound).map(([c, op, b]) => `${c} ${op} ${b}`);
const leaf = fc.oneof(compare, fc.constantFrom('x is null', 'x is not null', 'y is null', 'x in (1, -2, 0.5)', 'x > y'));
const filter: fc.Arbitrary<string> = fc.letrec<{ f: string }>((tie) => ({
  f: fc.oneof({ depthSize: 'small', withCrossShrink: true }, leaf, leaf, fc.tuple(tie('f'), fc.constantFrom('and', 'or'), tie('f')).map(([a, op, b]) => `(${a}) ${op} (${b})`), tie('f').map((a) => `not (${a})`)),
})).f;

// rows ordered the way a k-d merge writes a leaf: x ascending, nulls and NaN last (in any order)
function sortedRows(xs: (number | null)[]): (number | null)[] {
  const ordered = xs.filter((x): x is number => x !== null && !Number.isNaN(x)).sort((a, b) => a - b);
  return [...ordered, ...xs.filter((x) => x === null || Number.isNaN(x))];
}

function task(xs: (number | null)[], ys: (number | null)[], query: string, deletes: number[], sortedBy: readonly string[] = ['x']): ScanTask {
  const { typed, key, columns } = prepareFilter(query, schema);
  const n = xs.length;
  const bits = emptyBits(n);
  for (const d of deletes) setDeleted(bits, d % n);
  const gone = new Set(deletes.map((d) => d % n)).size;
  return {
    mode: 'count',
    length: n,
    filter: { typed, key, columns },
    columns: {
      x: taskColumn(vectorFromArray(xs, new Float64()).data[0]!),
      y: taskColumn(vectorFromArray(ys, new Int32()).data[0]!),
      s: taskColumn(vectorFromArray(xs.map((x, i) => (x === null ? null : `r${i}:${x}`)), new Utf8()).data[0]!),
    },
    project: ['x', 's'],
    deleted: gone > 0 ? bits : null,
    deletedRows: gone > 0 ? positions(bits, n, gone) : null,
    sortedBy,
  };
}

const decode = (type: Float64 | Utf8, c: ResultColumn, length: number) =>
  [...new Vector([makeData({ type, length, nullCount: c.nullCount, nullBitmap: c.validity ?? undefined, data: c.values, valueOffsets: c.offsets ?? undefined } as never)])];

describe('scans of partitions sorted by a column', () => {
  it('count, select (with positions) and aggregate equal a brute-force evaluation of the rows', () => {
    const sum = aggregateTask(schema, 'y', { aggr: { x: 'sum' } }, 't');
    fc.assert(
      fc.property(fc.array(fc.tuple(cell, fc.option(fc.integer({ min: -6, max: 6 }))), { minLength: 1, maxLength: 120 }), filter, fc.array(fc.nat(), { maxLength: 20 }), fc.boolean(), (pairs, query, deletes, both) => {
        const xs = sortedRows(pairs.map((p) => p[0]));
        // with `both`, y is ascending too (nulls last), as a column that grows with the sort key: the
        // scan narrows by each and reads the rows in both ranges
        const ys = both ? (sortedRows(pairs.map((p) => p[1])) as (number | null)[]) : pairs.map((p) => p[1]);
        const t = task(xs, ys, query, deletes, both ? ['x', 'y'] : ['x']);
        const whole = { ...t, sortedBy: undefined };
        // brute force: the whole scan's selection (the kernel on every row), deleted rows dropped
        const all = runScan({ ...whole, mode: 'select', withRows: true });
        const expected = Array.from(all.rows!);
        expect(runScan(t).count).toBe(expected.length);
        expect(runScan({ ...t, deletedRows: null }).count).toBe(expected.length);
        const sel = runScan({ ...t, mode: 'select', withRows: true });
        expect(Array.from(sel.rows!)).toEqual(expected);
        const picked = runScan({ ...t, mode: 'select' });
        expect(picked.count).toBe(expected.length);
        if (expected.length > 0) {
          expect(decode(new Float64(), picked.columns![0]!, expected.length)).toEqual(expected.map((i) => xs[i]));
          expect(decode(new Utf8(), picked.columns![1]!, expected.length)).toEqual(expected.map((i) => (xs[i] === null ? null : `r${i}:${xs[i]}`)));
        }
        const agg = runScan({ ...t, mode: 'aggregate', aggregate: sum });
        expect(agg.count).toBe(expected.length);
        if (agg.scanned !== undefined) expect(agg.codes).toBeUndefined(); // codes of a row range are not the partition's
        // and the kernel's answer itself, row by row, for the plain ranges
        const simple = /^x (<|<=|>|>=) (-?[\d.]+)$/.exec(query);
        if (simple) {
          const [, op, b] = simple;
          const holds = (v: number) => ({ '<': v < +b!, '<=': v <= +b!, '>': v > +b!, '>=': v >= +b! })[op as '<'];
          const gone = new Set(deletes.map((d) => d % xs.length));
          expect(expected).toEqual(xs.flatMap((v, i) => (v !== null && holds(v) && !gone.has(i) ? [i] : [])));
        }
      }),
      { numRuns: 400 },
    );
  });

  it('a filter of comparisons of the sort column with literals finds by searching the values no more rows than the zone-map probes find', () => {
    const onX = fc.tuple(fc.constantFrom('<', '<=', '>', '>=', '=='), bound).map(([op, b]) => `x ${op} ${b}`);
    const ranges: fc.Arbitrary<string> = fc.letrec<{ f: string }>((tie) => ({
      f: fc.oneof({ depthSize: 'small' }, onX, onX, fc.tuple(tie('f'), fc.constantFrom('and', 'or'), tie('f')).map(([a, op, b]) => `(${a}) ${op} (${b})`)),
    })).f;
    fc.assert(
      fc.property(fc.array(cell, { minLength: 1, maxLength: 120 }), ranges, (cells, query) => {
        const xs = sortedRows(cells);
        const t = task(xs, xs.map(() => 0), query, []);
        expect(intervals(t.filter!.typed, 'x')).not.toBeNull();
        // null is every row; the rows that match are in both (the brute-force property above)
        const [a, b] = sortedRange(t) ?? [0, xs.length];
        const [c, d] = probedRange(t) ?? [0, xs.length];
        if (a < b) expect([a >= c, b <= d]).toEqual([true, true]);
      }),
      { numRuns: 400 },
    );
  });

  it('reads bounds from comparisons under and / or, in either order, and nothing else', () => {
    const typed = (q: string) => prepareFilter(q, schema).typed;
    const all = { lo: -Infinity, loInclusive: true, hi: Infinity, hiInclusive: true };
    expect(intervals(typed('x > 2 and x <= 5 and y < 1'), 'x')).toEqual([{ lo: 2, loInclusive: false, hi: 5, hiInclusive: true }]);
    expect(intervals(typed('3 >= x or x == 7'), 'x')).toEqual([{ ...all, hi: 3 }, { lo: 7, loInclusive: true, hi: 7, hiInclusive: true }]);
    expect(intervals(typed('(x < 1 or x > 5) and x < 6 and x != 0'), 'x')).toEqual([{ ...all, hi: 1, hiInclusive: false }, { lo: 5, loInclusive: false, hi: 6, hiInclusive: false }]);
    expect(intervals(typed('x == 0.5 and x < 0'), 'x')).toEqual([]);
    expect(intervals(typed('x > 2 or y < 1'), 'x')).toBeNull();
    expect(intervals(typed('not (x <= 2)'), 'x')).toBeNull(); // true on NaN: no bound
    expect(intervals(typed('x != 2'), 'x')).toBeNull();
    expect(intervals(typed('x > y'), 'x')).toBeNull();
  });

  it('narrows by 64-bit columns (timestamps, int64) as by numbers: bigint literals, and literals between two units', () => {
    const wide = new Schema([new Field('t', new TimestampMillisecond(), true), new Field('z', new Int64(), true)]);
    // a literal: an instant as whole or half milliseconds (k + 0.5 falls between two units), or an int64
    const instant = fc.integer({ min: -2, max: 42 }).map((h) => `'${new Date(Math.floor(h / 2)).toISOString().replace('Z', h % 2 ? '5Z' : 'Z')}'`);
    const leaf = fc.oneof(
      fc.tuple(fc.constantFrom('<', '<=', '>', '>=', '==', '!='), instant).map(([op, b]) => `t ${op} ${b}`),
      fc.tuple(fc.constantFrom('<', '<=', '>', '>=', '=='), fc.integer({ min: -3, max: 23 })).map(([op, b]) => `z ${op} ${b}`),
      fc.constantFrom('t is null', 'z is not null'),
    );
    const query: fc.Arbitrary<string> = fc.letrec<{ f: string }>((tie) => ({
      f: fc.oneof({ depthSize: 'small' }, leaf, leaf, fc.tuple(tie('f'), fc.constantFrom('and', 'or'), tie('f')).map(([a, op, b]) => `(${a}) ${op} (${b})`), tie('f').map((a) => `not (${a})`)),
    })).f;
    const ms = fc.option(fc.integer({ min: 0, max: 20 }), { freq: 6 });
    fc.assert(
      fc.property(fc.array(fc.tuple(ms, fc.option(fc.integer({ min: 0, max: 20 }), { freq: 6 })), { minLength: 1, maxLength: 150 }), query, (pairs, q) => {
        // both columns ascending, nulls last
        const ts = sortedRows(pairs.map((p) => p[0]));
        const zs = sortedRows(pairs.map((p) => p[1]));
        const { typed, key, columns } = prepareFilter(q, wide);
        const t: ScanTask = {
          mode: 'select',
          length: ts.length,
          filter: { typed, key, columns },
          columns: {
            t: taskColumn(vectorFromArray(ts.map((x) => (x === null ? null : new Date(x))), new TimestampMillisecond()).data[0]!),
            z: taskColumn(vectorFromArray(zs.map((x) => (x === null ? null : BigInt(x))), new Int64()).data[0]!),
          },
          project: [],
          withRows: true,
          sortedBy: ['t', 'z'],
        };
        expect(ascending(t.columns.t!, ts.length) && ascending(t.columns.z!, zs.length)).toBe(true);
        const expected = Array.from(runScan({ ...t, sortedBy: undefined }).rows!);
        expect(Array.from(runScan(t).rows!)).toEqual(expected);
        expect(runScan({ ...t, mode: 'count', withRows: false }).count).toBe(expected.length);
      }),
      { numRuns: 400 },
    );
    // a large partition narrows to the rows around the bound
    const big = Array.from({ length: 4000 }, (_, i) => new Date(1_700_000_000_000 + i));
    const { typed, key, columns } = prepareFilter(`t >= '${big[2000]!.toISOString()}' and t < '${big[2010]!.toISOString()}'`, wide);
    const task: ScanTask = { mode: 'count', length: 4000, filter: { typed, key, columns }, columns: { t: taskColumn(vectorFromArray(big, new TimestampMillisecond()).data[0]!) }, project: [], sortedBy: ['t'] };
    expect(sortedRange(task)).toEqual([2000, 2016]);
    expect(runScan(task).count).toBe(10);
  });

  it('finds a column ascending only when its values are, nulls and NaN after them', () => {
    const f64 = (xs: (number | null)[]) => taskColumn(vectorFromArray(xs, new Float64()).data[0]!);
    expect(ascending(f64([1, 1, 2, 5, null, Number.NaN, null]), 7)).toBe(true);
    expect(ascending(f64([-0, 0, -0, 3]), 4)).toBe(true); // -0 and 0 are equal
    expect(ascending(f64([]), 0)).toBe(true);
    expect(ascending(f64([null, 1, 2]), 3)).toBe(false);
    expect(ascending(f64([1, Number.NaN, 2]), 3)).toBe(false);
    expect(ascending(f64([1, 3, 2]), 3)).toBe(false);
    expect(ascending(f64([1, 2, null, 3]), 4)).toBe(false);
    expect(ascending(taskColumn(vectorFromArray([1, 2, 3], new Int32()).data[0]!), 3)).toBe(true);
    expect(ascending(taskColumn(vectorFromArray(['a', 'b'], new Utf8()).data[0]!), 2)).toBe(false); // not searchable
    const i64 = (xs: (bigint | null)[]) => taskColumn(vectorFromArray(xs, new Int64()).data[0]!);
    expect(ascending(i64([-(2n ** 62n), -1n, 0n, 1n, 2n ** 32n, 2n ** 32n + 1n, null]), 7)).toBe(true);
    expect(ascending(i64([2n ** 32n, 2n ** 32n - 1n]), 2)).toBe(false); // the high words tie, the low ones descend
    expect(ascending(i64([-1n, -2n]), 2)).toBe(false);
    expect(ascending(i64([1n, null, 2n]), 3)).toBe(false);
    fc.assert(
      fc.property(fc.array(cell, { maxLength: 60 }), (cells) => {
        const valid = (x: number | null) => x !== null && !Number.isNaN(x);
        const firstGap = cells.findIndex((x) => !valid(x));
        const head = (firstGap < 0 ? cells : cells.slice(0, firstGap)) as number[];
        const expected = head.every((x, i) => i === 0 || head[i - 1]! <= x) && (firstGap < 0 || cells.slice(firstGap).every((x) => !valid(x)));
        expect(ascending(f64(cells), cells.length)).toBe(expected);
        expect(ascending(f64(sortedRows(cells)), cells.length)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('a narrow range reads only the rows around it, in whole bytes of the bitmaps', () => {
    const xs = Array.from({ length: 1000 }, (_, i) => i / 10); // 0 .. 99.9
    const t = task([...xs, null, Number.NaN], xs.map(() => 0).concat([0, 0]), 'x > 50.05 and x <= 50.3', []);
    expect(sortedRange(t)).toEqual([496, 504]);
    const r = runScan({ ...t, mode: 'select', withRows: true });
    expect(Array.from(r.rows!)).toEqual([501, 502, 503]);
    expect(r.scanned).toBe(8);
    expect(sortedRange(task(xs, xs, 'y > 3', []))).toBeNull(); // the filter does not bound x
    expect(sortedRange(task(xs, xs, 'x > 99 or y > 3', []))).toBeNull(); // nor does this one
    expect(sortedRange(task(xs, xs, 'not (x <= 99)', []))).toEqual([984, 1000]);
    expect(sortedRange(task([...xs, null], [...xs, 0], 'x is null', []))).toEqual([1000, 1001]);
    expect(sortedRange(task(xs, xs, 'x > 200', []))).toEqual([1000, 1000]);
  });
});
