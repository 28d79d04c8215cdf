// Property: zone-map pruning is sound — a pruned chunk never holds a row the reference selects.
import { Field, Float64, Int64, Schema, Utf8 } from 'apache-arrow';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { evaluateRow, prepareFilter, zoneAllMatch, zonePredicate, zoneTests } from './index.js';
import { type Chunk, chunkArb, zonesOf } from './data.fixture.js';
import { queryArb } from './expr.fixture.js';
import type { ZoneMaps } from './kernel.js';
import { compareText } from './scalar.js';

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

  it('judges a long literal in-list (sorted, searched) exactly as its two halves (item by item) joined by or', () => {
    const schema = new Schema([new Field('f', new Float64(), true), new Field('i', new Int64(), true), new Field('s', new Utf8(), true)]);
    // nulls rare (a null item makes FALSE impossible), values few (so that a zone is often one of them exactly)
    const rare = <T,>(a: fc.Arbitrary<T>, other: string) => fc.oneof({ arbitrary: a, weight: 12 }, { arbitrary: fc.constant(other), weight: 1 });
    const floats = rare(fc.oneof(fc.integer({ min: -5, max: 5 }).map(String), fc.constantFrom('0 / 0', '2.5')), 'null');
    const ints = rare(fc.integer({ min: -5, max: 5 }).map(String), 'null');
    const strings = rare(fc.constantFrom('a', 'b', 'ab', '', 'é', '😀', '\uFFFF').map((w) => JSON.stringify(w)), 'null');
    const zone = (values: fc.Arbitrary<unknown>) =>
      fc.record({ min: values, max: values, nullCount: fc.integer({ min: 0, max: 3 }), rows: fc.constant(3), nanCount: fc.option(fc.integer({ min: 0, max: 3 }), { nil: undefined }) });
    const ordered = (z: { min: unknown; max: unknown }) => (z.min !== null && z.max !== null && (z.min as number) > (z.max as number) ? { ...z, min: z.max, max: z.min } : z);
    const zonesArb = fc.record({
      f: zone(fc.option(fc.integer({ min: -6, max: 6 }), { nil: null })).map(ordered),
      i: zone(fc.option(fc.bigInt({ min: -6n, max: 6n }), { nil: null })).map(ordered),
      s: zone(fc.option(fc.constantFrom('a', 'b', 'ab', '', 'é', '😀', '\uFFFF'), { nil: null })).map((z) => (z.min !== null && z.max !== null && compareText(z.min as string, z.max as string) > 0 ? { ...z, min: z.max, max: z.min } : z)),
    });
    const caseArb = fc.oneof(
      fc.tuple(fc.constant('f'), fc.array(floats, { minLength: 9, maxLength: 16 })),
      fc.tuple(fc.constant('i'), fc.array(ints, { minLength: 9, maxLength: 16 })),
      fc.tuple(fc.constant('s'), fc.array(strings, { minLength: 9, maxLength: 16 })),
    );
    fc.assert(
      fc.property(caseArb, zonesArb, fc.boolean(), ([column, items], zones, negated) => {
        const list = `${column} ${negated ? 'not in' : 'in'} (${items.join(', ')})`;
        const half = items.length >> 1; // each half short enough for the item-by-item path
        const chain = `${negated ? 'not ' : ''}(${column} in (${items.slice(0, half).join(', ')}) or ${column} in (${items.slice(half).join(', ')}))`;
        const a = prepareFilter(list, schema).typed;
        const b = prepareFilter(chain, schema).typed;
        const z = zones as unknown as ZoneMaps;
        expect(zonePredicate(a)(z)).toBe(zonePredicate(b)(z));
        expect(zoneAllMatch(a)(z)).toBe(zoneAllMatch(b)(z));
      }),
      { numRuns: 3000 },
    );
  });

  it("remembers each zone map's verdicts: a plan's tests (zoneTests) answer as the predicates, asked in any order and again", () => {
    // one filter over the zone maps of several pieces of a chunk (a table's partitions), asked
    // repeatedly in a random order (the scans of a query in a loop): each answer as computed afresh
    const tableArb = chunkArb.chain((chunk) => fc.tuple(fc.constant(chunk), queryArb(chunk), fc.array(fc.nat({ max: 120 }), { maxLength: 5 }), fc.array(fc.nat(), { minLength: 1, maxLength: 24 })));
    let pruned = 0;
    fc.assert(
      fc.property(tableArb, ([chunk, { query, vars }, cuts, asks]) => {
        const { typed } = prepareFilter(query, chunk.schema, vars);
        const bounds = [0, ...cuts.map((c) => Math.min(c, chunk.length)).sort((a, b) => a - b), chunk.length];
        const parts = bounds.slice(1).map((end, k) => zonesOf({ ...chunk, length: end - bounds[k]!, values: Object.fromEntries(Object.entries(chunk.values).map(([n, v]) => [n, v.slice(bounds[k], end)])) }));
        const tests = zoneTests(typed);
        for (const ask of asks) {
          const zones = parts[ask % parts.length]!;
          const may = zonePredicate(typed)(zones);
          if (!may) pruned++;
          expect(tests.mayMatch(zones)).toBe(may);
          expect(tests.allMatch(zones)).toBe(zoneAllMatch(typed)(zones));
        }
      }),
      { numRuns: 300 },
    );
    expect(pruned).toBeGreaterThan(10);
  });
});
