// Property: zone-map pruning is sound — a pruned chunk never holds a row the reference selects.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { evaluateRow, prepareFilter, zoneAllMatch, zonePredicate } from './index.js';
import { type Chunk, chunkArb, zonesOf } from './data.fixture.js';
import { queryArb } from './expr.fixture.js';
import type { ZoneMaps } from './kernel.js';

const caseArb = chunkArb.chain((chunk) => fc.tuple(fc.constant(chunk), queryArb(chunk), fc.boolean()));

// wider bounds are still valid zone maps: widen numeric ones by one unit, forget the NaN counts (older partitions)
function loosen(zones: ZoneMaps): ZoneMaps {
  const widen = (v: unknown, d: number): unknown => (typeof v === 'number' ? v + d : typeof v === 'bigint' ? v + BigInt(d) : v);
  return Object.fromEntries(
    Object.entries(zones).map(([name, z]) => [name, { min: widen(z.min, -1), max: widen(z.max, 1), nullCount: z.nullCount, rows: z.rows } as typeof z]),
  );
}

function selectsAny(chunk: Chunk, typed: Parameters<typeof evaluateRow>[0]): boolean {
  for (let i = 0; i < chunk.length; i++) if (evaluateRow(typed, (c) => chunk.values[c]![i]) === true) return true;
  return false;
}

describe('zone-map pruning', () => {
  it('never prunes a chunk that has a matching row', () => {
    let pruned = 0;
    fc.assert(
      fc.property(caseArb, ([chunk, { query, vars }, loose]) => {
        const { typed } = prepareFilter(query, chunk.schema, vars);
        const zones = loose ? loosen(zonesOf(chunk)) : zonesOf(chunk);
        if (zonePredicate(typed)(zones)) return;
        pruned++;
        expect(selectsAny(chunk, typed)).toBe(false);
      }),
      { numRuns: 500 },
    );
    // the property must actually exercise pruning
    expect(pruned).toBeGreaterThan(25);
  });

  it('proves "every row matches" only when every row is TRUE (not false, null or NaN-compared)', () => {
    let proven = 0;
    fc.assert(
      fc.property(caseArb, ([chunk, { query, vars }, loose]) => {
        const { typed } = prepareFilter(query, chunk.schema, vars);
        const zones = loose ? loosen(zonesOf(chunk)) : zonesOf(chunk);
        if (!zoneAllMatch(typed)(zones)) return;
        proven++;
        for (let i = 0; i < chunk.length; i++) expect(evaluateRow(typed, (c) => chunk.values[c]![i])).toBe(true);
      }),
      { numRuns: 500 },
    );
    // the property must actually exercise the proof
    expect(proven).toBeGreaterThan(10);
  });
});
