// Statement-level atomicity of inserts in a transaction: a failed insert (one row, an array, Arrow data) adds nothing and the transaction goes on.
import { Field, Float64, Int32, Schema, Utf8, tableFromArrays } from 'apache-arrow';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isHaloclineError } from '../errors.js';
import type { Table } from '../index.js';
import { freshStore } from '../test-util/store.js';

const schema = new Schema([new Field('id', new Int32(), false), new Field('temp', new Float64(), true), new Field('tag', new Utf8(), true)]);

/** What is wrong with a bad row, and the column the error must name. */
const faults = {
  type: [(r: Row) => ({ ...r, temp: 'warm' }), 'temp'],
  unknown: [(r: Row) => ({ ...r, depth: 1 }), 'depth'],
  missing: [({ id: _id, ...r }: Row) => r, 'id'],
  null: [(r: Row) => ({ ...r, id: null }), 'id'],
  range: [(r: Row) => ({ ...r, id: 2 ** 31 }), 'id'],
  text: [(r: Row) => ({ ...r, tag: 5 }), 'tag'],
} as const satisfies Record<string, readonly [(r: Row) => Record<string, unknown>, string]>;
type Row = { id: number; temp: number | null; tag: string | null };
type Fault = keyof typeof faults;

/** One statement of the transaction; the rows' ids are given when the script runs. */
type Step =
  | { kind: 'row' | 'array' | 'arrow'; rows: number; bad: { at: number; fault: Fault } | null }
  | { kind: 'read' };

const fault = fc.constantFrom(...(Object.keys(faults) as Fault[]));
const insert = fc
  .record({ kind: fc.constantFrom('row' as const, 'array' as const, 'arrow' as const), rows: fc.integer({ min: 1, max: 4 }), bad: fc.option(fc.record({ at: fc.nat(3), fault }), { freq: 3 }) })
  .map((s) => (s.kind === 'row' ? { ...s, rows: 1 } : s));
const step: fc.Arbitrary<Step> = fc.oneof({ weight: 6, arbitrary: insert }, { weight: 1, arbitrary: fc.constant({ kind: 'read' as const }) });
// a script that has at least one bad insert of a single row and one of several
const script = fc
  .tuple(fc.array(step, { maxLength: 12 }), fault, fault, fc.array(step, { maxLength: 12 }))
  .map(([before, f1, f2, after]): Step[] => [...before, { kind: 'row', rows: 1, bad: { at: 0, fault: f1 } }, ...after, { kind: 'array', rows: 3, bad: { at: 1, fault: f2 } }]);

const ids = async (t: { select: Table['select'] }) => (await t.select(undefined, { cols: ['id'] }).all()).map((r) => r.id as number);

describe('inserts in a transaction', () => {
  it('a failed insert of a row, an array or Arrow data adds nothing and leaves the transaction active; commit shows exactly the good rows, rollback none', async () => {
    const store = await freshStore();
    let tables = 0;
    await fc.assert(
      fc.asyncProperty(script, fc.boolean(), async (steps, commit) => {
        const t = store.table(`t${tables++}`);
        await t.create(schema);
        await t.insert([{ id: 0, temp: 0, tag: 'base' }]);
        const tx = await t.begin();
        const good: number[] = [];
        let next = 1;
        for (const s of steps) {
          if (s.kind === 'read') {
            expect(await ids(tx)).toEqual([0, ...good]);
            continue;
          }
          const clean: Row[] = Array.from({ length: s.rows }, () => ({ id: next, temp: next % 3 === 0 ? null : next / 2, tag: `r${next++}` }));
          const bad = s.bad && { at: Math.min(s.bad.at, clean.length - 1), fault: faults[s.bad.fault] };
          const rows: Record<string, unknown>[] = clean.map((r, i) => (bad?.at === i ? bad.fault[0](r) : r));
          const data = s.kind === 'row' ? rows[0]! : s.kind === 'array' ? rows : arrow(clean, bad !== null);
          const outcome = await tx.insert(data).then(
            () => null,
            (e: unknown) => e,
          );
          if (bad === null) {
            expect(outcome).toBeNull();
            good.push(...rows.map((r) => r.id as number));
            continue;
          }
          expect(isHaloclineError(outcome, 'InvalidData')).toBe(true);
          // Arrow data fails on its column's type, before any row
          if (s.kind !== 'arrow') expect(outcome).toMatchObject({ row: bad.at, column: bad.fault[1] });
          expect(tx.state).toBe('active');
        }
        expect(await ids(tx)).toEqual([0, ...good]);
        if (commit) await tx.commit();
        else await tx.rollback();
        expect(await ids(t)).toEqual(commit ? [0, ...good] : [0]);
        await t.drop();
      }),
      { numRuns: 60 },
    );
  });
});

// the rows as an Arrow table; when bad, its temp column holds strings
function arrow(rows: Row[], bad: boolean) {
  return tableFromArrays({
    id: Int32Array.from(rows.map((r) => r.id)),
    temp: bad ? rows.map(() => 'warm') : Float64Array.from(rows.map((r) => r.temp ?? Number.NaN)),
    tag: rows.map((r) => String(r.tag)),
  });
}
