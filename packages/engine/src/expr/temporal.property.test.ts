// Property: temporal comparisons agree with plain nanosecond arithmetic (an oracle independent of typecheck).
import { type Data, DateDay, Field, Int64, makeData, Schema, TimestampMicrosecond, TimestampMillisecond, vectorFromArray } from 'apache-arrow';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { columnArrays } from '../exec/arrays.js';
import { compileFilter, prepareFilter } from './index.js';
import { iso } from './expr.fixture.js';

const OPS = ['==', '!=', '<', '<=', '>', '>='] as const;
const holds = (op: (typeof OPS)[number], a: bigint, b: bigint): boolean =>
  ({ '==': a === b, '!=': a !== b, '<': a < b, '<=': a <= b, '>': a > b, '>=': a >= b })[op];

const BASE_NS = 1_600_000_000_000_000_000n;

/** Selected rows of `x OP <instant>` over one column, via the compiled kernel. */
function selected(field: Field, data: Data, op: string, instant: bigint, asVariable: boolean): number[] {
  const query = asVariable ? `x ${op} $t` : `x ${op} "${iso(instant)}"`;
  const { kernel } = compileFilter(prepareFilter(query, new Schema([field]), asVariable ? { t: { type: 'datetime', value: iso(instant) } } : undefined).typed);
  const out = new Int32Array(data.length);
  const k = kernel([columnArrays(data)], data.length, out);
  return [...out.subarray(0, k)];
}

describe('temporal comparisons', () => {
  it('match nanosecond arithmetic for timestamp[ms] and date32 columns', () => {
    // around 2020 and around the epoch, where floor and truncation differ
    const base = fc.constantFrom(BASE_NS, 0n);
    const instant = fc.bigInt({ min: -3n * 86_400_000_000_000n, max: 3n * 86_400_000_000_000n });
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -3 * 86_400_000, max: 3 * 86_400_000 }), { maxLength: 40 }), fc.constantFrom(...OPS), base, instant, fc.boolean(), (offsets, op, b, d, asVariable) => {
        const t = b + d;
        const ms = offsets.map((o) => Number(b / 1_000_000n) + o);
        const days = ms.map((m) => Math.floor(m / 86_400_000));
        const wantMs = ms.flatMap((m, i) => (holds(op, BigInt(m) * 1_000_000n, t) ? [i] : []));
        const wantDays = days.flatMap((d, i) => (holds(op, BigInt(d) * 86_400_000_000_000n, t) ? [i] : []));
        const [tsField, dayField] = [new Field('x', new TimestampMillisecond()), new Field('x', new DateDay())];
        expect(selected(tsField, vectorFromArray(ms, tsField.type).data[0]!, op, t, asVariable)).toEqual(wantMs);
        expect(selected(dayField, vectorFromArray(days.map((d) => d * 86_400_000), dayField.type).data[0]!, op, t, asVariable)).toEqual(wantDays);
      }),
      { numRuns: 300 },
    );
  });

  it('match nanosecond arithmetic for timestamp[us] columns near unit boundaries', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -5, max: 5 }), { maxLength: 20 }), fc.constantFrom(...OPS), fc.bigInt({ min: -5_000n, max: 5_000n }), (offsets, op, d) => {
        const us = offsets.map((o) => Number(BASE_NS / 1000n) + o);
        const want = us.flatMap((u, i) => (holds(op, BigInt(u) * 1000n, BASE_NS + d) ? [i] : []));
        // the microsecond builder takes (fractional) milliseconds: reinterpret exact int64 values instead
        const raw = vectorFromArray(us.map(BigInt), new Int64()).data[0]!;
        const data = makeData({ type: new TimestampMicrosecond(), length: raw.length, nullCount: 0, data: raw.values });
        expect(selected(new Field('x', new TimestampMicrosecond()), data, op, BASE_NS + d, true)).toEqual(want);
      }),
      { numRuns: 200 },
    );
  });
});
