// Property: compiled kernels (count and select, null-aware and no-null variants) agree with the reference.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileFilter, evaluateRow, prepareFilter } from './index.js';
import { arraysOf, type Chunk, chunkArb } from './data.fixture.js';
import { queryArb } from './expr.fixture.js';

const caseArb = chunkArb.chain((chunk) => fc.tuple(fc.constant(chunk), queryArb(chunk)));

/** Row indices the reference evaluator selects (predicate TRUE). */
function expected(chunk: Chunk, typed: Parameters<typeof evaluateRow>[0]): number[] {
  const rows: number[] = [];
  for (let i = 0; i < chunk.length; i++) if (evaluateRow(typed, (c) => chunk.values[c]![i]) === true) rows.push(i);
  return rows;
}

describe('compiled filters', () => {
  it('select exactly the rows the reference evaluator selects', () => {
    let nonTrivial = 0;
    fc.assert(
      fc.property(caseArb, ([chunk, { query, vars }]) => {
        const prepared = prepareFilter(query, chunk.schema, vars);
        // kernels are compiled in workers from a structured clone
        const { columns, kernel } = compileFilter(structuredClone(prepared.typed));
        expect(columns).toEqual(prepared.columns);
        const cols = arraysOf(chunk, columns);
        const want = expected(chunk, prepared.typed);
        if (want.length > 0 && want.length < chunk.length) nonTrivial++;
        expect(kernel(cols, chunk.length, null)).toBe(want.length);
        const out = new Int32Array(chunk.length);
        const k = kernel(cols, chunk.length, out);
        expect([...out.subarray(0, k)]).toEqual(want);
      }),
      { numRuns: 400 },
    );
    expect(nonTrivial).toBeGreaterThan(40);
  });
});
