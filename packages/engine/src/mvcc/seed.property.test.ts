// Property: deletion unions a committer hands to the cache equal the unions read from the records.
import { Field, Int32, Schema } from 'apache-arrow';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { StoreContext } from '../context.js';
import { openSnapshot } from '../read/snapshot.js';
import { type DeleteRecord, type TableRecord, deletePrefix, tableKey } from '../storage/records.js';
import { checkParams, soakTimeout } from '../test-util/soak.js';
import { freshStore } from '../test-util/store.js';
import { emptyBits, isDeleted } from './deletes.js';
import { markPositions } from './positions.js';

const schema = new Schema([new Field('id', new Int32(), false)]);
const ROWS = 600;

// one transaction: delete `id % m == r` (below `below`); `early` begins it before the previous one commits
const step = fc.record({ m: fc.integer({ min: 2, max: 9 }), r: fc.nat(8), below: fc.integer({ min: 0, max: ROWS }), early: fc.boolean() });

describe('seeded deletion unions', () => {
  it('match the records after every commit, with concurrent and conflicting transactions', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 8 }), async (steps) => {
        const store = await freshStore({ partitionRows: 200, compactRun: 1000 });
        const ctx = (store as unknown as { ctx: StoreContext }).ctx;
        const t = store.table('s');
        await t.create(schema);
        await t.insert(Array.from({ length: ROWS }, (_, id) => ({ id })));
        let pending = await t.begin();
        for (const s of steps) {
          const next = s.early ? await t.begin() : null;
          await pending.delete('id % $m == $r and id < $b', { vars: { m: s.m, r: s.r % s.m, b: s.below } });
          await pending.commit();
          pending = next ?? (await t.begin());
          await pending.delete('id % $m == $r and id < $b', { vars: { m: s.m + 1, r: s.r % s.m, b: s.below } }).catch(() => 0);
          await pending.commit().catch((e: { code?: string }) => expect(e.code).toBe('Conflict'));
          pending = await t.begin();
          expectUnionsFromRecords(ctx);
        }
        await pending.rollback();
        await store.close();
      }),
      checkParams(25),
    );
  }, soakTimeout(60_000, 25, checkParams(25).numRuns!));
});

// every partition's union in a fresh snapshot equals the one built from its records alone
function expectUnionsFromRecords(ctx: StoreContext): void {
  const snap = openSnapshot(ctx, 's');
  try {
    const record = ctx.meta.get<TableRecord>(tableKey('s'))!;
    for (const part of snap.parts) {
      const want = emptyBits(part.rows);
      let count = 0;
      for (const [, r] of ctx.meta.range<DeleteRecord>(deletePrefix(record.id, part.id))) if (r.version <= snap.record.version) count += markPositions(want, r.rows);
      const got = snap.deleted.get(part.id);
      expect(got?.count ?? 0).toBe(count);
      for (let row = 0; row < part.rows; row++) expect(got ? isDeleted(got.bits, row) : false).toBe(isDeleted(want, row));
      if (got) expect([...(got.rows ?? [])]).toEqual(Array.from({ length: part.rows }, (_, row) => row).filter((row) => isDeleted(want, row)));
    }
  } finally {
    snap.release();
  }
}
