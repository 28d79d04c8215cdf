// The scan operator's count with deleted rows: matches minus the matches among the deleted positions.
import { Field, Float64, Schema, vectorFromArray } from 'apache-arrow';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { prepareFilter } from '../expr/index.js';
import { emptyBits, positions, setDeleted } from '../mvcc/deletes.js';
import { taskColumn } from './arrays.js';
import { runScan } from './scan.js';
import type { ScanTask } from './task.js';

const schema = new Schema([new Field('x', new Float64(), true)]);

describe('count over partitions with deleted rows', () => {
  it('subtracting the deleted matches counts the same as dropping deleted rows from the selection', () => {
    const cell = fc.oneof(fc.double({ min: -10, max: 10, noNaN: true }), fc.constant(null), fc.constant(Number.NaN));
    fc.assert(
      fc.property(fc.array(cell, { minLength: 1, maxLength: 200 }), fc.array(fc.nat(), { maxLength: 100 }), fc.integer({ min: -10, max: 10 }), (values, picks, bound) => {
        const column = taskColumn(vectorFromArray(values, new Float64()).data[0]!);
        const bits = emptyBits(values.length);
        for (const p of picks) setDeleted(bits, p % values.length);
        const count = [...new Set(picks.map((p) => p % values.length))].length;
        const { typed, key, columns } = prepareFilter(`x > ${bound}`, schema);
        const task: ScanTask = { mode: 'count', length: values.length, filter: { typed, key, columns }, columns: { x: column }, project: [], deleted: bits };
        const expected = values.filter((v, i) => v !== null && v > bound && !picks.some((p) => p % values.length === i)).length;
        expect(runScan(task).count).toBe(expected); // through the selection vector
        expect(runScan({ ...task, deletedRows: positions(bits, values.length, count) }).count).toBe(expected);
        expect(runScan({ ...task, filter: null, deletedRows: positions(bits, values.length, count) }).count).toBe(values.length - count);
      }),
      { numRuns: 300 },
    );
  });
});

describe('select of a run of consecutive rows', () => {
  it('returns views of the columns for a run (a band of a sorted partition), copies otherwise, the same rows either way', () => {
    fc.assert(
      fc.property(fc.array(fc.double({ min: -10, max: 10, noNaN: true }), { minLength: 1, maxLength: 200 }), fc.integer({ min: -10, max: 10 }), fc.integer({ min: 0, max: 5 }), (unsorted, lo, width) => {
        const values = [...unsorted].sort((a, b) => a - b);
        const data = vectorFromArray(values, new Float64()).data[0]!;
        const { typed, key, columns } = prepareFilter(`x >= ${lo} and x < ${lo + width}`, schema);
        const task: ScanTask = { mode: 'select', length: values.length, filter: { typed, key, columns }, columns: { x: taskColumn(data) }, project: ['x'], withRows: true, sortedBy: ['x'] };
        const result = runScan(task);
        const expected = values.filter((v) => v >= lo && v < lo + width);
        const out = result.columns![0]!.values as Float64Array;
        expect([...out.subarray(0, result.count)]).toEqual(expected);
        // sorted values: the matches are one run, so the result is a view of the chunk (when not all rows match)
        if (result.count > 0 && result.count < values.length) expect(out.buffer).toBe(data.values.buffer);
        // the same rows unsorted: scattered matches are gathered into a new buffer
        const scattered = vectorFromArray(unsorted, new Float64()).data[0]!;
        const other = runScan({ ...task, columns: { x: taskColumn(scattered) }, sortedBy: undefined });
        expect([...(other.columns![0]!.values as Float64Array).subarray(0, other.count)].sort((a, b) => a - b)).toEqual(expected);
      }),
      { numRuns: 200 },
    );
  });
});
