// Property: kernels that differ only in number literals share one compiled loop and stay exact.
import fc from 'fast-check';
import { Field, Float64, Int32, Int64, Schema } from 'apache-arrow';
import { describe, expect, it } from 'vitest';
import { compileFilter, evaluateRow, prepareFilter } from './index.js';
import { kernelSource } from './compile.js';
import { arraysOf, type Chunk, valueOf } from './data.fixture.js';

const schema = new Schema([new Field('f', new Float64(), true), new Field('i', new Int32(), true), new Field('b', new Int64(), true)]);
const kinds = { f: 'float64', i: 'int32', b: 'int64' } as const;

// the same filter shapes with varying number literals (bound variables): edge values included
const literal = fc.oneof(
  fc.integer({ min: -25, max: 25 }).map((k) => k / 2),
  fc.constantFrom(NaN, Infinity, -Infinity, -0, 0, 2 ** 31, -(2 ** 31) - 0.5, 2 ** 53 + 2),
  fc.double(),
);
const SHAPES = [
  'f >= $a and f < $b',
  'i > $a or not (f <= $b)',
  '$a < i and b = 3 and f != $b',
  'f + $a > $b', // arithmetic: only the comparison's literal side is a parameter
  'i in (1, 2) and f = $a or $b = 1',
];

const chunkOf = (length: number): fc.Arbitrary<Chunk> =>
  fc
    .tuple(...(['f', 'i', 'b'] as const).map((c) => fc.array(fc.option(valueOf(kinds[c]), { nil: null, freq: 5 }), { minLength: length, maxLength: length })))
    .map(([f, i, b]) => ({ schema, kinds, length, values: { f: f!, i: i!, b: b! } }));

describe('parameterised kernels', () => {
  it('select what the reference selects, whatever kernel of the same shape ran before', () => {
    const arb = fc.tuple(fc.constantFrom(...SHAPES), fc.array(fc.tuple(literal, literal), { minLength: 2, maxLength: 4 }), fc.integer({ min: 0, max: 100 }).chain(chunkOf));
    fc.assert(
      fc.property(arb, ([query, bindings, chunk]) => {
        for (const [a, b] of bindings) {
          const typed = prepareFilter(query, schema, { a, b }).typed;
          const { columns, kernel } = compileFilter(structuredClone(typed));
          const cols = arraysOf(chunk, columns);
          const want: number[] = [];
          for (let r = 0; r < chunk.length; r++) if (evaluateRow(typed, (c) => chunk.values[c]![r]) === true) want.push(r);
          const out = new Int32Array(chunk.length);
          const k = kernel(cols, chunk.length, out);
          expect([...out.subarray(0, k)]).toEqual(want);
          expect(kernel(cols, chunk.length, null)).toBe(want.length);
        }
      }),
      { numRuns: 150 },
    );
  });

  it('generate one source text per shape: number literals compared with numbers are parameters', () => {
    const source = (vars: Record<string, number>) => kernelSource(prepareFilter('f >= $a and i < $b', schema, vars).typed, false);
    expect(source({ a: 1, b: 2 })).toBe(source({ a: -0.5, b: NaN }));
    expect(source({ a: 1, b: 2 })).toContain('(v0[i] >= P0)');
    // a literal against a 64-bit integer stays inline: its conversion depends on the value
    expect(kernelSource(prepareFilter('b = 4', schema).typed, false)).toContain('(v0[i] === 4n)');
  });
});
