// Column sketches: scans through 14-bit codes select exactly the rows the filter kernel selects.
import { Field, Float64, Int32, Schema, vectorFromArray } from 'apache-arrow';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { prepareFilter } from '../expr/index.js';
import { emptyBits, setDeleted } from '../mvcc/deletes.js';
import { taskColumn } from './arrays.js';
import { runScan } from './scan.js';
import { type RangeFilter, SKETCH_MIN_ROWS, buildSketch, codeOf, emptySketch, rangeFilter, readySketch, sketchBounds, sketchScan, worthSketching } from './sketch.js';
import type { ScanTask } from './task.js';

const schema = new Schema([new Field('x', new Float64(), true), new Field('y', new Float64(), true), new Field('i', new Int32(), true)]);
const special = [Number.NaN, Infinity, -Infinity, 0, -0, 5e-324, Number.MAX_VALUE, -Number.MAX_VALUE];
// values crowded in a few spots (many rows share a code, bounds land on occupied codes) plus the special ones
const value = fc.oneof(fc.double({ min: -3, max: 3, noNaN: true }), fc.integer({ min: -3, max: 3 }), fc.constantFrom(...special));
const cell = fc.oneof({ arbitrary: value, weight: 8 }, { arbitrary: fc.constant(null), weight: 1 });
const bound = fc.oneof(fc.double({ min: -4, max: 4, noNaN: true }), fc.integer({ min: -4, max: 4 }), fc.constantFrom(Infinity, -Infinity, -0, Number.MAX_VALUE));
const op = fc.constantFrom('<', '<=', '>', '>=');

const matches = (x: number | null, o: string, b: number) => x !== null && (o === '<' ? x < b : o === '<=' ? x <= b : o === '>' ? x > b : x >= b);

describe('column sketches', () => {
  it('select exactly the rows of a range, with nulls, NaN, infinities and bounds on occupied codes', () => {
    fc.assert(
      fc.property(fc.array(cell, { minLength: 1, maxLength: 300 }), op, bound, fc.option(fc.tuple(op, bound)), (cells, op1, b1, second) => {
        const data = vectorFromArray(cells, new Float64()).data[0]!;
        const values = data.values as Float64Array;
        const validity = data.nullCount > 0 ? data.nullBitmap! : null;
        const sketch = emptySketch(cells.length);
        buildSketch(sketch, values, validity);
        const text = second ? `x ${op1} ${b1} and x ${second[0]} ${second[1]}` : `x ${op1} ${b1}`;
        const range = rangeFilter(prepareFilter(text.replace(/Infinity/g, '1e999'), schema).typed)!;
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

  it('serve from the second scan of a chunk on; a scan through one matches the kernel, deleted rows and positions included', () => {
    const rows = SKETCH_MIN_ROWS + 13;
    let seed = 7;
    const next = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const cells = Array.from({ length: rows }, (_, i) => (i % 97 === 0 ? null : i % 89 === 0 ? Number.NaN : next() * 6000));
    const data = vectorFromArray(cells, new Float64()).data[0]!;
    const sketch = emptySketch(rows);
    const bits = emptyBits(rows);
    for (let i = 0; i < rows; i += 7) setDeleted(bits, i);
    const { typed, key, columns } = prepareFilter('x >= 1000 and x < 1060', schema);
    const base: ScanTask = { mode: 'select', withRows: true, length: rows, filter: { typed, key, columns }, columns: { x: taskColumn(data) }, project: [], deleted: bits };
    const plain = runScan(base);
    expect(plain.count).toBeGreaterThan(0);
    const sketched: ScanTask = { ...base, columns: { x: { ...taskColumn(data), sketch } } };
    expect(runScan(sketched)).toEqual(plain); // first scan: the values
    expect(Atomics.load(sketch.state, 0)).toBe(3);
    expect(runScan(sketched)).toEqual(plain); // second: builds the sketch and scans through it
    expect(readySketch(sketch, data.values as Float64Array, data.nullBitmap ?? null)).toBe(sketch);
    expect(runScan(sketched)).toEqual(plain);
    expect(runScan({ ...sketched, mode: 'count', withRows: false }).count).toBe(plain.count);
    const wide = prepareFilter('x > 100', schema); // too wide for the sketch: the kernel runs
    const wideTask = { ...sketched, filter: { typed: wide.typed, key: wide.key, columns: wide.columns } };
    expect(runScan(wideTask)).toEqual(runScan({ ...base, filter: wideTask.filter }));
    expect(sketchBounds(sketch, rangeFilter(wide.typed) as RangeFilter)).toBeNull();
  });
});
