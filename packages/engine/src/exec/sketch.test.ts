// Column sketches: scans through rows ordered by 14-bit codes select exactly the rows the filter kernel selects.
import { Field, Float64, Int32, Schema, vectorFromArray } from 'apache-arrow';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { prepareFilter } from '../expr/index.js';
import { emptyBits, setDeleted } from '../mvcc/deletes.js';
import { taskColumn } from './arrays.js';
import { runScan } from './scan.js';
import { type RangeFilter, SKETCH_MIN_ROWS, buildSketch, codeOf, emptySketch, rangeFilter, readySketch, sketchBounds, sketchBytes, sketchCost, sketchScan, sketchesBuilt, worthSketching } from './sketch.js';
import type { ScanTask } from './task.js';

const schema = new Schema([new Field('x', new Float64(), true), new Field('y', new Float64(), true), new Field('i', new Int32(), true)]);
const special = [Number.NaN, Infinity, -Infinity, 0, -0, 5e-324, Number.MAX_VALUE, -Number.MAX_VALUE];
// values crowded in a few spots (many rows share a code, bounds land on occupied codes) plus the special ones
const value = fc.oneof(fc.double({ min: -3, max: 3, noNaN: true }), fc.integer({ min: -3, max: 3 }), fc.constantFrom(...special));
const cell = fc.oneof({ arbitrary: value, weight: 8 }, { arbitrary: fc.constant(null), weight: 1 });
const bound = fc.oneof(fc.double({ min: -4, max: 4, noNaN: true }), fc.integer({ min: -4, max: 4 }), fc.constantFrom(Infinity, -Infinity, -0, Number.MAX_VALUE));
const op = fc.constantFrom('<', '<=', '>', '>=');
// the zone a sketch is made with: none (the build finds the range), or any range at all (a stale or wrong zone spreads the codes badly, never makes them wrong)
const zone = fc.option(fc.tuple(fc.double({ min: -5, max: 5, noNaN: true }), fc.double({ min: -5, max: 5, noNaN: true })).map(([a, b]) => ({ min: a, max: b })));

const matches = (x: number | null, o: string, b: number) => x !== null && (o === '<' ? x < b : o === '<=' ? x <= b : o === '>' ? x > b : x >= b);
const filterOf = (text: string) => prepareFilter(text.replace(/Infinity/g, '1e999'), schema);

describe('column sketches', () => {
  it('select exactly the rows of a range, with nulls, NaN, infinities, -0 and bounds on occupied codes, built in any slices from any zone', () => {
    fc.assert(
      fc.property(fc.array(cell, { minLength: 1, maxLength: 300 }), op, bound, fc.option(fc.tuple(op, bound)), zone, fc.integer({ min: 1, max: 400 }), (cells, op1, b1, second, z, slice) => {
        const data = vectorFromArray(cells, new Float64()).data[0]!;
        const values = data.values as Float64Array;
        const validity = data.nullCount > 0 ? data.nullBitmap! : null;
        const sketch = emptySketch(cells.length, z ?? undefined);
        buildSketch(sketch, values, validity, slice);
        const text = second ? `x ${op1} ${b1} and x ${second[0]} ${second[1]}` : `x ${op1} ${b1}`;
        const range = rangeFilter(filterOf(text).typed)!;
        const expected = cells.flatMap((x, i) => (matches(x, op1, b1) && (!second || matches(x, second[0], second[1])) ? [i] : []));
        const bounds = sketchBounds(sketch, range, Infinity)!;
        const out = new Int32Array(cells.length);
        const n = sketchScan(sketch, values, validity, range, bounds, out);
        expect([...out.subarray(0, n)]).toEqual(expected);
        expect(sketchScan(sketch, values, validity, range, bounds, null)).toBe(expected.length);
      }),
      { numRuns: 1000 },
    );
  });

  it('order every row by code: a permutation, bucket by bucket, rows ascending within a bucket, null and NaN last', () => {
    fc.assert(
      fc.property(fc.array(cell, { minLength: 1, maxLength: 300 }), zone, (cells, z) => {
        const data = vectorFromArray(cells, new Float64()).data[0]!;
        const sketch = emptySketch(cells.length, z ?? undefined);
        buildSketch(sketch, data.values as Float64Array, data.nullCount > 0 ? data.nullBitmap! : null, 7);
        const [min, scale] = [sketch.scale[0]!, sketch.scale[1]!];
        const code = (i: number) => (cells[i] === null ? 0x3fff : codeOf(cells[i]!, min, scale));
        const order = [...sketch.order];
        expect([...order].sort((a, b) => a - b)).toEqual(cells.map((_, i) => i));
        for (let j = 1; j < order.length; j++) {
          const [a, b] = [order[j - 1]!, order[j]!];
          expect(code(a) < code(b) || (code(a) === code(b) && a < b)).toBe(true);
        }
        for (let c = 0; c < 0x4000; c++) for (let j = sketch.starts[c]!; j < sketch.starts[c + 1]!; j++) expect(code(order[j]!)).toBe(c);
      }),
      { numRuns: 300 },
    );
  });

  it('code values monotonically, NaN last', () => {
    fc.assert(
      fc.property(value, value, fc.double({ min: -1e300, max: 1e300, noNaN: true }), fc.double({ min: 0, max: 1e300, noNaN: true }), (a, b, min, scale) => {
        const [x, y] = a <= b ? [a, b] : [b, a];
        if (Number.isNaN(x) || Number.isNaN(y)) expect(codeOf(Number.NaN, min, scale)).toBe(0x3fff);
        else expect(codeOf(x, min, scale)).toBeLessThanOrEqual(codeOf(y, min, scale));
        if (!Number.isNaN(x)) expect(codeOf(x, min, scale)).toBeLessThan(0x3fff);
      }),
    );
  });

  it('are made for ranges covering at most ~5% of a chunk\'s zone', () => {
    const r = (text: string) => rangeFilter(prepareFilter(text, schema).typed)!;
    const zone = { min: 0, max: 6000 };
    expect(worthSketching(r('x >= 60 and x < 120'), zone)).toBe(true);
    expect(worthSketching(r('x > 5994'), zone)).toBe(true);
    expect(worthSketching(r('x > 5500'), zone)).toBe(false);
    expect(worthSketching(r('x < 100'), { min: 'a', max: 'b' })).toBe(false);
    expect(worthSketching(r('x < 100'), { min: 5, max: 5 })).toBe(false);
  });

  it('are ranges of one float64 column compared with number literals only', () => {
    const r = (text: string) => rangeFilter(prepareFilter(text, schema).typed);
    expect(r('x >= 60 and x < 120')).toEqual({ column: 'x', lo: 60, loInclusive: true, hi: 120, hiInclusive: false });
    expect(r('5 < x')).toEqual({ column: 'x', lo: 5, loInclusive: false, hi: Infinity, hiInclusive: true });
    expect(r('x <= 1 and x < 1')).toMatchObject({ hi: 1, hiInclusive: false });
    expect(r('x > 1 and x >= 2')).toMatchObject({ lo: 2, loInclusive: true });
    expect(r('x > 1 and y < 2')).toBeNull();
    expect(r('x > 1 or x < 0')).toBeNull();
    expect(r('x == 1')).toBeNull();
    expect(r('i > 1')).toBeNull();
    expect(r('x + 1 > 2')).toBeNull();
  });

  it('scans through a ready sketch, and plain range loops, answer exactly: counts, rows, deletion vectors, deleted rows', async () => {
    const scans = fc.record({
      cells: fc.array(cell, { minLength: 1, maxLength: 200 }),
      deleted: fc.array(fc.nat(199)),
      filter: fc.tuple(op, bound, fc.option(fc.tuple(op, bound))),
    });
    await fc.assert(
      fc.asyncProperty(scans, async ({ cells, deleted, filter: [op1, b1, second] }) => {
        const data = vectorFromArray(cells, new Float64()).data[0]!;
        const bits = emptyBits(cells.length);
        for (const i of deleted) if (i < cells.length) setDeleted(bits, i);
        const rows = Int32Array.from(new Set(deleted.filter((i) => i < cells.length)), (i) => i).sort();
        const f = filterOf(second ? `x ${op1} ${b1} and x ${second[0]} ${second[1]}` : `x ${op1} ${b1}`);
        const base: ScanTask = { mode: 'select', withRows: true, encodeRows: true, length: cells.length, filter: { typed: f.typed, key: f.key, columns: f.columns }, columns: { x: taskColumn(data) }, project: [], deleted: bits };
        const sketch = emptySketch(cells.length);
        const sketched: ScanTask = { ...base, columns: { x: { ...taskColumn(data), sketch } } };
        runScan(sketched); // the first scan schedules the build
        await sketchesBuilt();
        expect(Atomics.load(sketch.state, 0)).toBe(2);
        const expected = cells.flatMap((x, i) => (matches(x, op1, b1) && (!second || matches(x, second[0], second[1])) && !deleted.includes(i) ? [i] : []));
        const plain = runScan(base); // a new query over few rows: a plain range loop, no kernel (exec/scan.ts rangeRows)
        expect([...plain.rows!]).toEqual(expected);
        expect(runScan(sketched)).toEqual(plain);
        const count = { mode: 'count', withRows: false, encodeRows: false, deletedRows: rows } as const;
        expect(runScan({ ...sketched, ...count }).count).toBe(runScan({ ...base, ...count }).count);
        expect(runScan({ ...sketched, ...count, deleted: null, deletedRows: null }).count).toBe(runScan({ ...base, ...count, deleted: null, deletedRows: null }).count);
      }),
      { numRuns: 200 },
    );
  });

  it('are built off the query path after the first scan of a chunk, and serve from then on', async () => {
    const rows = SKETCH_MIN_ROWS + 13;
    let seed = 7;
    const next = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const cells = Array.from({ length: rows }, (_, i) => (i % 97 === 0 ? null : i % 89 === 0 ? Number.NaN : next() * 6000));
    const data = vectorFromArray(cells, new Float64()).data[0]!;
    const sketch = emptySketch(rows, { min: 0, max: 6000 });
    expect(sketchBytes(sketch)).toBe(4 * rows + 4 * 0x4001 + 16 + 4);
    const bits = emptyBits(rows);
    for (let i = 0; i < rows; i += 7) setDeleted(bits, i);
    const { typed, key, columns } = prepareFilter('x >= 1000 and x < 1060', schema);
    const base: ScanTask = { mode: 'select', withRows: true, length: rows, filter: { typed, key, columns }, columns: { x: taskColumn(data) }, project: [], deleted: bits };
    const plain = runScan(base);
    expect(plain.count).toBeGreaterThan(0);
    const sketched: ScanTask = { ...base, columns: { x: { ...taskColumn(data), sketch } } };
    expect(runScan(sketched)).toEqual(plain); // first scan: the values, and the build is scheduled
    expect(Atomics.load(sketch.state, 0)).toBe(1);
    expect(runScan(sketched)).toEqual(plain); // while it is built: the values
    expect(readySketch(sketch, data.values as Float64Array, data.nullBitmap ?? null)).toBeNull(); // being built: scans read the values
    await sketchesBuilt();
    expect(readySketch(sketch, data.values as Float64Array, data.nullBitmap ?? null)).toBe(sketch);
    expect(runScan(sketched)).toEqual(plain);
    expect(runScan({ ...sketched, mode: 'count', withRows: false }).count).toBe(plain.count);
    // what a scan through it reads: a count its two bound buckets, a listing scan every bucket in range plus the bitmap
    const band = rangeFilter(typed)!;
    const [lo, hi] = sketchBounds(sketch, band)!;
    const { starts } = sketch;
    expect(sketchCost(sketch, band, false)).toBe(starts[lo + 1]! - starts[lo]! + starts[hi + 1]! - starts[hi]!);
    expect(sketchCost(sketch, band, true)).toBe(starts[hi + 1]! - starts[lo]! + (rows >> 5));
    expect(sketchCost(emptySketch(rows), band, true)).toBeNull(); // not built
    const wide = prepareFilter('x > 100', schema); // too wide for the sketch: the kernel runs
    const wideTask = { ...sketched, filter: { typed: wide.typed, key: wide.key, columns: wide.columns } };
    expect(runScan(wideTask)).toEqual(runScan({ ...base, filter: wideTask.filter }));
    expect(runScan({ ...wideTask, mode: 'count', withRows: false, deleted: null }).count).toBe(cells.filter((x) => x !== null && x > 100).length);
    expect(sketchBounds(sketch, rangeFilter(wide.typed) as RangeFilter)).toBeNull();
    expect(sketchCost(sketch, rangeFilter(wide.typed)!, false)).toBeNull();
  });
});
